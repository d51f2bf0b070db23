/**
 * What the tests of `custody drift --accept` share: projects written to a temporary directory, drift reports as
 * the check makes them, and a stand-in `pulumi` that prints a preview's events and answers
 * `pulumi config set --config-file FILE KEY --raw [--secret | --plaintext | --type bool]` (the value on standard
 * input) by writing FILE as Pulumi does (a secret as `secure: <ciphertext>`), recording every call. The
 * end-to-end suite (test/e2e/drift-accept.test.ts) runs the real CLI.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DriftedField, DriftedResource, DriftReport } from "../drift/drift";

/** A new temporary directory holding `files` (path → text). */
export function projectWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-accept-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** Every file of `dir` and below (outside `bin-*`), path → text. */
export function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith("bin-") && entry.name !== "__pycache__") walk(full);
      } else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** A drifted field, not secret, certain. */
export function field(name: string, declared: unknown, live: unknown): DriftedField {
  return { field: name, declared, live, secret: false, certain: true };
}

/** A drifted vault (plugin path) of stack `dev`, project `proj`. */
export function drifted(
  resource: string,
  fields: DriftedField[],
  extra: Partial<DriftedResource> = {},
): DriftedResource {
  return {
    urn: `urn:pulumi:dev::proj::custody:index:Vault::${resource}`,
    resource,
    kind: "Vault",
    operation: "update",
    vaultId: `${resource}-id`,
    vaultName: null,
    addressId: null,
    modifiedAt: null,
    fields,
    note: null,
    ...extra,
  };
}

/** A drift report of `resources` (stack `dev`). */
export function driftOf(resources: DriftedResource[]): DriftReport {
  return {
    schemaVersion: 1,
    status: "drift",
    exitCode: 3,
    stack: "dev",
    checkedAt: "2026-11-27T03:17:00.000Z",
    reason: null,
    resourcesChecked: resources.length,
    drifted: resources,
  };
}

/** How the stand-in was called. */
export interface StandInCall {
  /** Its arguments. */
  args: string[];
  /** What it read on standard input (`config set` only). */
  input?: string;
}

/** The stand-in `pulumi`. */
export interface ConfigStandIn {
  /** An environment with it first on PATH. */
  env: NodeJS.ProcessEnv;
  /** Every call so far. */
  calls(): StandInCall[];
}

/**
 * Writes a stand-in `pulumi` under `dir` that prints `events` for `preview` (exit `code`), and sets config
 * values in the `--config-file` it is given (exit 1 with a message when `failConfig` is set).
 */
export function configStandIn(dir: string, events = "", code = 0, failConfig?: string): ConfigStandIn {
  const bin = fs.mkdtempSync(path.join(dir, "bin-"));
  const log = path.join(bin, "calls.jsonl");
  const yaml = require.resolve("yaml");
  fs.writeFileSync(path.join(bin, "events.jsonl"), events);
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    `#!/usr/bin/env node
const fs = require("node:fs");
const args = process.argv.slice(2);
const record = (extra) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, ...extra }) + "\\n");
const flag = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
if (args[0] === "preview") {
  record({});
  process.stdout.write(fs.readFileSync(${JSON.stringify(path.join(bin, "events.jsonl"))}, "utf8"));
  process.exitCode = ${code};
} else if (args[0] === "config" && args[1] === "set") {
  const input = fs.readFileSync(0, "utf8");
  record({ input });
  if (${JSON.stringify(failConfig ?? "")}) { process.stderr.write("error: " + ${JSON.stringify(failConfig ?? "")} + "\\n"); process.exit(1); }
  const { parseDocument } = require(${JSON.stringify(yaml)});
  const file = flag("--config-file");
  const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  if (!doc.contents) doc.contents = doc.createNode({});
  const value = args.includes("--secret")
    ? { secure: "v1:" + Buffer.from(input).toString("base64") }
    : flag("--type") === "bool" ? input === "true" : input;
  doc.setIn(["config", args[2]], value);
  fs.writeFileSync(file, doc.toString());
} else if (args[0] === "config") {
  record({});
  process.stdout.write("{}");
} else {
  record({});
  process.stderr.write("stand-in: unexpected call\\n");
  process.exitCode = 2;
}
`,
    { mode: 0o755 },
  );
  return {
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
    calls: () =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, "utf8")
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as StandInCall)
        : [],
  };
}

/** A vault's state in a preview: its id, inputs and outputs. */
export interface VaultState {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

const eventLine = (body: Record<string, unknown>) => JSON.stringify({ sequence: 1, timestamp: 0, ...body });

/**
 * The event stream of a refresh-preview of stack `dev`, project `proj`, in the shape the real CLI streams it
 * (cli/test/drift.test.ts has its variants): each vault's refresh (`before` → `live`), then its step, `update`
 * when `declared` differs from what was read, `same` otherwise.
 */
export function previewEvents(
  vaults: { name: string; before: VaultState; live: VaultState; declared: Record<string, unknown> }[],
): string {
  const type = "custody:index:Vault";
  const urn = (name: string) => `urn:pulumi:dev::proj::${type}::${name}`;
  const full = (name: string, s: VaultState | undefined) => s && { type, urn: urn(name), custom: true, ...s };
  const lines: string[] = [];
  for (const vault of vaults) {
    const meta = (now: VaultState) => ({
      op: "refresh",
      urn: urn(vault.name),
      type,
      old: full(vault.name, vault.before),
      new: full(vault.name, now),
    });
    lines.push(
      eventLine({ resourcePreEvent: { metadata: meta(vault.before) } }),
      eventLine({ resOutputsEvent: { metadata: meta(vault.live) } }),
    );
  }
  for (const vault of vaults) {
    const changed = JSON.stringify(vault.declared) !== JSON.stringify(vault.live.inputs);
    lines.push(
      eventLine({
        resourcePreEvent: {
          metadata: {
            op: changed ? "update" : "same",
            urn: urn(vault.name),
            type,
            old: full(vault.name, vault.live),
            new: full(vault.name, { ...vault.live, inputs: vault.declared }),
          },
        },
      }),
    );
  }
  lines.push(
    eventLine({
      summaryEvent: { resourceChanges: {}, PolicyPacks: {}, isPreview: true, result: "succeeded" },
    }),
  );
  return `${lines.join("\n")}\n`;
}

/** A vault's state with `inputs` (outputs: the same, active, unless `archived`). */
export function vaultState(id: string, inputs: Record<string, unknown>, archived = false): VaultState {
  return {
    id,
    inputs: archived ? { ...inputs, archived: true } : inputs,
    outputs: {
      ...inputs,
      state: archived ? "archived" : "active",
      details: { modifiedAt: "2026-11-26T22:00:00Z" },
    },
  };
}
