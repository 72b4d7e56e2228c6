/**
 * V8's code cache for the start-up's CommonJS bundles (docs/hooks.md, "Start-up"): the bytes V8
 * produced for a bundle the last time are handed back to it, and compiling the file costs a
 * lookup instead of a parse. Node 22 does this itself (module.enableCompileCache); Node 20 does
 * not. A code cache is trusted like code, so it lives beside the bundle, inside the installed
 * package, and never in a folder other users can write.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomicSync } from '../core/fs/atomic.js';
// The records only (their data): the starter's bundle keeps their handlers' lazy imports out
// (scripts/build.mjs), as the start-up never runs a handler.
import { HOOK_RECORDS } from '../hooks/registry.js';

declare const REVTRAIL_BUILD: string | undefined;

/** The hooks that get a code cache of their own (their record says so); any other name shares one. */
const CACHED_HOOKS = new Set(HOOK_RECORDS.filter((r) => r.cached).map((r) => r.name));

/**
 * Where the code cache of `hook` lives. One per hook: a cache holds what its run compiled, and a
 * commit should not deserialize what a push compiled. One per build too, because V8 checks only
 * the source's length: a rebuilt bundle of the same length must not meet the old cache. And one
 * per Node version and architecture, so that a switch of Node (nvm) keeps both warm.
 */
export function codeCacheFile(bundle: string, hook: string): string {
  const build = typeof REVTRAIL_BUILD === 'string' ? REVTRAIL_BUILD.slice(0, 12) : 'dev';
  return `${bundle}.${CACHED_HOOKS.has(hook) ? hook : 'other'}.${build}.${process.version}-${process.arch}.v8cache`;
}

/**
 * A CommonJS bundle run through its code cache for `hook`. `keepCache` writes a new cache when
 * there was none or V8 rejected it, once the run is over: it then holds the functions the run
 * compiled too. But a bundle rule may switch V8 flags on (review/engine/regex-guard.ts), and V8
 * rejects a cache made under other flags than the next process starts with: then
 * (`flagsChanged`) the one made before the run is kept.
 */
export function loadBundle<T>(file: string, hook: string): { exports: T; keepCache(flagsChanged: boolean): void } {
  const cacheFile = codeCacheFile(file, hook);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run with this Node: compiled normally, cache written after the run
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`,
    { filename: file, cachedData },
  );
  const needed = !cachedData || script.cachedDataRejected;
  const beforeRun = needed ? script.createCachedData() : null;
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return {
    exports: module.exports,
    keepCache(flagsChanged) {
      if (beforeRun) saveCache(cacheFile, flagsChanged ? beforeRun : script.createCachedData());
    },
  };
}

/**
 * Readers see the old cache or the new one, never half of one; a read-only install writes
 * nothing. This hook's caches of other builds (a package updated in place) go: V8 would reject
 * them anyway.
 */
function saveCache(file: string, data: Buffer): void {
  try {
    writeFileAtomicSync(file, data);
  } catch {
    return; // the next run compiles as this one did
  }
  // BUNDLE.cjs.HOOK.BUILD.NODE-ARCH.v8cache: the same bundle, hook and Node, another build.
  const name = basename(file);
  const hookPrefix = name.slice(0, name.indexOf('.', name.indexOf('.cjs.') + '.cjs.'.length) + 1);
  const nodeSuffix = `.${process.version}-${process.arch}.v8cache`;
  try {
    for (const other of readdirSync(dirname(file))) {
      if (other !== name && other.startsWith(hookPrefix) && other.endsWith(nodeSuffix))
        rmSync(join(dirname(file), other), { force: true });
    }
  } catch {
    // left for the next write
  }
}
