/**
 * The revtrail package folder (holds bin/, hooks/, templates/ and package.json), found from this
 * module's own location: the same answer from the bundled CLI (dist/cli), the hook bundle and
 * the per-module build the tests run.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'bin', 'revtrail.js')) && existsSync(join(dir, 'package.json'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir)
      throw new Error('cannot find the revtrail package (bin/revtrail.js and package.json) above this module');
    dir = up;
  }
}
