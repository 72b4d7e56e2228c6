/**
 * Which build of revtrail is running: the key of every derived cache (bundle cache, config
 * cache), so that one build never trusts what another one parsed or validated.
 *
 * The bundled CLI and the hook bundle (docs/hooks.md "Start-up") are built from the same sources
 * and get the same id from the build (a hash of the sources and the lockfile), so the hooks and
 * `revtrail review` share their caches. Run from the per-module output (the tests), the id is
 * this module file's identity instead: any rebuild changes it.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

declare const REVTRAIL_VERSION: string | undefined;
declare const REVTRAIL_BUILD: string | undefined;

let id: string | undefined;

export function currentBuild(): string {
  if (id !== undefined) return id;
  let code: string;
  if (typeof REVTRAIL_BUILD === 'string') code = REVTRAIL_BUILD;
  else {
    try {
      const path = fileURLToPath(import.meta.url);
      const s = statSync(path);
      code = `${path}:${s.size}:${s.mtimeMs}`;
    } catch {
      code = import.meta.url;
    }
  }
  // The Node version too: a pattern one V8 accepts may not compile in another.
  id = `${typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : 'dev'}|${process.version}|${code}`;
  return id;
}
