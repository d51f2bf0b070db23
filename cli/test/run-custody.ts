/** The `custody` command run in process, as the tests drive it. */
import { PassThrough } from "node:stream";
import { main } from "../custody";

/**
 * Runs `custody <argv>` in process in `cwd` with `env` (by default a `PATH` where no `pulumi` is found); its exit
 * code and what it wrote.
 */
export async function custody(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = { PATH: "/nonexistent" },
) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const code = await main(argv, { stdout, stderr, stdin: new PassThrough(), env, cwd });
  return { code, stdout: out, stderr: err };
}
