/**
 * No bundle content switches the review off (docs/bundle.md "Isolation", "Time"): with a
 * hostile file in the bundle, `revtrail review`, the commit-msg hook and the pre-push hook still
 * run the baseline and every good concept, and name the bad file. Real repositories, the real
 * CLI, real hooks through husky, a local bare remote.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { addRemote, AWS_KEY, installedRepo, type HookRepo } from '../kit/hooks.js';
import { makeRepo, runCli, type TestRepo } from '../kit/repo.js';
import type { ReviewResult } from '../../lib/review/types.js';

const made: TestRepo[] = [];
after(() =>
  made.forEach((r) => {
    r.cleanup();
  }),
);

const ALIAS_BOMB = `---\ntype: Note\nid: bomb\npaths: ["**"]\nbase: &a x\nlist:\n${Array.from({ length: 150 }, () => '  - *a').join('\n')}\n---\n# Bomb\n`;
// The fixture bundle's ADR flags `db.query(` in src/controllers/**.
const CONTROLLER = `export async function list(db) {\n  return db.query("select * from users");\n}\nexport const key = '${AWS_KEY}';\n`;
const FINISHES = { timeout: 120_000 };

async function hostileRepo(files: Record<string, string>, index: string): Promise<HookRepo> {
  const r = await installedRepo();
  made.push(r);
  r.write(
    '.okfw/index.md',
    `---\ntype: Index\ntitle: Test bundle\n---\n# Decisions\n\n- [Controllers do not talk to the database](decisions/adr-0001.md)\n${index}`,
  );
  r.commit('docs: hostile bundle', files);
  return r;
}

async function reviewJson(dir: string, args: string[] = ['--staged']): Promise<{ code: number; result: ReviewResult }> {
  const run = await runCli(['review', '--format', 'json', ...args], { cwd: dir });
  assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as ReviewResult };
}

const sources = (r: ReviewResult) => r.findings.map((f) => f.rule_source).sort();

test(
  'an alias-bomb concept: review, commit-msg and pre-push still find the AWS key and the good rule, and name the bad file',
  FINISHES,
  async () => {
    const r = await hostileRepo({ '.okfw/bomb.md': ALIAS_BOMB }, '- [Bomb](bomb.md)\n');
    const bare = addRemote(r);
    made.push(bare);
    assert.equal((await r.run(['push', '-q', 'origin', 'main'])).code, 0);
    r.write('src/controllers/users.js', CONTROLLER);
    r.git(['add', '-A']);

    const { code, result } = await reviewJson(r.dir);
    assert.equal(code, 1);
    assert.equal(result.event, 'REQUEST_CHANGES');
    assert.deepEqual(sources(result), ['adr-0001:no-db-query', 'builtin/secrets:aws-access-key']);
    assert.ok(
      result.warnings.includes('.okfw/bomb.md:107: frontmatter has more than 100 YAML aliases (*name); skipped'),
      result.warnings.join('\n'),
    );

    // The commit-msg hook stops the key first (commitMsg.blockCredentials), naming it, and still says which file it skipped.
    const stopped = await r.run(['commit', '-m', 'feat: users']);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.match(stopped.stderr, /src\/controllers\/users\.js:4 security .*\(builtin\/secrets:aws-access-key\)/);
    assert.match(stopped.stderr, /\.okfw\/bomb\.md:107: frontmatter has more than 100 YAML aliases/);
    // With the stop off (an uncommitted config), it records both findings.
    writeFileSync(join(r.dir, 'revtrail.config.json'), JSON.stringify({ commitMsg: { blockCredentials: false } }));
    const commit = await r.run(['commit', '-m', 'feat: users']);
    assert.equal(commit.code, 0, commit.stderr);
    assert.match(commit.stderr, /\.okfw\/bomb\.md:107: frontmatter has more than 100 YAML aliases/);
    const rows = r.trailers();
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.ok(
      rows.some((row) => row.includes(',src/controllers/users.js,2,adr-0001:no-db-query,')),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((row) => row.includes(',src/controllers/users.js,4,builtin/secrets:aws-access-key,')),
      rows.join('\n'),
    );

    // The pre-push hook blocks the push of the key.
    const push = await r.run(['push', 'origin', 'main']);
    assert.equal(push.code, 1, push.stderr);
    assert.match(push.stderr, /builtin\/secrets:aws-access-key|AWS/);
    assert.notEqual(bare.git(['rev-parse', 'main']).trim(), r.git(['rev-parse', 'HEAD']).trim());
  },
);

test(
  'Latin-1, a 5 MiB concept, an index line of 200,000 `[`, a heading of 150,000 spaces: the review finishes with every finding',
  FINISHES,
  async () => {
    const good =
      '---\ntype: Note\nid: good\npaths: ["**"]\nrules:\n  - {id: todo, pattern: "TODO\\\\(", in: comments, severity: nit, category: style, title: TODO left}\n---\n';
    const r = await hostileRepo(
      {
        '.okfw/good.md': `${good}#${' '.repeat(150_000)}Good${' '.repeat(150_000)}x\n`,
        '.okfw/big.md': `---\ntype: Note\nid: big\npaths: ["**"]\n---\n# Big\n${'All work and no play. '.repeat(240_000)}\n`,
        '.okfw/sub/index.md': `${'['.repeat(200_000)}\n- [Latin](latin.md)\n`,
      },
      '- [Good](good.md)\n- [Big](big.md)\n- [More](sub/)\n',
    );
    r.write(
      '.okfw/sub/latin.md',
      Buffer.concat([
        Buffer.from('---\ntype: Note\ntitle: Caf'),
        Buffer.from([0xe9]),
        Buffer.from('\npaths: ["**"]\n---\n'),
      ]),
    );
    r.commit('docs: latin');
    r.write('src/controllers/users.js', `${CONTROLLER}// TODO(ada): paginate\n`);
    r.git(['add', '-A']);
    const { code, result } = await reviewJson(r.dir);
    assert.equal(code, 1);
    assert.deepEqual(sources(result), ['adr-0001:no-db-query', 'builtin/secrets:aws-access-key', 'good:todo']);
    assert.ok(
      result.warnings.includes('.okfw/big.md: this file is 5.0 MiB, over the 1 MiB cap: only its first 1 MiB is read'),
      result.warnings.join('\n'),
    );
    assert.ok(
      result.warnings.some((w) => w.startsWith('.okfw/sub/latin.md:3: this file is not UTF-8 (byte 0xE9')),
      result.warnings.join('\n'),
    );
  },
);

test(
  'a rule that overruns its time: skipped and named, remembered for the next review and by knowledge check; the baseline still runs',
  FINISHES,
  async () => {
    const slow =
      '---\ntype: Note\nid: slow\npaths: ["**"]\nrules:\n  - {id: counted, pattern: "(?:a{1,16}){2,16}$", severity: nit, category: style, title: Counted}\n  - {id: empty, pattern: "x*", severity: nit, category: style, title: Empty}\n---\n';
    const r = await hostileRepo(
      { '.okfw/slow.md': slow, '.okfw/orphan.md': '---\ntype: Note\n---\n' },
      '- [Slow](slow.md)\n',
    );
    r.write('src/a.txt', `${'a'.repeat(40)}!\nkey = '${AWS_KEY}'\n`);
    r.git(['add', '-A']);
    const first = await reviewJson(r.dir);
    assert.ok(sources(first.result).includes('builtin/secrets:aws-access-key'));
    assert.ok(!sources(first.result).includes('slow:counted'));
    assert.ok(
      first.result.warnings.some((w) =>
        /^slow:counted took over \d+ ms on src\/a\.txt and was skipped; later reviews skip it too/.test(w),
      ),
      first.result.warnings.join('\n'),
    );

    const second = await reviewJson(r.dir);
    assert.ok(sources(second.result).includes('builtin/secrets:aws-access-key'));
    assert.ok(
      second.result.warnings.includes(
        'slow:counted skipped: its pattern overran its time limit in a review this week (change the pattern, or run revtrail knowledge check)',
      ),
      second.result.warnings.join('\n'),
    );
    assert.ok(!second.result.warnings.some((w) => /took over/.test(w)), 'no second wait');

    const check = await runCli(['knowledge', 'check'], { cwd: r.dir });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const out = check.stdout.split('\n');
    assert.ok(
      out.includes(
        '.okfw/slow.md:6: warning: rule "counted": the pattern risks super-linear matching (a repeated group holds a quantifier or an alternation); it runs under a time limit and is skipped when it overruns',
      ),
      check.stdout,
    );
    assert.ok(
      out.includes(
        '.okfw/slow.md:6: warning: rule "counted" overran its time limit in a review this week and is skipped for a week, or until its pattern changes',
      ),
      check.stdout,
    );
    assert.ok(
      out.includes(
        '.okfw/slow.md:7: warning: rule "empty": the pattern matches the empty string, so it can flag lines that hold nothing it looks for (make some part of it required)',
      ),
      check.stdout,
    );
    assert.ok(
      out.includes(
        '.okfw/orphan.md: warning: no index links to this file, so it is not loaded (link it from an index.md, or remove it)',
      ),
      check.stdout,
    );
  },
);

test('knowledge check: a broken regex is reported alone, a missing title is "title is required", a symlink loop is a loop', async () => {
  const dir = makeRepo();
  made.push(dir);
  dir.write('kb/index.md', '[a](a.md)\n[loop](loop.md)\n');
  dir.write(
    'kb/a.md',
    '---\ntype: Note\nrules:\n  - id: broken\n    pattern: "a(b"\n    severity: fatal\n  - id: untitled\n    pattern: ok\n    severity: bug\n  - id: typed\n    pattern: ok\n    severity: bug\n    title: [not, text]\n---\n',
  );
  const { symlinkSync } = await import('node:fs');
  symlinkSync('loop.md', join(dir.dir, 'kb', 'loop.md'));
  const run = await runCli(['knowledge', 'check', 'kb'], { cwd: dir.dir });
  assert.equal(run.code, 1);
  assert.deepEqual(run.stdout.trim().split('\n'), [
    'kb/a.md:5: rule "broken": pattern does not compile: Invalid regular expression: /a(b/: Unterminated group',
    'kb/a.md:7: rule "untitled": title is required',
    'kb/a.md:13: rule "typed": title must be a string',
    'kb/index.md:2: warning: link to loop.md: a symlink loop (a link that leads back to itself); ignored',
    'kb: 1 concept, 0 rules, 3 errors, 1 warning',
  ]);
  rmSync(join(dir.dir, 'kb', 'loop.md'));
});
