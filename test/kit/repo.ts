/**
 * Throwaway git repositories for integration tests: real `git init` in os.tmpdir(), real
 * files, real CLI processes. Every integration test makes its repositories here.
 */
import { execFileSync, spawn } from 'node:child_process';
import { after } from 'node:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedGitEnv } from '../../lib/core/git/isolated-env.js';

/** The project root (tests run from dist/test/...). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const fixturesDir = join(projectRoot, 'test', 'fixtures');
export const cliPath = join(projectRoot, 'bin', 'revtrail.js');

/** A fixed identity and no user/system config, so tests do not depend on the machine. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...isolatedGitEnv({ name: 'Ada Tester', email: 'ada@example.com' }, {}),
  LC_ALL: 'C',
  // `revtrail trust` never writes the machine's own trust store from a test (docs/trust.md).
  REVTRAIL_TRUST_FILE: join(tmpdir(), `revtrail-test-trust-${process.pid}.json`),
};
process.on('exit', () => rmSync(gitEnv.REVTRAIL_TRUST_FILE!, { force: true }));

export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...gitEnv, ...extra };
}

/**
 * Every temp folder this process made. node:test runs each test file in a process of its own,
 * so removing them when the process exits cleans up after a whole file, failed tests included:
 * a test never needs cleanup code of its own (`cleanup()` still removes one early).
 */
const madeDirs = new Set<string>();
process.on('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/** A temp folder (realpath, so comparisons with git's output hold), removed when the test file ends. */
export function tempDir(prefix = 'revtrail-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  madeDirs.add(dir);
  return dir;
}

export interface TestRepo {
  dir: string;
  /** Runs git in the repo; returns stdout (throws on failure). */
  git(args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string }): string;
  /** Writes a file (creating folders); content as given. */
  write(path: string, content: string | Buffer): string;
  /** Writes files, `git add -A`, commits; returns the new commit's SHA. */
  commit(
    message: string,
    files?: Record<string, string | Buffer>,
    options?: { env?: NodeJS.ProcessEnv; args?: string[] },
  ): string;
  cleanup(): void;
}

export function makeRepo(
  options: { bare?: boolean; branch?: string; objectFormat?: 'sha1' | 'sha256'; dir?: string } = {},
): TestRepo {
  const dir = options.dir ?? tempDir();
  mkdirSync(dir, { recursive: true });
  const init = ['init', '-q', '-b', options.branch ?? 'main'];
  if (options.bare) init.push('--bare');
  if (options.objectFormat) init.push(`--object-format=${options.objectFormat}`);
  execFileSync('git', [...init, dir], { env: testEnv() });
  const repo: TestRepo = {
    dir,
    git(args, o = {}) {
      return execFileSync('git', args, {
        cwd: o.cwd ?? dir,
        env: testEnv(o.env),
        input: o.input,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    },
    write(path, content) {
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    commit(message, files = {}, o = {}) {
      for (const [path, content] of Object.entries(files)) repo.write(path, content);
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--allow-empty', '-m', message, ...(o.args ?? [])], { env: o.env });
      return repo.git(['rev-parse', 'HEAD']).trim();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return repo;
}

/**
 * A repository maker for one test file. Every repository (like every tempDir) is removed when
 * the file's process ends; this also removes them as soon as the file's tests end.
 */
export function throwawayRepos(): (options?: Parameters<typeof makeRepo>[0]) => TestRepo {
  const made: TestRepo[] = [];
  after(() =>
    made.forEach((r) => {
      r.cleanup();
    }),
  );
  return (options) => {
    const r = makeRepo(options);
    made.push(r);
    return r;
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (`bin/revtrail.js`) as a child process. */
export function runCli(
  args: string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CliRun> {
  return runProcess(process.execPath, [cliPath, ...args], options);
}

export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: testEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * Copies what `npm pack` of this checkout needs (package.json, the built CLI and what it ships)
 * into `dest`, so a test packs the project without touching this working tree.
 */
export function copyPackageSource(dest: string): void {
  for (const entry of [
    'package.json',
    'README.md',
    'LICENSE',
    'bin',
    'hooks',
    'templates',
    'scripts',
    'docs',
    join('dist', 'cli'),
  ]) {
    mkdirSync(dirname(join(dest, entry)), { recursive: true });
    cpSync(join(projectRoot, entry), join(dest, entry), { recursive: true });
  }
}
