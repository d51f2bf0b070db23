// What a failing data source shows the person running `pulumi`: one line that names the data source, what is
// wrong and what to do, with no stack trace. Pulumi's program runner (`@pulumi/pulumi/cmd/run`) prints only the
// message of an error that `RunError.isInstance` accepts, and the whole `util.inspect` of any other error
// (frames, the cause, ANSI colours), so the errors must be of that kind. The CLI's own output is checked in
// test/e2e/messages.test.ts.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { type RunningEmulator, startEmulator } from "@pulumi-custody/emulator";
import { CustodyAuthenticationError, CustodyNotFoundError } from "@pulumi-custody/sdk";
import { freeLoopbackPort } from "@pulumi-custody/testing";
import { getBlockchains, getUser, getVaultsOutput } from "../index";

/** The rejection of `run`. */
async function failureOf(run: Promise<unknown>): Promise<Error> {
  const outcome = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(outcome instanceof Error, `expected a failure, got ${String(outcome)}`);
  return outcome;
}

/** What Pulumi's program runner prints for an error it is handed. */
function printedByPulumi(err: Error): string {
  return pulumi.RunError.isInstance(err) ? err.message : `${(err as Error).stack}`;
}

function assertOneLineWithoutTrace(err: Error): void {
  const printed = printedByPulumi(err);
  assert.ok(pulumi.RunError.isInstance(err), `Pulumi would print the whole error:\n${printed}`);
  assert.equal(printed.split("\n").length, 1, printed);
  assert.doesNotMatch(printed, /^\s+at /m);
  assert.ok(!printed.includes("\u001b["), printed);
}

describe("data-source errors (emulator)", () => {
  let emulator: RunningEmulator;
  const savedEnv = { ...process.env };
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    process.env.CUSTODY_REQUESTS_PER_MINUTE = "0";
    delete process.env.CUSTODY_BASE_URL;
    delete process.env.CUSTODY_ACCESS_TOKEN;
  });
  after(async () => {
    process.env = savedEnv;
    await emulator.close();
  });

  it("a refused token: one line naming the data source, the setting it came from and how to set it", async () => {
    const err = await failureOf(
      getBlockchains({}, { baseUrl: emulator.baseUrl, accessToken: "not-a-valid-token" }),
    );
    assertOneLineWithoutTrace(err);
    assert.match(
      err.message,
      /^getBlockchains: The custody API at http:\/\/127\.0\.0\.1:\d+ refused the access token from the accessToken option \(401 Unauthorized\): it is wrong, expired or revoked\./,
    );
    assert.doesNotMatch(err.message, /not-a-valid-token/);
    // The sdk's typed error stays reachable for a program that handles it.
    assert.ok(err.cause instanceof CustodyAuthenticationError);
  });

  it("a token from the environment is named as such, with both ways to set it", async () => {
    process.env.CUSTODY_BASE_URL = emulator.baseUrl;
    process.env.CUSTODY_ACCESS_TOKEN = "not-a-valid-token";
    try {
      const err = await failureOf(getBlockchains());
      assertOneLineWithoutTrace(err);
      assert.match(
        err.message,
        /refused the access token from the CUSTODY_ACCESS_TOKEN environment variable/,
      );
      assert.match(err.message, /pulumi config set --secret custody:accessToken <token>/);
    } finally {
      delete process.env.CUSTODY_BASE_URL;
      delete process.env.CUSTODY_ACCESS_TOKEN;
    }
  });

  it("plain http to a host that is not loopback (ERR_CUSTODY_INSECURE_URL): the base URL setting, one line", async () => {
    const err = await failureOf(
      getBlockchains({}, { baseUrl: "http://custody.example.com", accessToken: emulator.accessToken }),
    );
    assertOneLineWithoutTrace(err);
    assert.match(err.message, /^getBlockchains: Invalid base URL from the baseUrl option: .*plain http/);
  });

  it("a base URL where nothing listens: cannot be reached, check the setting", async () => {
    const baseUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;
    const err = await failureOf(getBlockchains({}, { baseUrl, accessToken: emulator.accessToken }));
    assertOneLineWithoutTrace(err);
    assert.match(
      err.message,
      /^getBlockchains: The custody API at .* \(from the baseUrl option\) cannot be reached/,
    );
  });

  it("an answer about the data itself keeps the API's message, without a trace", async () => {
    const err = await failureOf(
      getUser(
        { id: "77777777-7777-4777-8777-777777777777" },
        { baseUrl: emulator.baseUrl, accessToken: emulator.accessToken },
      ),
    );
    assertOneLineWithoutTrace(err);
    assert.match(
      err.message,
      /^getUser: GET \/api\/v1\/users\/77777777-7777-4777-8777-777777777777 failed with 404/,
    );
    assert.ok(err.cause instanceof CustodyNotFoundError);
  });

  it("a missing setting names the key and both ways to set it, without a trace", async () => {
    const err = await failureOf(getBlockchains());
    assertOneLineWithoutTrace(err);
    assert.match(err.message, /^getBlockchains: Missing setting custody:baseUrl: set it with/);
  });

  it("the Output variant fails with the same one-line error", async () => {
    const output = getVaultsOutput({}, { baseUrl: emulator.baseUrl, accessToken: "not-a-valid-token" });
    // The value's promise (internal to @pulumi/pulumi, but what every consumer of the Output awaits).
    const err = await failureOf((output as unknown as { promise(): Promise<unknown> }).promise());
    assertOneLineWithoutTrace(err);
    assert.match(err.message, /^getVaults: The custody API at .* refused the access token/);
  });
});
