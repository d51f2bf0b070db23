package main

import (
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
)

func TestSplitNodeArgs(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"--max-old-space-size=4096", []string{"--max-old-space-size=4096"}},
		{`--max-old-space-size=4096 --require "./a b.js"`, []string{"--max-old-space-size=4096", "--require", "./a b.js"}},
		{`--require './hooks/with space/x.js'`, []string{"--require", "./hooks/with space/x.js"}},
		{`--require ./a\ b.js`, []string{"--require", "./a b.js"}},
		{"  --inspect\t--trace-warnings \n", []string{"--inspect", "--trace-warnings"}},
		{`--title="it's quoted"`, []string{"--title=it's quoted"}},
	}
	for _, c := range cases {
		got, err := splitNodeArgs(c.in)
		if err != nil {
			t.Errorf("splitNodeArgs(%q): %v", c.in, err)
			continue
		}
		if (len(got) > 0 || len(c.want) > 0) && !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitNodeArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitNodeArgsUnterminatedQuote(t *testing.T) {
	_, err := splitNodeArgs(`--require "./a b.js`)
	if err == nil || !strings.Contains(err.Error(), "nodeargs") {
		t.Fatalf("want an error naming the nodeargs option, got %v", err)
	}
}

func TestParseOptions(t *testing.T) {
	opts, err := parseOptions(nil)
	if err != nil || !opts.typescript || opts.packageManager != "auto" || opts.nodeargs != "" {
		t.Fatalf("defaults: %+v, %v", opts, err)
	}
	s, _ := structpb.NewStruct(map[string]any{
		"typescript": false, "tsconfig": "tsconfig.build.json", "nodeargs": "--inspect", "packagemanager": "pnpm",
	})
	opts, err = parseOptions(s)
	if err != nil || opts.typescript || opts.tsconfigPath != "tsconfig.build.json" || opts.nodeargs != "--inspect" ||
		opts.packageManager != "pnpm" {
		t.Fatalf("set: %+v, %v", opts, err)
	}
	for field, value := range map[string]any{
		"typescript": "yes", "nodeargs": []any{"--inspect"}, "packagemanager": "cargo", "tsconfig": true,
	} {
		s, _ := structpb.NewStruct(map[string]any{field: value})
		if _, err := parseOptions(s); err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(field, "path")) {
			t.Errorf("%s=%v: want an error naming the option, got %v", field, value, err)
		}
	}
}
