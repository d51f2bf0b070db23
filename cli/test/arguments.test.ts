// What the command line says when it refuses an argument: it names the option or the position and the rule,
// never the value (a token typed into the wrong flag would otherwise land in a CI log), shows no control
// character that came from the arguments, and cuts a value it does echo to a bounded length.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, UsageError } from "../command";
import { COMMANDS } from "../custody";
import { custody } from "./run-custody";

/** The first line: the message. */
const firstLine = (text: string) => text.split("\n")[0] ?? "";

/** Control characters other than the newlines between lines (C0, DEL, C1) and the bidi overrides. */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const hasControl = (text: string) => CONTROL.test(text.replace(/\n/g, ""));

const SECRET = "cst_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const CSI = String.fromCharCode(0x9b);

/** The usage error `parseArgs` throws for `argv` (fails when it throws none). */
function usageErrorOf(argv: string[], spec: Parameters<typeof parseArgs>[1]): string {
  try {
    parseArgs(argv, spec);
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  assert.fail(`no usage error for ${JSON.stringify(argv)}`);
}

describe("custody: refused arguments are named, never echoed", () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-arguments-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe("the shared parser", () => {
    const spec = { flags: { out: "string", force: "boolean" }, aliases: { o: "out" } } as const;

    it("an unknown --name=value names the option only, cut at =", () => {
      const message = usageErrorOf([`--access-token=${SECRET}`], spec);
      assert.match(message, /^unknown option --access-token\b/);
      assert.ok(!message.includes(SECRET), message);
      assert.ok(!message.includes("="), message);
    });

    it("an unknown option that names a token says where the token goes instead", () => {
      const message = usageErrorOf([`--token=${SECRET}`], spec);
      assert.match(message, /^unknown option --token\b/);
      assert.match(message, /CUSTODY_ACCESS_TOKEN/);
      assert.ok(!message.includes(SECRET), message);
    });

    it("an unknown short option with text joined to it shows its letter only", () => {
      for (const arg of [`-t${SECRET}`, `-t=${SECRET}`, `-access-token=${SECRET}`, `-o${SECRET}`]) {
        const message = usageErrorOf([arg], spec);
        assert.match(message, /^unknown option -[a-z]\b/, arg);
        assert.ok(!message.includes(SECRET.slice(0, 8)), message);
      }
    });

    it("a boolean flag given a value: the flag named, not the value", () => {
      const message = usageErrorOf([`--force=${SECRET}`], spec);
      assert.equal(message, "option --force takes no value");
    });

    it("a flag whose next argument is another option does not take it as its value", () => {
      const message = usageErrorOf(["--out", `--access-token=${SECRET}`], spec);
      assert.match(message, /^option --out needs a value/);
      assert.ok(!message.includes(SECRET), message);
      // A value that starts with -- is still possible, joined with =.
      assert.equal(parseArgs(["--out=--odd"], spec).flags.out, "--odd");
    });

    it("a positional argument it refuses is named by its position, never shown", () => {
      const none = usageErrorOf(["--force", SECRET], spec);
      assert.match(none, /^unexpected argument 2\b/);
      assert.ok(!none.includes(SECRET), none);
      const many = usageErrorOf(["a.json", SECRET], { ...spec, maxPositionals: 1 });
      assert.match(many, /^too many arguments: at most 1\b/);
      assert.match(many, /argument 2\b/);
      assert.ok(!many.includes(SECRET) && !many.includes("a.json"), many);
    });

    it("an unknown option's name shows no control character and is cut to a bounded length", () => {
      const message = usageErrorOf([`--fo${ESC}]0;owned${BEL}o${CSI}31m`], spec);
      assert.ok(!hasControl(message), JSON.stringify(message));
      assert.match(message, /\\x1b/);
      const long = usageErrorOf([`--${"x".repeat(5000)}`], spec);
      assert.ok(long.length < 200, `${long.length} characters`);
      assert.match(long, /…/);
    });
  });

  describe("every subcommand", () => {
    for (const command of COMMANDS) {
      it(`${command.name}: --access-token=<TOKEN> is refused by its name alone (exit 2)`, async () => {
        const { code, stdout, stderr } = await custody([command.name, `--access-token=${SECRET}`], dir);
        assert.equal(code, 2, stderr);
        assert.match(
          firstLine(stderr),
          new RegExp(`^custody ${command.name}: unknown option --access-token\\b`),
        );
        assert.ok(!`${stdout}${stderr}`.includes(SECRET), stderr);
      });

      it(`${command.name}: a bad argument is one line that points to --help, not the usage (exit 2)`, async () => {
        const { code, stdout, stderr } = await custody([command.name, "--no-such-flag"], dir);
        assert.equal(code, 2, stderr);
        assert.equal(stdout, "");
        assert.match(
          stderr,
          new RegExp(
            `^custody ${command.name}: unknown option --no-such-flag; see \`custody ${command.name} --help\`\n$`,
          ),
        );
      });

      it(`${command.name}: a positional argument it refuses is not echoed (exit 2)`, async () => {
        const argv = command.name === "review" ? ["some.json", SECRET] : [SECRET];
        const { code, stdout, stderr } = await custody([command.name, ...argv], dir);
        assert.equal(code, 2, stderr);
        assert.match(firstLine(stderr), /argument/);
        assert.ok(!`${stdout}${stderr}`.includes(SECRET), stderr);
        assert.ok(!stderr.includes("some.json"), stderr);
      });
    }

    it("an unknown command is not echoed; a near miss is suggested", async () => {
      const secret = await custody([SECRET], dir);
      assert.equal(secret.code, 2);
      assert.match(firstLine(secret.stderr), /^custody: unknown command\b/);
      assert.ok(!secret.stderr.includes(SECRET), secret.stderr);
      // One line, pointing to the list of commands.
      assert.equal(
        secret.stderr,
        "custody: unknown command (the first argument, not shown): `custody --help` lists the commands\n",
      );
      const typo = await custody(["reviw"], dir);
      assert.equal(typo.code, 2);
      assert.match(firstLine(typo.stderr), /did you mean `review`\?/);
      assert.equal(typo.stderr.split("\n").length, 2, typo.stderr);
      assert.ok(!firstLine(typo.stderr).includes("reviw"), typo.stderr);
    });

    it("review: a FILE that does not exist is refused without echoing it (exit 2)", async () => {
      const { code, stderr } = await custody(["review", SECRET], dir);
      assert.equal(code, 2);
      assert.match(firstLine(stderr), /^custody review: .*FILE.* does not exist/);
      assert.ok(!stderr.includes(SECRET), stderr);
    });

    it("review: FILE together with -- is refused without echoing FILE (exit 2)", async () => {
      const { code, stderr } = await custody(["review", SECRET, "--", "--diff"], dir);
      assert.equal(code, 2);
      assert.match(firstLine(stderr), /either reads FILE or runs the preview/);
      assert.ok(!stderr.includes(SECRET), stderr);
    });
  });

  describe("values a message does echo: no control character, a bounded length", () => {
    const cases: [string, string[]][] = [
      ["--language", ["import", "--language", `go${ESC}[2J${CSI}0m\r\n${"g".repeat(500)}`]],
      ["--provider", ["import", "-l", "typescript", "--provider", `x${ESC}]0;t${BEL}${"p".repeat(500)}`]],
      ["--type", ["import-file", "--type", `evm,bit${ESC}[31mcoin${"t".repeat(500)}`]],
      ["--chain", ["import-file", "--chain", `lite${CSI}coin\u202e${"c".repeat(500)}`]],
      ["--state", ["import-file", "--state", `del${ESC}eted${"s".repeat(500)}`]],
      ["--name-pattern", ["import-file", "--name-pattern", `(${ESC}[1m${"n".repeat(500)}`]],
    ];
    for (const [flag, argv] of cases) {
      it(`${flag}: the value is escaped and cut`, async () => {
        const { code, stderr } = await custody(argv, dir);
        assert.equal(code, 2, stderr);
        // The message, without the pointer to --help that ends the line.
        const message = firstLine(stderr).replace(/; see `custody [a-z-]+ --help`$/, "");
        assert.match(message, new RegExp(`^custody [a-z-]+: ${flag} "`));
        assert.ok(!hasControl(stderr), JSON.stringify(message));
        assert.ok(message.length < 300, `${message.length} characters: ${message}`);
        assert.match(message, /…/);
      });
    }
  });
});
