/**
 * Domain and tag names against a chunk (docs/bundle.md). A single name matches any segment of the
 * declared namespace or any folder name; a qualified name (`Shop.Repositories`,
 * `Shop::Repositories`, `App\Http`, `com/acme/store`) matches the namespace it names and
 * anything nested in it, and the same run of folder names anywhere in the path.
 * Case-sensitive. Pure functions.
 */

/** The segments of a name in any of the four spellings. */
export function splitName(name: string): string[] {
  // Most names are one word: no regex split for them (a bundle's thousand concepts each name one).
  if (!/[:\\./]/.test(name)) return name === '' ? [] : [name];
  return name.split(/::|\\|\.|\//).filter((s) => s !== '');
}

/** A name's lookup key (its segments joined by NUL, so spellings compare equal). */
export function nameKey(segments: readonly string[]): string {
  return segments.join('\0');
}

export interface ChunkNames {
  /** Segments of the namespace and every folder name: what a single name may equal. */
  singles: Set<string>;
  /** Keys of every namespace prefix and every run of folder names of two or more segments. */
  qualified: Set<string>;
}

/** Everything a name could match in a file: from its namespace and the folders of its paths. */
export function chunkNames(namespace: string | null, paths: ReadonlyArray<string | null>): ChunkNames {
  const singles = new Set<string>();
  const qualified = new Set<string>();
  if (namespace) {
    const ns = splitName(namespace);
    for (const s of ns) singles.add(s);
    // The namespace itself and every enclosing one: Shop.Repositories.Sql is inside Shop.Repositories.
    for (let k = 2; k <= ns.length; k++) qualified.add(nameKey(ns.slice(0, k)));
  }
  for (const path of paths) {
    if (!path) continue;
    const folders = path
      .split('/')
      .slice(0, -1)
      .filter((s) => s !== '');
    for (const f of folders) singles.add(f);
    for (let i = 0; i < folders.length; i++) {
      for (let j = i + 2; j <= folders.length; j++) qualified.add(nameKey(folders.slice(i, j)));
    }
  }
  return { singles, qualified };
}

/** Whether one domain/tag name matches a file's names. */
export function nameMatches(name: string, names: ChunkNames): boolean {
  const segments = splitName(name);
  if (segments.length === 0) return false;
  return segments.length === 1 ? names.singles.has(segments[0]!) : names.qualified.has(nameKey(segments));
}
