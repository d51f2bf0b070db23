/**
 * A program directory with `pulumi-custody` installed as `npm install` installs it in a user's program: in
 * the program's node_modules, beside `@pulumi/pulumi`. What depends on the provider being loaded from a
 * node_modules folder is tested through it: Pulumi's closure serializer writes a bare
 * `require("pulumi-custody/provider-runtime/vault")` for a module loaded from one, and finds the package's
 * "exports" by resolving `pulumi-custody` from its own location.
 *
 * In this repository neither holds: `node_modules/pulumi-custody` is npm's workspace link, which Node.js
 * resolves to the checkout (not a node_modules folder), and `@pulumi/pulumi` in the repository's node_modules
 * resolves `pulumi-custody` to that checkout, whose path does not name the package. So the program directory
 * holds copies of both packages (of pulumi-custody, its published files: package.json "files"); their
 * dependencies are linked to where they resolve here. It is made once per process in the system's temporary
 * directory, and removed when the process exits.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";

/** The provider package's own directory (`provider/`), from the compiled tests in `provider/dist/test`. */
export const PACKAGE_DIR = path.resolve(__dirname, "..", "..");

interface Manifest {
  name: string;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A program directory with the package installed. */
export interface InstalledPackage {
  /** The program directory (its `node_modules/pulumi-custody` is the copy). */
  dir: string;
  /** `require` as a module of the program resolves: `pulumi-custody` and `@pulumi/pulumi` are the copies. */
  require: NodeJS.Require;
  /** The directory each linked dependency resolves to (name → directory), this checkout's among them. */
  linked: Record<string, string>;
}

/** The program directories made so far, by the prefix of their folder's name. */
const installed = new Map<string, InstalledPackage>();

function manifestOf(dir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
}

/** The directory of package `name` as a module in `from` finds it (the node_modules folders above it). */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed above ${from}`);
  }
}

/**
 * The program directory with `pulumi-custody` installed (made on first use), in a folder of the temporary
 * directory whose name starts with `prefix`. Pulumi finds an installed package's package.json at the first
 * occurrence of the package's name in the path it resolves (@pulumi/pulumi runtime/closure/package.js,
 * getPackageDefinition), so a prefix holding "pulumi-custody" is a program in a user's folder named after it.
 */
export function installedPackage(prefix = "custody-program-"): InstalledPackage {
  const made = installed.get(prefix);
  if (made) return made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const nodeModules = path.join(dir, "node_modules");
  const manifest = manifestOf(PACKAGE_DIR);
  const programManifest = { name: "program", private: true, dependencies: { [manifest.name]: "*" } };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(programManifest, null, 2)}\n`);

  // pulumi-custody: package.json and its "files", less what they leave out (`!dist/test`,
  // `!dist/**/*.tsbuildinfo`).
  const leftOut = (relative: string) =>
    relative === "dist/test" || relative.startsWith("dist/test/") || relative.endsWith(".tsbuildinfo");
  for (const entry of ["package.json", ...(manifest.files ?? []).filter((f) => !f.startsWith("!"))]) {
    const source = path.join(PACKAGE_DIR, entry);
    if (!fs.existsSync(source))
      throw new Error(`provider/${entry} (package.json "files") is missing: build first`);
    fs.cpSync(source, path.join(nodeModules, manifest.name, entry), {
      recursive: true,
      filter: (from) => !leftOut(path.relative(PACKAGE_DIR, from).split(path.sep).join("/")),
    });
  }
  // @pulumi/pulumi (its peer dependency) as installed here, nested node_modules included.
  const pulumiDir = packageDir("@pulumi/pulumi", PACKAGE_DIR);
  fs.cpSync(pulumiDir, path.join(nodeModules, "@pulumi/pulumi"), { recursive: true });

  // The dependencies of both, linked to where they resolve from each package's own directory (less those the
  // copy of @pulumi/pulumi holds in its own node_modules).
  const linked: Record<string, string> = {};
  for (const [from, names] of [
    [PACKAGE_DIR, Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })],
    [pulumiDir, Object.keys(manifestOf(pulumiDir).dependencies ?? {})],
  ] as const) {
    for (const name of names) {
      const link = path.join(nodeModules, name);
      if (
        fs.existsSync(link) ||
        (from === pulumiDir && fs.existsSync(path.join(from, "node_modules", name)))
      ) {
        continue;
      }
      linked[name] = packageDir(name, from);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(linked[name], link, "dir");
    }
  }
  const program = { dir, require: createRequire(path.join(dir, "index.js")), linked };
  installed.set(prefix, program);
  return program;
}
