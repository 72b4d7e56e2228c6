/**
 * Nothing in a repository's own files switches the credential check off or makes a hook give up
 * (docs/trust.md "Fails closed", "Credential rules"). One repository with revtrail's hooks
 * installed and a bare remote; each case is a branch that adds an AWS key beside a hostile
 * config. For every case: `revtrail review --range` finds the key and names the config's
 * problem in one line, the commit-msg hook reviews (it never says "the review did not run"),
 * and a real `git push` is blocked with the remote's ref unchanged. Every process runs under a
 * kill timer, so a hang fails its case instead of the whole file.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runProcess, type TestRepo } from '../kit/repo.js';
import { addRemote, installedRepo, type HookRepo } from '../kit/hooks.js';

const cleanups: Array<{ cleanup(): void }> = [];
after(() =>
  cleanups.forEach((c) => {
    c.cleanup();
  }),
);

// Built at run time, so no literal credential sits in this repository.
const KEY = ['AKIA', 'IOSFODNN7', 'EXAMPLQ'].join('');
const LIMIT = { timeoutMs: 30_000 };

let shared: Promise<{ r: HookRepo; bare: TestRepo }> | undefined;
function repo() {
  shared ??= (async () => {
    const r = await installedRepo();
    const bare = addRemote(r);
    cleanups.push(r, bare);
    r.git(['push', '-q', '--no-verify', 'origin', 'main']);
    return { r, bare };
  })();
  return shared;
}

interface Case {
  name: string;
  /** What the branch puts in place of a config, before the key is committed. */
  setup(r: HookRepo): void;
  /** The one warning line that names what the config tried or why it was not used. */
  warning: RegExp;
  /** An untracked thing to remove after the case (a FIFO). */
  leftover?: string;
}

const config = (text: string) => (r: HookRepo) => {
  r.write('revtrail.config.json', text);
  r.git(['add', 'revtrail.config.json']);
};
const link = (name: string, target: string) => (r: HookRepo) => {
  symlinkSync(target, join(r.dir, name));
  r.git(['add', name]);
};

const cases: Case[] = [
  {
    name: 'builtinRules false',
    setup: config('{"builtinRules": false}\n'),
    warning: /^builtinRules cannot disable the credential rules: false; they still run$/,
  },
  {
    name: 'a builtinRules list naming the credential rules',
    setup: config('{"builtinRules": ["secrets", "aws-access-key", "builtin/secrets:private-key"]}\n'),
    warning:
      /^builtinRules cannot disable the credential rules: "secrets", "aws-access-key", "builtin\/secrets:private-key"; they still run$/,
  },
  {
    name: 'minConfidence 1',
    setup: config('{"minConfidence": 1}\n'),
    warning: /^minConfidence cannot filter the credential rules: 1; their findings are kept at any confidence$/,
  },
  {
    name: 'an exclude naming a credential rule',
    setup: config('{"exclude": {"builtin/secrets:aws-access-key": ["**"]}}\n'),
    warning:
      /^exclude cannot narrow the credential rules: "builtin\/secrets:aws-access-key"; they still run on every path$/,
  },
  {
    name: 'a missing comma',
    setup: config('{\n  "minConfidence": 0.5\n  "softTests": true\n}\n'),
    warning:
      /^revtrail\.config\.json:3:3 is not valid JSON: .*; the review ran with the default configuration and the built-in baseline$/,
  },
  {
    name: 'an unknown key',
    setup: config('{"builtinRules": false, "knowlege": ".okfw"}\n'),
    warning:
      /^revtrail\.config\.json: unknown key "knowlege" \("knowlege": did you mean "knowledge"\?\); the review ran with the default configuration and the built-in baseline$/,
  },
  {
    name: 'revtrail.config.json a symlink to /dev/zero',
    setup: link('revtrail.config.json', '/dev/zero'),
    warning:
      /^cannot read revtrail\.config\.json: not a regular file \(a character device, such as \/dev\/zero\); the review ran with the default/,
  },
  {
    name: 'revtrail.config.json a symlink to /dev/urandom',
    setup: link('revtrail.config.json', '/dev/urandom'),
    warning: /^cannot read revtrail\.config\.json: not a regular file \(a character device/,
  },
  {
    name: 'package.json a symlink to /dev/zero',
    setup: link('package.json', '/dev/zero'),
    warning: /^cannot read package\.json: not a regular file \(a character device/,
  },
  {
    name: 'revtrail.config.json a FIFO',
    setup: (r) => execFileSync('mkfifo', [join(r.dir, 'revtrail.config.json')]),
    warning: /^cannot read revtrail\.config\.json: not a regular file \(a FIFO\); the review ran with the default/,
    leftover: 'revtrail.config.json',
  },
];

for (const [index, c] of cases.entries()) {
  test(`fails closed: ${c.name} — review finds the key, commit-msg reviews, the push is blocked`, async () => {
    const { r, bare } = await repo();
    const branch = `case-${index}`;
    r.git(['checkout', '-q', '-f', '-b', branch, 'main']);
    try {
      c.setup(r);
      r.git(['commit', '-q', '--no-verify', '--allow-empty', '-m', 'chore: config']);
      r.write('src/settings.ts', `export const awsKey = "${KEY}";\n`);
      r.git(['add', 'src/settings.ts']);

      // The commit-msg hook runs the review (a credential may stop the commit: then commit without the hook).
      const commit = await runProcess('git', ['commit', '-q', '-m', 'feat: settings'], { cwd: r.dir, ...LIMIT });
      assert.doesNotMatch(commit.stderr, /did not run/, commit.stderr);
      assert.ok(
        commit.stderr.split('\n').some((l) => c.warning.test(l.replace(/^revtrail: warning: /, ''))),
        `commit-msg names it:\n${commit.stderr}`,
      );
      if (commit.code !== 0) r.git(['commit', '-q', '--no-verify', '-m', 'feat: settings']);

      const review = await runCli(['review', '--range', 'main..HEAD', '--format', 'json'], { cwd: r.dir, ...LIMIT });
      assert.equal(review.code, 1, review.stderr);
      const result = JSON.parse(review.stdout) as {
        event: string;
        findings: Array<{ rule_source: string; path: string }>;
        warnings: string[];
      };
      assert.equal(result.event, 'REQUEST_CHANGES');
      assert.ok(
        result.findings.some((f) => f.rule_source === 'builtin/secrets:aws-access-key' && f.path === 'src/settings.ts'),
        review.stdout,
      );
      assert.equal(result.warnings.filter((w) => c.warning.test(w)).length, 1, result.warnings.join('\n'));

      const push = await runProcess('git', ['push', 'origin', branch], { cwd: r.dir, ...LIMIT });
      assert.notEqual(push.code, 0, push.stderr);
      assert.match(
        push.stderr,
        /src\/settings\.ts:1 security AWS access key ID committed \(builtin\/secrets:aws-access-key\)/,
      );
      assert.doesNotMatch(push.stderr, /the push goes on/);
      assert.equal(bare.git(['for-each-ref', `refs/heads/${branch}`]).trim(), '', 'the remote ref is unchanged');
    } finally {
      if (c.leftover) rmSync(join(r.dir, c.leftover), { force: true });
      r.git(['checkout', '-q', '-f', 'main']);
    }
  });
}

test('knowledge check and doctor still treat a broken config as an error (exit 2), with line and column', async () => {
  const { r } = await repo();
  r.git(['checkout', '-q', '-f', '-b', 'check-case', 'main']);
  try {
    r.write('revtrail.config.json', '{\n  "minConfidence": 0.5\n  "softTests": true\n}\n');
    for (const args of [
      ['knowledge', 'check'],
      ['knowledge', 'check', '.okfw'],
    ]) {
      const run = await runCli(args, { cwd: r.dir, ...LIMIT });
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stdout + run.stderr, /revtrail\.config\.json:3:3 is not valid JSON/);
    }
    rmSync(join(r.dir, 'revtrail.config.json'));
    symlinkSync('/dev/zero', join(r.dir, 'revtrail.config.json'));
    const check = await runCli(['knowledge', 'check', '.okfw'], { cwd: r.dir, ...LIMIT });
    assert.equal(check.code, 2, check.stdout + check.stderr);
    assert.match(check.stdout + check.stderr, /not a regular file/);
    const doctor = await runCli(['doctor'], { cwd: r.dir, ...LIMIT });
    assert.equal(doctor.code, 2, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout + doctor.stderr, /revtrail\.config\.json.*not a regular file/);
  } finally {
    rmSync(join(r.dir, 'revtrail.config.json'), { force: true });
    r.git(['checkout', '-q', '-f', 'main']);
  }
});

test('a package.json that is a symlink to /dev/zero does not hang the CLI (yargs looks for none)', async () => {
  const { r } = await repo();
  r.git(['checkout', '-q', '-f', '-b', 'pkg-case', 'main']);
  try {
    symlinkSync('/dev/zero', join(r.dir, 'package.json'));
    const version = await runCli(['--version'], { cwd: join(r.dir, '.okfw'), ...LIMIT });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const help = await runCli(['review', '--help'], { cwd: r.dir, ...LIMIT });
    assert.equal(help.code, 0, help.stderr);
  } finally {
    rmSync(join(r.dir, 'package.json'), { force: true });
    r.git(['checkout', '-q', '-f', 'main']);
  }
});

test('a bundle file, a doc map and a trust store that are FIFOs: each skipped and named, the key still found', async () => {
  const { r } = await repo();
  r.git(['checkout', '-q', '-f', '-b', 'inputs-case', 'main']);
  const fifos = ['.okfw/decisions/pipe.md', 'map.yaml', 'trust.json'].map((p) => join(r.dir, p));
  try {
    r.write('.okfw/index.md', `${r.git(['show', 'main:.okfw/index.md'])}- [Pipe](decisions/pipe.md)\n`);
    r.write('revtrail.config.json', JSON.stringify({ docMap: 'map.yaml', reviewer: { command: ['./reviewer.sh'] } }));
    r.write('src/settings.ts', `export const awsKey = "${KEY}";\n`);
    r.git(['add', '-A']);
    r.git(['commit', '-q', '--no-verify', '-m', 'feat: settings']);
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const review = await runCli(['review', '--range', 'main..HEAD', '--format', 'json'], {
      cwd: r.dir,
      env: { REVTRAIL_TRUST_FILE: fifos[2] },
      ...LIMIT,
    });
    assert.equal(review.code, 1, review.stderr);
    const result = JSON.parse(review.stdout) as { findings: Array<{ rule_source: string }>; warnings: string[] };
    assert.ok(
      result.findings.some((f) => f.rule_source === 'builtin/secrets:aws-access-key'),
      review.stdout,
    );
    const warned = (pattern: RegExp) =>
      assert.ok(
        result.warnings.some((w) => pattern.test(w)),
        `${pattern}: ${result.warnings.join('\n')}`,
      );
    warned(/pipe\.md: cannot read this file: not a regular file \(a FIFO\)/);
    warned(/map\.yaml.*not a regular file \(a FIFO\)/);
    warned(/cannot read the trust store .*trust\.json: not a regular file \(a FIFO\)/);
  } finally {
    for (const fifo of fifos) rmSync(fifo, { force: true });
    r.git(['checkout', '-q', '-f', 'main']);
  }
});

test('doctor with yarn.lock, .yarnrc.yml and a hook file linked to /dev/zero finishes and names the hook', async () => {
  const { r } = await repo();
  r.git(['checkout', '-q', '-f', '-b', 'doctor-case', 'main']);
  const hook = join(r.dir, '.husky', 'pre-push');
  try {
    r.write('package.json', '{"name":"app","private":true}\n');
    symlinkSync('/dev/zero', join(r.dir, 'yarn.lock'));
    symlinkSync('/dev/zero', join(r.dir, '.yarnrc.yml'));
    rmSync(hook);
    symlinkSync('/dev/zero', hook);
    const doctor = await runCli(['doctor', '--json'], { cwd: r.dir, ...LIMIT });
    assert.equal(doctor.code, 1, doctor.stdout + doctor.stderr);
    const report = JSON.parse(doctor.stdout) as { checks: Array<{ check: string; message: string }> };
    assert.ok(
      report.checks.some((c) => c.check === 'worktree' && /pre-push/.test(c.message)),
      doctor.stdout,
    );
  } finally {
    for (const p of ['yarn.lock', '.yarnrc.yml', 'package.json']) rmSync(join(r.dir, p), { force: true });
    r.git(['checkout', '-q', '-f', 'main']);
  }
});
