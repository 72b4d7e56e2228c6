/**
 * `.md` files under a bundle that no index reaches (for `knowledge check`): discovery only
 * follows links, so such a file is silently not loaded. Dot folders are not looked into, and
 * the walk stops after MAX_ENTRIES entries (a bundle folder holding a dependency tree).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const MAX_ENTRIES = 20_000;

/** Real paths of `.md` files (not `log.md`) under `realRoot` that are not in `visited`, sorted. */
export function unreachedFiles(realRoot: string, visited: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let seen = 0;
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: discovery reports what it needed from here
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      // Symlinks are not followed: what they lead to is reached (or refused) through links.
      if (entry.isDirectory()) walk(path);
      else if (
        entry.isFile() &&
        entry.name.toLowerCase().endsWith('.md') &&
        entry.name.toLowerCase() !== 'log.md' &&
        !visited.has(path)
      )
        out.push(path);
    }
  };
  walk(realRoot);
  return out;
}
