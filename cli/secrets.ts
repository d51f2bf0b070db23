/**
 * The secrets the reports of `custody drift` and `custody review` must never carry, and their redactor: the
 * sdk's (`secretRedactor`), which knows each token and signing key in every written form, encoding and piece.
 * What those reports quote comes from the engine, the program, the providers and the service (error messages,
 * values a refresh read), any of which may echo a credential; the reports go to pull requests, issues and CI
 * logs. The secrets are those the command runs with: the values of the environment's secret variables
 * (`CUSTODY_ACCESS_TOKEN`, a passphrase, a PEM signing key) and the stack's secret config
 * (`custody:accessToken`), read with `pulumi config --show-secrets` and kept in memory only.
 */
import { execFile } from "node:child_process";
import { type SecretRedactor, secretRedactor } from "@pulumi-custody/sdk";
import type { PreviewJson } from "./review/preview";

/** Environment variables whose value is a secret, by name (`CUSTODY_ACCESS_TOKEN`, `CUSTODY_API_USER_KEY`). */
const SECRET_VARIABLE = /token|secret|password|passphrase|api-?key|credential|private-?key|_key$/i;

/**
 * A value of the environment shorter than this is not taken for a secret: it would mask ordinary words and
 * numbers (a variable `…_TOKEN_TTL=3600`) while hiding nothing. The stack's secret config is taken whole.
 */
const ENV_SECRET_MIN_LENGTH = 8;

/** A PEM private key, wherever it appears in a value. */
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;

/** The values of the secret variables of `env`. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string)
    .filter((value) => value.length >= ENV_SECRET_MIN_LENGTH);
}

/** The redactor of `secrets`: each a token, or a text holding a PEM private key (scrubbed in its every form). */
export function redactorOf(secrets: readonly string[]): SecretRedactor {
  const accessTokens: string[] = [];
  const privateKeys: string[] = [];
  for (const secret of secrets) {
    const keys = secret.match(PEM_PRIVATE_KEY);
    if (keys) privateKeys.push(...keys);
    accessTokens.push(secret);
  }
  return secretRedactor({ accessTokens, privateKeys });
}

/** How to read a stack's config. */
export interface StackConfigRun {
  /** The project directory. */
  cwd: string;
  /** The stack; the selected one when absent. */
  stack?: string;
  /** The environment of `pulumi` (its backend login, passphrase). */
  env: NodeJS.ProcessEnv;
}

/**
 * The values of the stack's secret config (`pulumi config --json --show-secrets`), such as `custody:accessToken`;
 * none when the config cannot be read (no stack, no CLI): the preview that follows then fails on its own and
 * says why.
 */
export function stackConfigSecrets(run: StackConfigRun): Promise<string[]> {
  const args = ["config", "--json", "--show-secrets", ...(run.stack ? ["--stack", run.stack] : [])];
  return new Promise((resolve) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { cwd: run.cwd, env: run.env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => {
        if (err) return resolve([]);
        try {
          const config = JSON.parse(stdout) as Record<string, { value?: unknown; secret?: boolean }>;
          resolve(
            Object.values(config).flatMap((entry) =>
              entry?.secret === true && typeof entry.value === "string" && entry.value !== ""
                ? [entry.value]
                : [],
            ),
          );
        } catch {
          resolve([]);
        }
      },
    );
  });
}

/**
 * `texts` scrubbed also as if joined two by two (a secret split across two diagnostics, or a diagnostic and the
 * CLI's last line), every piece found before any is replaced: the sdk's {@link SecretRedactor.together}, whose
 * pairs are the first texts (the rest are scrubbed one by one).
 */
export function acrossTexts(redactor: SecretRedactor, texts: readonly string[]): string[] {
  return redactor.together(texts) as string[];
}

/**
 * A preview without any form of a secret: every string at any depth (values a refresh read, policy messages),
 * the strings of each object and array also as if joined, and the diagnostics' messages also two by two.
 */
export function scrubPreview(preview: PreviewJson, redactor: SecretRedactor): PreviewJson {
  if (!redactor.active) return preview;
  const clean = redactor.value(preview);
  const diagnostics = clean.diagnostics ?? [];
  const messages = acrossTexts(
    redactor,
    diagnostics.map((d) => d.message),
  );
  return { ...clean, diagnostics: diagnostics.map((d, i) => ({ ...d, message: messages[i] ?? "" })) };
}
