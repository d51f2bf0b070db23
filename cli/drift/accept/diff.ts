/**
 * Unified diffs of the files an accept changes (Myers' O(ND) line diff, three lines of context), in the form
 * `git apply` and `patch -p1` read: `--- a/<path>` and `+++ b/<path>`.
 */

/** One line of an edit script: kept, removed or added; its text keeps its line break, if it has one. */
interface Line {
  readonly op: " " | "-" | "+";
  readonly text: string;
}

/** The lines of a text, each with its `\n` (the last one may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The shortest edit script from `a` to `b` (Myers, 1986). */
function editScript(a: readonly string[], b: readonly string[]): Line[] {
  const max = a.length + b.length;
  const offset = max + 1;
  const v = new Array<number>(2 * max + 3).fill(0);
  const trace: number[][] = [];
  const at = (k: number) => v[offset + k] as number;
  for (let d = 0; d <= max; d++) {
    trace.push([...v]);
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= a.length && y >= b.length) return backtrack(trace, a, b, offset, d);
    }
  }
  return [];
}

function backtrack(
  trace: readonly number[][],
  a: readonly string[],
  b: readonly string[],
  offset: number,
  last: number,
): Line[] {
  const out: Line[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d >= 0; d--) {
    const v = trace[d] as number[];
    const at = (k: number) => v[offset + k] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push({ op: " ", text: a[x] as string });
    }
    if (d === 0) break;
    if (x === prevX) {
      y--;
      out.push({ op: "+", text: b[y] as string });
    } else {
      x--;
      out.push({ op: "-", text: a[x] as string });
    }
  }
  return out.reverse();
}

/** A line of a hunk: its mark, its text, and the marker of a missing final newline. */
function hunkLine(line: Line): string {
  return line.text.endsWith("\n")
    ? `${line.op}${line.text.slice(0, -1)}`
    : `${line.op}${line.text}\n\\ No newline at end of file`;
}

/** The unified diff of one file's change, named `pathShown` (empty when nothing changed). */
export function unifiedDiff(pathShown: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const script = editScript(splitLines(before), splitLines(after));
  const out: string[] = [`--- a/${pathShown}`, `+++ b/${pathShown}`];
  let i = 0;
  while (i < script.length) {
    while (i < script.length && script[i]?.op === " ") i++;
    if (i >= script.length) break;
    // The change and its context; changes closer than twice the context share a hunk.
    const start = Math.max(0, i - context);
    let end = i;
    for (;;) {
      while (end < script.length && script[end]?.op !== " ") end++;
      let next = end;
      while (next < script.length && script[next]?.op === " ") next++;
      if (next < script.length && next - end <= 2 * context) end = next;
      else break;
    }
    const stop = Math.min(script.length, end + context);
    let oldLine = 1;
    let newLine = 1;
    for (const line of script.slice(0, start)) {
      if (line.op !== "+") oldLine++;
      if (line.op !== "-") newLine++;
    }
    const hunk = script.slice(start, stop);
    const oldCount = hunk.filter((l) => l.op !== "+").length;
    const newCount = hunk.filter((l) => l.op !== "-").length;
    out.push(
      `@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@`,
      ...hunk.map(hunkLine),
    );
    i = stop;
  }
  return `${out.join("\n")}\n`;
}
