// Command registry-docs writes the API docs of a provider's schema in the Pulumi registry's format: one page per
// resource and per function (`<out>/<name>/_index.md`) and the package's index (`<out>/_index.md`), each with the
// constructor or call, the inputs and outputs, and the supporting types in every language the provider ships
// SDKs for (TypeScript, Python, Go, YAML). Hugo front matter and the registry's language chooser shortcodes, as
// the registry's own generator writes them.
//
// The registry's generator (pkg/codegen/docs) is no longer in the pkg/v3 module the Go module proxy serves, so
// this is an equivalent: each language's names and types come from that language's DocLanguageHelper in
// pkg/v3/codegen (nodejs, python, go), the code the registry's generator calls for them; YAML's are the schema's
// own names. Same schema, same pages: scripts/registry-docs.sh builds and runs it, and an end-to-end test fails
// when the committed docs differ from what the release's schema generates.
//
//	registry-docs <schema.json> <out dir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: registry-docs <schema.json> <out dir>")
		os.Exit(2)
	}
	pages, err := generate(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "registry-docs: %v\n", err)
		os.Exit(1)
	}
	if err := write(os.Args[2], pages); err != nil {
		fmt.Fprintf(os.Stderr, "registry-docs: %v\n", err)
		os.Exit(1)
	}
}

// write replaces out with the pages (relative path to contents).
func write(out string, pages map[string]string) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, text := range pages {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate binds the schema and renders every page.
func generate(schemaPath string) (map[string]string, error) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if err := pkg.ImportLanguages(map[string]schema.Language{
		"nodejs": nodejs.Importer, "python": python.Importer, "go": gogen.Importer,
	}); err != nil {
		return nil, err
	}
	goInfo, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	goHelper := &gogen.DocLanguageHelper{}
	goHelper.GeneratePackagesMap(pkg.Reference(), "registry-docs", goInfo)

	g := &generator{pkg: pkg, langs: []language{
		{id: "typescript", fence: "typescript", helper: nodejs.DocLanguageHelper{}},
		{id: "python", fence: "python", helper: python.DocLanguageHelper{}},
		{id: "go", fence: "go", helper: *goHelper},
		{id: "yaml", fence: "yaml"},
	}}
	pages := map[string]string{"_index.md": g.index()}
	for _, r := range pkg.Resources {
		pages[pageName(r.Token)] = g.resource(r)
	}
	for _, f := range pkg.Functions {
		pages[pageName(f.Token)] = g.function(f)
	}
	return pages, nil
}

// noOtherPackages is the loader of a schema that refers to no other package: it refuses to load any.
type noOtherPackages struct{}

func (noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to the package %s: registry-docs documents one package alone", pkg)
}

func (l noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noOtherPackages) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noOtherPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

// pageName is where the registry puts a member's page: its lowercase name, under the package's api-docs.
func pageName(token string) string {
	return filepath.Join(strings.ToLower(memberName(token)), "_index.md")
}

// memberName is the last part of a token (`custody:index:Vault` is Vault).
func memberName(token string) string {
	parts := strings.Split(token, ":")
	return parts[len(parts)-1]
}

// language is one SDK language of the pages; YAML has no helper (its names are the schema's).
type language struct {
	id, fence string
	helper    codegen.DocLanguageHelper
}

type generator struct {
	pkg   *schema.Package
	langs []language
}

func (g *generator) chooser() string {
	ids := make([]string, len(g.langs))
	for i, l := range g.langs {
		ids[i] = l.id
	}
	return fmt.Sprintf("{{< chooser language \"%s\" >}}\n", strings.Join(ids, ","))
}

// perLanguage renders one choosable block per language, in a chooser.
func (g *generator) perLanguage(b *strings.Builder, render func(l language) string) {
	b.WriteString(g.chooser())
	for _, l := range g.langs {
		fmt.Fprintf(b, "{{%% choosable language %s %%}}\n\n%s\n{{%% /choosable %%}}\n", l.id, strings.TrimRight(render(l), "\n")+"\n")
	}
	b.WriteString("{{< /chooser >}}\n\n")
}

func frontMatter(title, titleTag, metaDesc string) string {
	return fmt.Sprintf("---\ntitle: %q\ntitle_tag: %q\nmeta_desc: %q\nlayout: api\nno_edit_this_page: true\n---\n\n"+
		"<!-- WARNING: this file was generated by scripts/registry-docs from the provider's schema. Do not edit it by hand: run `bash scripts/registry-docs.sh`. -->\n\n",
		title, titleTag, metaDesc)
}

func (g *generator) index() string {
	var b strings.Builder
	b.WriteString(frontMatter(g.pkg.Name, g.pkg.Name+" API reference",
		fmt.Sprintf("Reference of the %s package: its resources and functions, in TypeScript, Python, Go and YAML.", g.pkg.Name)))
	if g.pkg.Description != "" {
		b.WriteString(g.pkg.Description + "\n\n")
	}
	b.WriteString("## Resources\n\n")
	for _, r := range g.pkg.Resources {
		fmt.Fprintf(&b, "- [%s](%s/)\n", memberName(r.Token), strings.ToLower(memberName(r.Token)))
	}
	b.WriteString("\n## Functions\n\n")
	for _, f := range g.pkg.Functions {
		fmt.Fprintf(&b, "- [%s](%s/)\n", memberName(f.Token), strings.ToLower(memberName(f.Token)))
	}
	b.WriteString("\n")
	g.packageDetails(&b)
	return b.String()
}

func (g *generator) packageDetails(b *strings.Builder) {
	b.WriteString("## Package Details\n\n<dl class=\"package-details\">\n")
	fmt.Fprintf(b, "\t<dt>Repository</dt>\n\t<dd><a href=\"%s\">%s</a></dd>\n", g.pkg.Repository, g.pkg.DisplayName)
	fmt.Fprintf(b, "\t<dt>License</dt>\n\t<dd>%s</dd>\n", g.pkg.License)
	fmt.Fprintf(b, "\t<dt>Version</dt>\n\t<dd>%s</dd>\n", g.pkg.Version)
	b.WriteString("</dl>\n")
}

// module is the schema module of a token, as the helpers take it.
func (g *generator) module(token string) string {
	return g.pkg.TokenToModule(token)
}

func (g *generator) resource(r *schema.Resource) string {
	name := memberName(r.Token)
	mod := g.module(r.Token)
	var b strings.Builder
	b.WriteString(frontMatter(name, g.pkg.Name+"."+name,
		fmt.Sprintf("Documentation for the %s.%s resource with examples, input properties, output properties, and supporting types.", g.pkg.Name, name)))
	if r.Comment != "" {
		b.WriteString(strings.TrimSpace(r.Comment) + "\n\n")
	}

	fmt.Fprintf(&b, "## Create %s Resource {#create}\n\n", name)
	g.perLanguage(&b, func(l language) string { return g.constructor(l, r) })

	fmt.Fprintf(&b, "## %s Resource Properties {#properties}\n\n", name)
	b.WriteString("### Inputs\n\n")
	g.perLanguage(&b, func(l language) string { return g.properties(l, r.InputProperties, true, mod) })

	b.WriteString("### Outputs\n\nAll input properties are implicitly available as output properties. Additionally, the ")
	fmt.Fprintf(&b, "%s resource produces the following output properties:\n\n", name)
	inputs := map[string]bool{}
	for _, p := range r.InputProperties {
		inputs[p.Name] = true
	}
	outputs := []*schema.Property{{Name: "id", Type: schema.StringType, Comment: "The provider-assigned unique ID for this managed resource."}}
	for _, p := range r.Properties {
		if !inputs[p.Name] {
			outputs = append(outputs, p)
		}
	}
	g.perLanguage(&b, func(l language) string { return g.properties(l, outputs, false, mod) })

	b.WriteString("## Import\n\n")
	fmt.Fprintf(&b, "An existing %s is imported by its id:\n\n```sh\npulumi import %s <name> <id>\n```\n\n", name, r.Token)

	g.supportingTypes(&b, mod, append(append([]*schema.Property{}, r.InputProperties...), r.Properties...))
	g.packageDetails(&b)
	return b.String()
}

func (g *generator) function(f *schema.Function) string {
	name := memberName(f.Token)
	mod := g.module(f.Token)
	var b strings.Builder
	b.WriteString(frontMatter(name, g.pkg.Name+"."+name,
		fmt.Sprintf("Documentation for the %s.%s function with examples, input properties, output properties, and supporting types.", g.pkg.Name, name)))
	if f.Comment != "" {
		b.WriteString(strings.TrimSpace(f.Comment) + "\n\n")
	}
	fmt.Fprintf(&b, "## Using %s {#using}\n\n", name)
	g.perLanguage(&b, func(l language) string { return g.call(l, f) })

	var args, results []*schema.Property
	if f.Inputs != nil {
		args = f.Inputs.Properties
	}
	if o, ok := f.ReturnType.(*schema.ObjectType); ok {
		results = o.Properties
	}
	b.WriteString("The following arguments are supported:\n\n")
	g.perLanguage(&b, func(l language) string { return g.properties(l, args, true, mod) })
	fmt.Fprintf(&b, "## %s Result {#result}\n\nThe following output properties are available:\n\n", name)
	g.perLanguage(&b, func(l language) string { return g.properties(l, results, false, mod) })

	g.supportingTypes(&b, mod, append(append([]*schema.Property{}, args...), results...))
	g.packageDetails(&b)
	return b.String()
}

// constructor is the signature of a resource's constructor in l.
func (g *generator) constructor(l language, r *schema.Resource) string {
	fence := func(code string) string { return "```" + l.fence + "\n" + code + "\n```\n" }
	switch l.id {
	case "typescript":
		name := l.helper.GetResourceName(r)
		return fence(fmt.Sprintf("new %s(name: string, args: %sArgs, opts?: CustomResourceOptions);", name, name))
	case "python":
		name := l.helper.GetResourceName(r)
		params := []string{"resource_name: str", "opts: Optional[ResourceOptions] = None"}
		for _, p := range r.InputProperties {
			pn, _ := l.helper.GetPropertyName(p)
			params = append(params, fmt.Sprintf("%s: Optional[%s] = None", pn, l.helper.GetTypeName(g.pkg.Reference(), required(p.Type), true, g.module(r.Token))))
		}
		pad := strings.Repeat(" ", len(name)+1)
		return fence(fmt.Sprintf("%s(resource_name: str,\n%sargs: %sArgs,\n%sopts: Optional[ResourceOptions] = None)\n\n%s(%s)",
			name, pad, name, pad, name, strings.Join(params, ",\n"+pad)))
	case "go":
		name := l.helper.GetResourceName(r)
		return fence(fmt.Sprintf("func New%s(ctx *Context, name string, args %sArgs, opts ...ResourceOption) (*%s, error)", name, name, name))
	default:
		var b strings.Builder
		fmt.Fprintf(&b, "type: %s\nproperties:\n", r.Token)
		for _, p := range r.InputProperties {
			fmt.Fprintf(&b, "    %s: %s\n", p.Name, yamlPlaceholder(p.Type))
		}
		return fence(strings.TrimRight(b.String(), "\n"))
	}
}

// call is the signature of a function's call in l.
func (g *generator) call(l language, f *schema.Function) string {
	fence := func(code string) string { return "```" + l.fence + "\n" + code + "\n```\n" }
	var args []*schema.Property
	if f.Inputs != nil {
		args = f.Inputs.Properties
	}
	switch l.id {
	case "typescript":
		name := l.helper.GetFunctionName(f)
		result := l.helper.GetResourceFunctionResultName(g.module(f.Token), f)
		argsType := title(name) + "Args"
		return fence(fmt.Sprintf("function %s(args: %s, opts?: InvokeOptions): Promise<%s>\nfunction %sOutput(args: %sOutputArgs, opts?: InvokeOptions): Output<%s>",
			name, argsType, result, name, title(name), result))
	case "python":
		name := l.helper.GetFunctionName(f)
		result := l.helper.GetResourceFunctionResultName(g.module(f.Token), f)
		var params, outParams []string
		for _, p := range args {
			pn, _ := l.helper.GetPropertyName(p)
			params = append(params, fmt.Sprintf("%s: Optional[%s] = None", pn, l.helper.GetTypeName(g.pkg.Reference(), required(p.Type), false, g.module(f.Token))))
			outParams = append(outParams, fmt.Sprintf("%s: Optional[pulumi.Input[%s]] = None", pn, l.helper.GetTypeName(g.pkg.Reference(), required(p.Type), false, g.module(f.Token))))
		}
		params = append(params, "opts: Optional[InvokeOptions] = None")
		outParams = append(outParams, "opts: Optional[InvokeOptions] = None")
		pad := strings.Repeat(" ", len(name)+5)
		padOut := strings.Repeat(" ", len(name)+12)
		return fence(fmt.Sprintf("def %s(%s) -> %s\ndef %s_output(%s) -> Output[%s]", name, strings.Join(params, ",\n"+pad), result,
			name, strings.Join(outParams, ",\n"+padOut), result))
	case "go":
		name := l.helper.GetFunctionName(f)
		result := l.helper.GetResourceFunctionResultName(g.module(f.Token), f)
		return fence(fmt.Sprintf("func %s(ctx *Context, args *%sArgs, opts ...InvokeOption) (*%s, error)\nfunc %sOutput(ctx *Context, args %sOutputArgs, opts ...InvokeOption) %sOutput",
			name, name, result, name, name, result))
	default:
		var b strings.Builder
		fmt.Fprintf(&b, "fn::invoke:\n  function: %s\n  arguments:\n", f.Token)
		for _, p := range args {
			fmt.Fprintf(&b, "    %s: %s\n", p.Name, yamlPlaceholder(p.Type))
		}
		return fence(strings.TrimRight(b.String(), "\n"))
	}
}

// properties is the table of props in l: name, type, whether required, description.
func (g *generator) properties(l language, props []*schema.Property, input bool, mod string) string {
	if len(props) == 0 {
		return "None.\n"
	}
	var b strings.Builder
	if input {
		b.WriteString("| Property | Type | Required | Description |\n|---|---|---|---|\n")
	} else {
		b.WriteString("| Property | Type | Description |\n|---|---|---|\n")
	}
	for _, p := range sortedProperties(props) {
		name, typ := p.Name, yamlType(p.Type)
		if l.helper != nil {
			name, _ = l.helper.GetPropertyName(p)
			typ = l.helper.GetTypeName(g.pkg.Reference(), p.Type, input, mod)
		}
		required := "no"
		if p.IsRequired() {
			required = "yes"
		}
		desc := strings.ReplaceAll(strings.TrimSpace(p.Comment), "\n", " ")
		if p.Secret {
			desc = strings.TrimSpace(desc + " (secret)")
		}
		if input {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", name, cell(typ), required, cell(desc))
		} else {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", name, cell(typ), cell(desc))
		}
	}
	return b.String()
}

// supportingTypes documents the enums and object types the properties use, each once, in token order.
func (g *generator) supportingTypes(b *strings.Builder, mod string, props []*schema.Property) {
	seen := map[string]schema.Type{}
	var visit func(t schema.Type)
	visit = func(t schema.Type) {
		switch t := t.(type) {
		case *schema.OptionalType:
			visit(t.ElementType)
		case *schema.InputType:
			visit(t.ElementType)
		case *schema.ArrayType:
			visit(t.ElementType)
		case *schema.MapType:
			visit(t.ElementType)
		case *schema.EnumType:
			seen[t.Token] = t
		case *schema.ObjectType:
			if _, done := seen[t.Token]; done {
				return
			}
			seen[t.Token] = t
			for _, p := range t.Properties {
				visit(p.Type)
			}
		}
	}
	for _, p := range props {
		visit(p.Type)
	}
	if len(seen) == 0 {
		return
	}
	tokens := make([]string, 0, len(seen))
	for token := range seen {
		tokens = append(tokens, token)
	}
	sort.Strings(tokens)
	b.WriteString("## Supporting Types\n\n")
	for _, token := range tokens {
		switch t := seen[token].(type) {
		case *schema.EnumType:
			fmt.Fprintf(b, "### %s {#%s}\n\n", memberName(token), strings.ToLower(memberName(token)))
			if t.Comment != "" {
				b.WriteString(strings.TrimSpace(t.Comment) + "\n\n")
			}
			g.perLanguage(b, func(l language) string { return g.enumValues(l, t) })
		case *schema.ObjectType:
			fmt.Fprintf(b, "### %s {#%s}\n\n", memberName(token), strings.ToLower(memberName(token)))
			if t.Comment != "" {
				b.WriteString(strings.TrimSpace(t.Comment) + "\n\n")
			}
			g.perLanguage(b, func(l language) string { return g.properties(l, t.Properties, false, mod) })
		}
	}
}

// enumValues is the table of an enum's values in l: the name of each in the SDK, and its value.
func (g *generator) enumValues(l language, t *schema.EnumType) string {
	var b strings.Builder
	b.WriteString("| Name | Value | Description |\n|---|---|---|\n")
	for _, e := range t.Elements {
		name := fmt.Sprintf("%q", e.Value)
		if l.helper != nil {
			n, err := l.helper.GetEnumName(e, memberName(t.Token))
			if err == nil {
				name = n
				if l.id == "go" {
					name = memberName(t.Token) + n
				}
			}
		}
		fmt.Fprintf(&b, "| `%s` | `%v` | %s |\n", name, e.Value, cell(strings.TrimSpace(e.Comment)))
	}
	return b.String()
}

// sortedProperties puts the required properties first, each group by name.
func sortedProperties(props []*schema.Property) []*schema.Property {
	sorted := append([]*schema.Property{}, props...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].IsRequired() != sorted[j].IsRequired() {
			return sorted[i].IsRequired()
		}
		return sorted[i].Name < sorted[j].Name
	})
	return sorted
}

// yamlType is a type in the words of the registry's YAML pages.
func yamlType(t schema.Type) string {
	switch t := t.(type) {
	case *schema.OptionalType:
		return yamlType(t.ElementType)
	case *schema.InputType:
		return yamlType(t.ElementType)
	case *schema.ArrayType:
		return "List<" + yamlType(t.ElementType) + ">"
	case *schema.MapType:
		return "Map<" + yamlType(t.ElementType) + ">"
	case *schema.EnumType:
		values := make([]string, len(t.Elements))
		for i, e := range t.Elements {
			values[i] = fmt.Sprintf("%q", fmt.Sprint(e.Value))
		}
		return strings.Join(values, " | ")
	case *schema.ObjectType:
		return "Property Map"
	case *schema.UnionType:
		return "String"
	}
	switch t {
	case schema.BoolType:
		return "Boolean"
	case schema.IntType:
		return "Integer"
	case schema.NumberType:
		return "Number"
	case schema.StringType:
		return "String"
	case schema.AnyType:
		return "Any"
	}
	return t.String()
}

// yamlPlaceholder is what a YAML example puts for a property of type t.
func yamlPlaceholder(t schema.Type) string {
	switch yamlType(t) {
	case "Boolean":
		return "false"
	case "Integer", "Number":
		return "0"
	case "String":
		return `"string"`
	}
	switch t := codegen.UnwrapType(t).(type) {
	case *schema.ArrayType:
		return "[" + yamlPlaceholder(t.ElementType) + "]"
	case *schema.MapType:
		return "{}"
	case *schema.EnumType:
		return fmt.Sprintf("%q", fmt.Sprint(t.Elements[0].Value))
	}
	return "{}"
}

// required is t without its optionality: a signature says that itself (`Optional[...] = None`).
func required(t schema.Type) schema.Type {
	if optional, ok := t.(*schema.OptionalType); ok {
		return optional.ElementType
	}
	return t
}

// cell makes text safe in a Markdown table cell.
func cell(text string) string {
	return strings.ReplaceAll(text, "|", "\\|")
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
