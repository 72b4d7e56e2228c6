/**
 * Start-up of `revtrail hook …` (docs/hooks.md, "Start-up"). The hooks run on every commit
 * and push, so their code is one CommonJS file (dist/cli/hook.cjs: no chunk graph to resolve
 * and link, no ES module loader) compiled with V8's code cache: the bytes V8 produced for this
 * file the last time are handed back to it, and compiling the file costs a lookup instead of a
 * parse.
 *
 * Node 22 does this itself (module.enableCompileCache); Node 20, which revtrail supports, does
 * not. The cache lives beside the bundle, inside the installed package, and nowhere shared: a
 * code cache is trusted like code, so it is never read from a folder other users can write
 * (such as the system temp folder). V8 checks that the cache matches the source, its own
 * version and its flags, and rejects it otherwise; a rejected or missing cache only means
 * compiling as before, then writing a fresh one. When the package folder is read-only, nothing
 * is written and nothing else changes.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { hookMessages as m } from '../messages/hooks.js';
import { writeFileAtomicSync } from '../core/fs/atomic.js';
import { REGEX_FALLBACK_FLAGS, setV8Flags } from '../core/node-module.js';
// The records only (their data): the hook-start bundle keeps their handlers' lazy imports out
// (scripts/build.mjs), as this file never runs a handler.
import { HOOK_RECORDS } from '../hooks/registry.js';
import { readStdin } from '../hooks/stdin.js';
// Types only (erased by the build): the start bundles are loaded from their own files below.
import type { commitMsgClean } from '../flows/commit-start.js';
import type { prePushClean } from '../flows/push-start.js';
import type { ReadSet } from '../flows/reads.js';

interface HookBundle {
  runHook(
    argv: string[],
    context: {
      cwd: string;
      stdout: NodeJS.WritableStream;
      stderr: NodeJS.WritableStream;
      reads?: ReadSet;
    },
    input?: string,
  ): Promise<number>;
  v8FlagsChanged(): boolean;
}

/** Exit code of a hook that could not start: never 1, which tells the hook script "blocked". */
const COULD_NOT_START = 3;

/** Runs the hook named in `argv` and sets the process's exit code. */
export function startHook(argv: string[]): void {
  run(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `${m.couldNotStart((error instanceof Error ? error.message : String(error)).split('\n')[0]!)}\n`,
      );
      process.exitCode = COULD_NOT_START;
    },
  );
}

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

/** The clean starts' own small bundles (lib/flows/commit-start.ts, lib/flows/push-start.ts). */
interface CleanStarts {
  commitMsgClean: typeof commitMsgClean;
  prePushClean: typeof prePushClean;
}

interface Started {
  clean: boolean;
  /** What the hook's flow takes over (lib/flows/reads.ts). */
  reads?: ReadSet;
  /** stdin, read once for both. */
  input?: string;
}

/**
 * commit-msg and pre-push start with the clean check from a small bundle of their own: a clean
 * commit or push is then the whole hook, without the hook bundle (docs/hooks.md "Start-up" and "Push":
 * the clean start bundles). Any failure there only means the full hook, which reads again.
 */
async function cleanStart(dir: string, argv: string[]): Promise<Started> {
  const [name, ...args] = argv;
  if (process.env.REVTRAIL === '0') return { clean: false };
  if (name === 'commit-msg' && args.length === 1) {
    try {
      const start = loadBundle<CleanStarts>(join(dir, 'commit-msg-clean.cjs'), name);
      const answer = await start.exports.commitMsgClean(args[0]!, process.cwd());
      start.keepCache(false);
      return answer.clean ? answer : { clean: false, reads: { commit: answer.reads ?? undefined } };
    } catch {
      return { clean: false };
    }
  }
  if (name === 'pre-push' && args.length === 2) {
    let input: string;
    try {
      input = await readStdin();
    } catch {
      return { clean: false }; // the handler reads it and says why
    }
    try {
      const start = loadBundle<CleanStarts>(join(dir, 'pre-push-start.cjs'), name);
      const answer = await start.exports.prePushClean(args[0]!, input, process.cwd(), process.stderr);
      start.keepCache(false);
      return answer.clean ? answer : { clean: false, input, reads: { push: answer.reads ?? undefined } };
    } catch {
      return { clean: false, input };
    }
  }
  return { clean: false };
}

async function run(argv: string[]): Promise<number> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const started = await cleanStart(dir, argv);
  if (started.clean) return 0;
  const hook = loadBundle<HookBundle>(join(dir, 'hook.cjs'), argv[0] ?? '');
  const code = await hook.exports.runHook(
    argv,
    { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, reads: started.reads },
    started.input,
  );
  hook.keepCache(hook.exports.v8FlagsChanged());
  return code;
}

/** Whether these arguments of `revtrail lsp` are all its own start-up takes (an editor's: ./lsp.ts). */
export function plainLspArgs(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--stdio') continue;
    if (/^--clientProcessId=\d+$/.test(arg)) continue;
    if (arg === '--clientProcessId' && /^\d+$/.test(args[i + 1] ?? '')) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** The language server's own bundle (./lsp.ts), as the start-up loads it. */
interface LspBundle {
  runLsp(onWarm: () => void): Promise<number>;
}

/**
 * `revtrail lsp` from its own CommonJS bundle through a code cache of its own (docs/editor.md
 * "Start-up"): the cache is written once the first diagnostics are out, so it holds what the
 * server and a first review compiled, and the next cold start reads it instead of parsing.
 */
export function startLsp(): void {
  const dir = dirname(fileURLToPath(import.meta.url));
  // The server's first review runs bundle rules, which turn these flags on; V8 rejects a cache
  // made under other flags than the process compiles with, so they are on from the start.
  setV8Flags(REGEX_FALLBACK_FLAGS);
  let bundle: ReturnType<typeof loadBundle<LspBundle>>;
  try {
    bundle = loadBundle<LspBundle>(join(dir, 'lsp.cjs'), 'lsp');
  } catch (error) {
    process.stderr.write(
      `${m.couldNotStart((error instanceof Error ? error.message : String(error)).split('\n')[0]!)}\n`,
    );
    process.exitCode = COULD_NOT_START;
    return;
  }
  bundle.exports
    .runLsp(() => bundle.keepCache(false))
    .then(
      (code) => {
        process.exitCode = code;
      },
      () => {
        process.exitCode = COULD_NOT_START;
      },
    );
}

/**
 * A CommonJS bundle run through its code cache for `hook`. `keepCache` writes a new cache when
 * there was none or V8 rejected it, once the run is over: it then holds the functions the run
 * compiled too. But a bundle rule may switch V8 flags on (review/engine/regex-guard.ts), and V8
 * rejects a cache made under other flags than the next process starts with: then
 * (`flagsChanged`) the one made before the run is kept.
 */
function loadBundle<T>(file: string, hook: string): { exports: T; keepCache(flagsChanged: boolean): void } {
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
