/**
 * One git layer (docs/architecture.md "The git runner"): lib/core/git alone starts git, through
 * three entry shapes (run, stream, spawnGit in lib/core/git/run.ts), and every git call is a
 * named command of lib/core/git/commands/. A module elsewhere in lib/ that spawns git, imports
 * the runner's module directly, or hands a runner an argv array or a command it spelled itself
 * fails here; so does a second entry shape or a second way to locate the repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const lib = join(root, 'lib');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const name = (file: string) => relative(root, file).split(sep).join('/');
/** The code without its comments (a comment may show a call as an example). */
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const inLayer = (file: string) => name(file).startsWith('lib/core/git/');
const outside = sources(lib).filter((f) => !inLayer(f));

/** Modules outside the layer that start other processes, and why none of them is revtrail's git. */
const OTHER_PROCESSES: Record<string, string> = {
  'lib/demo/run.ts': 'the demo types git commands into its sandbox as a person would, hooks and all',
  'lib/demo/stand-in-model.ts': 'the stand-in model server (node)',
  'lib/review/program/reviewer.ts': "a program reviewer's own command",
  'lib/install/manager.ts': "pre-commit's version and a hook manager's install script",
  'lib/install/pnpm-builds.ts': "pnpm's version",
  'lib/install/doctor-timing.ts':
    "the commit and push `doctor --timing` times, run as the person's own git runs them (their environment, hooks and all), and the scratch worktree's removal on an interrupt",
};
/** Of those, the ones that start git itself, outside the runner's fixed environment, on purpose. */
const OWN_GIT = new Set(['lib/demo/run.ts', 'lib/install/doctor-timing.ts']);

test('only lib/core/git starts git: other modules start no process but the listed ones, and those never git', () => {
  const found: string[] = [];
  for (const file of outside) {
    const text = code(file);
    const spawns = /from 'node:child_process'|from 'child_process'|import\(\s*'(node:)?child_process'\s*\)/.test(text);
    if (spawns && !(name(file) in OTHER_PROCESSES)) found.push(`${name(file)}: starts a process`);
    if (
      !OWN_GIT.has(name(file)) &&
      /\b(spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"`]git['"`]/.test(text)
    )
      found.push(`${name(file)}: spawns git`);
  }
  assert.deepEqual(found, []);
});

test('simple-git has one role, outside the hook path: ci/notes.ts writes a note through it', () => {
  const users = outside.filter((f) => /from 'simple-git'|import\(\s*'simple-git'\s*\)/.test(code(f))).map(name);
  assert.deepEqual(users, ['lib/ci/notes.ts']);
});

test('the runner has three entry shapes, and nothing outside the layer imports it but through commands.ts', () => {
  const runner = code(join(lib, 'core', 'git', 'run.ts'));
  const shapes = [...runner.matchAll(/^export (?:async )?function\*? *(\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(shapes, ['run', 'spawnGit', 'stream']);
  const direct = outside.filter((f) => /['"][./]+core\/git\/run\.js['"]/.test(code(f))).map(name);
  assert.deepEqual(direct, []);
});

test('no raw argv outside the layer: a runner is handed a named command, never an array or a literal command', () => {
  const SUBCOMMANDS =
    'add|blame|cat-file|check-attr|check-ignore|commit|config|diff|diff-tree|for-each-ref|hash-object|interpret-trailers|log|ls-files|ls-remote|ls-tree|merge-base|notes|push|remote|rev-list|rev-parse|show|status|symbolic-ref|update-index|var|worktree';
  // An argv array as an argument: `f(['log', …])`, `f(['-c', 'x=y', 'log', …])`.
  const argv = new RegExp(`\\(\\s*\\[\\s*(?:'-c',\\s*[^,\\]]+,\\s*)*'(?:${SUBCOMMANDS})'`);
  const found: string[] = [];
  for (const file of outside) {
    // The person at the terminal, and the commit and push doctor --timing times (OTHER_PROCESSES).
    if (name(file).startsWith('lib/demo/') || OWN_GIT.has(name(file))) continue;
    const text = code(file);
    // simple-git's one call (ci/notes.ts) passes its argv to simple-git, not to the runner.
    if (name(file) !== 'lib/ci/notes.ts' && argv.test(text)) found.push(`${name(file)}: an argv array`);
    const imported = [...text.matchAll(/import \{([^}]*)\} from '[./]+core\/git\/commands\.js'/g)]
      .flatMap((m) => m[1]!.split(','))
      .map(
        (s) =>
          s
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
      )
      .filter((n) => n === 'run' || n === 'stream');
    for (const runner of imported)
      if (new RegExp(`\\b${runner}\\(\\s*[[{]`).test(text)) found.push(`${name(file)}: ${runner}() of a literal`);
    // A command object of its own (argv beside a parse or a stream format).
    if (/\bargs:\s*\[[^;]{0,400}?\b(parse|stream):/.test(text)) found.push(`${name(file)}: a command spelled here`);
  }
  assert.deepEqual(found, []);
});

test('one way to locate the repository: repo.ts exports one finder', () => {
  const repo = code(join(lib, 'core', 'git', 'repo.ts'));
  const finders = new Set([...repo.matchAll(/^export (?:async )?function (find\w*)/gm)].map((m) => m[1]));
  assert.deepEqual([...finders], ['findRepo']);
  // Nothing else asks git where the repository is (a hook script's own shell line aside).
  const asking = outside.filter((f) => /'--(show-toplevel|absolute-git-dir|git-common-dir)'/.test(code(f))).map(name);
  assert.deepEqual(asking, []);
});
