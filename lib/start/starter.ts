/**
 * Start-up of `revtrail hook …` and of an editor's `revtrail lsp` (docs/hooks.md, "Start-up"):
 * dist/cli/hook-start.cjs, which bin/revtrail.js requires. The hooks run on every commit and
 * push, so their code is one CommonJS file (dist/cli/hook.cjs: no chunk graph to resolve and
 * link, no ES module loader) compiled with V8's code cache (./code-cache.ts); a clean commit
 * and a clean push are answered by a small bundle of their own first.
 *
 * The cache is V8's to check: it rejects a cache that does not match the source, its own
 * version or its flags, and a rejected or missing cache only means compiling as before, then
 * writing a fresh one. When the package folder is read-only, nothing is written.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookMessages as m } from '../messages/hooks.js';
import { REGEX_FALLBACK_FLAGS, setV8Flags } from '../core/node-module.js';
import { readStdin } from '../hooks/stdin.js';
import { loadBundle } from './code-cache.js';
import type { CleanStarts, HookBundle, LspBundle, Started } from './hand-over.js';

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
