/**
 * The resource names `custody import` gives what it imports: read from the display names, so that the
 * program is readable (`Treasury ETH` → `treasury-eth`), and
 * - deterministic: the same organization gives the same names, whatever order the API lists it in;
 * - stable across runs: when display names collide, the oldest object keeps the bare name and the newer ones
 *   get the first 8 characters of their id, so a vault created later never renames one imported before;
 * - collision-free: with each other and with every resource name the stack already has, and in the code
 *   generated from them (the slugs are lower-case words joined by `-`, which every language's generator turns
 *   into distinct identifiers, and never the name of a module the generated code imports).
 */

/** Names the generated code uses for itself (`import * as custody`, `import pulumi`, `config`): never a resource's. */
const RESERVED = new Set(["custody", "pulumi", "config"]);

/**
 * A resource name from a display name: lower-case ASCII words joined by `-` (accents dropped), `fallback` when
 * nothing is left; one that starts with a digit, or is reserved, gets `fallback` in front.
 */
export function resourceNameOf(display: string, fallback: string): string {
  const slug = display
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug === "") return fallback;
  if (/^[0-9]/.test(slug) || RESERVED.has(slug)) return `${fallback}-${slug}`;
  return slug;
}

/** Something to name: its id, the name it would like, and its creation time (oldest keeps a shared name). */
export interface Nameable {
  /** The object's id (unique). */
  readonly id: string;
  /** The name it would get alone ({@link resourceNameOf}). */
  readonly wanted: string;
  /** ISO-8601 creation time; ties are broken by id. */
  readonly createdAt: string;
}

/**
 * Unique names for `items`, by id. A wanted name that several items share, or that `taken` holds, is kept by
 * the oldest item only (none, when `taken` holds it); the others get `-<first 8 characters of the id>`, or
 * the whole id (and a counter) if that collides too.
 */
export function uniqueNames(items: readonly Nameable[], taken: ReadonlySet<string>): Map<string, string> {
  const byWanted = new Map<string, Nameable[]>();
  for (const item of items) byWanted.set(item.wanted, [...(byWanted.get(item.wanted) ?? []), item]);
  const names = new Map<string, string>();
  const used = new Set(taken);
  const suffixed: Nameable[] = [];
  for (const [wanted, group] of byWanted) {
    const ordered = [...group].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
    const [oldest, ...newer] = ordered;
    if (!taken.has(wanted) && oldest) {
      names.set(oldest.id, wanted);
      used.add(wanted);
      suffixed.push(...newer);
    } else suffixed.push(...ordered);
  }
  // Bare names are all placed first, so a suffixed name never takes one that an item wants as it is.
  for (const item of [...suffixed].sort((a, b) => a.id.localeCompare(b.id))) {
    const short = `${item.wanted}-${idSuffix(item.id).slice(0, 8)}`;
    let name = used.has(short) ? `${item.wanted}-${idSuffix(item.id)}` : short;
    for (let n = 2; used.has(name); n++) name = `${item.wanted}-${idSuffix(item.id)}-${n}`;
    names.set(item.id, name);
    used.add(name);
  }
  return names;
}

/** The id as a name suffix: lower case, letters and digits only. */
function idSuffix(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]/g, "");
}
