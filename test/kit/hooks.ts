/**
 * Repositories with revtrail's hooks installed for real: a node_modules/.bin/revtrail shim that
 * runs this checkout's CLI, `revtrail install`, and helpers to run git where a failure is the
 * expected outcome (commit or push blocked by a hook).
 */
import { after } from 'node:test';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unfoldValue } from '../../lib/record/row.js';
import { cliPath, fixturesDir, makeRepo, runCli, runProcess, type CliRun, type TestRepo } from './repo.js';

/** A line the built-in `debugger` rule flags (severity bug: REQUEST_CHANGES). */
export const DEBUGGER_LINE = 'debugger;';
/** An AWS access key ID of the right shape (split so this file holds none). */
export const AWS_KEY = 'AKIA' + 'QYLPMN2RZ4TK7WXB';

/** git's trailer view of Review-Finding values, one per row however long (rows past 100 columns are folded). */
export const ROW_VALUES = '%(trailers:key=Review-Finding,valueonly,separator=%x1f)%x1f';

/** The values of ROW_VALUES output, each unfolded exactly as revtrail's readers do. */
export function rowValues(out: string): string[] {
  return out
    .split('\x1f')
    .map((v) => unfoldValue(v.replace(/^\n+|\n+$/g, '')))
    .filter((v) => v.trim());
}

export function writeShim(dir: string): void {
  const bin = join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, 'revtrail');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`);
  chmodSync(shim, 0o755);
}

export interface HookRepo extends TestRepo {
  /** git, never throwing: the exit code and both streams. */
  run(args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string }): Promise<CliRun>;
  cli(args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string }): Promise<CliRun>;
  /** Trailer values of a commit as git sees them. */
  trailers(rev?: string): string[];
}

export function withRun(repo: TestRepo): HookRepo {
  return Object.assign(repo, {
    run: (args: string[], o: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}) =>
      runProcess('git', args, { cwd: o.cwd ?? repo.dir, env: o.env, input: o.input }),
    cli: (args: string[], o: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}) =>
      runCli(args, { cwd: o.cwd ?? repo.dir, env: o.env, input: o.input }),
    trailers: (rev = 'HEAD') => rowValues(repo.git(['log', '-1', `--format=${ROW_VALUES}`, rev])),
  });
}

/**
 * A repository with a first commit, the CLI shim (ignored by git), the test bundle, optional files, and
 * `revtrail install` done. `objectFormat` sha256 makes a SHA-256 repository.
 */
export async function installedRepo(
  options: {
    objectFormat?: 'sha1' | 'sha256';
    files?: Record<string, string>;
    dir?: string;
    /** The install's environment (a PATH that pins the tools it may ask, such as pnpm). */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<HookRepo> {
  const repo = withRun(makeRepo({ objectFormat: options.objectFormat, dir: options.dir }));
  writeShim(repo.dir);
  repo.write('.gitignore', 'node_modules/\n');
  // A small bundle (test/fixtures/hooks/okfw): one ADR with a rule on src/controllers/**.
  cpSync(join(fixturesDir, 'hooks', 'okfw'), join(repo.dir, '.okfw'), { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) repo.write(path, content);
  const installed = await repo.cli(['install'], { env: options.env });
  if (installed.code !== 0) throw new Error(`revtrail install failed: ${installed.stderr}`);
  repo.commit('chore: start');
  return repo;
}

/** A bare repository as the remote `origin` of `repo`. */
export function addRemote(repo: TestRepo, objectFormat?: 'sha1' | 'sha256'): TestRepo {
  const bare = makeRepo({ bare: true, objectFormat });
  repo.git(['remote', 'add', 'origin', bare.dir]);
  return bare;
}

/** Review-Finding rows of every commit reachable from `rev`. */
export function allTrailerRows(repo: TestRepo, rev = 'HEAD'): string[] {
  return rowValues(repo.git(['log', `--format=${ROW_VALUES}`, rev]));
}

/**
 * One hooked repository with a bare `origin` that already has `main`, made on first use and
 * shared by a file's tests (call once per file; removed when the file's tests end).
 */
export function sharedPushedRepo(): () => Promise<{ r: HookRepo; bare: TestRepo }> {
  let shared: Promise<{ r: HookRepo; bare: TestRepo }> | undefined;
  const made: TestRepo[] = [];
  // Registered at the file's top level (where this is called): it runs when the file's tests end.
  after(() =>
    made.forEach((repo) => {
      repo.cleanup();
    }),
  );
  return () =>
    (shared ??= (async () => {
      const r = await installedRepo();
      const bare = addRemote(r);
      made.push(r, bare);
      const first = await r.run(['push', '-q', 'origin', 'main']);
      if (first.code !== 0) throw new Error(`first push failed: ${first.stderr}`);
      return { r, bare };
    })());
}

/**
 * Which files the hook's Node process opens: a `--require` probe (in the repository's git dir)
 * logs every path given to fs.openSync and fs.readFileSync; `env` starts a run with it.
 */
export function openedFiles(dir: string): { env: NodeJS.ProcessEnv; reset(): void; read(): string } {
  const probe = join(dir, '.git', 'open-probe.cjs');
  const opened = join(dir, '.git', 'opened.log');
  writeFileSync(
    probe,
    `const fs = require('fs'); const log = (p) => { try { fs.appendFileSync(${JSON.stringify(opened)}, String(p) + '\\n'); } catch {} };\n` +
      `for (const name of ['openSync', 'readFileSync']) { const real = fs[name]; fs[name] = function (p, ...rest) { if (typeof p === 'string' && !p.endsWith('opened.log')) log(p); return real.call(this, p, ...rest); }; }\n`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${probe}` },
    reset: () => writeFileSync(opened, ''),
    read: () => readFileSync(opened, 'utf8'),
  };
}
