/** Bundle rules on chunks: paths/exclude, caps, long lines and catastrophic patterns. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bundleRule, chunkOf, runOn } from './factory.js';
import { MAX_FINDINGS_PER_RULE, MAX_LINE_LENGTH, RuleRunner } from '../../lib/review/rules.js';
import { linearEngineCan, needsSandbox, patternShape } from '../../lib/review/regex-guard.js';
import { builtinRules } from '../../lib/review/builtin.js';

describe('bundle rules', () => {
  const rule = bundleRule('adr-7', { id: 'no-console', pattern: 'console\\.log', severity: 'nit', category: 'style', title: 'console.log left in', paths: ['src/**'], exclude: ['src/**/*.test.ts'] });

  test('a finding cites its document and names <doc-id>:<rule-id>', async () => {
    const { drafts } = await runOn(chunkOf('src/a.ts', ['const a = 1;', 'console.log(a);'], { start: 40 }), [rule]);
    assert.equal(drafts.length, 1);
    assert.deepEqual(
      { line: drafts[0]!.line, start: drafts[0]!.start_line, source: drafts[0]!.rule_source, citations: drafts[0]!.citations, severity: drafts[0]!.severity },
      { line: 41, start: 41, source: 'adr-7:no-console', citations: ['adr-7'], severity: 'nit' },
    );
  });

  test("the rule's own paths and exclude globs apply (dot files included)", async () => {
    assert.equal((await runOn(chunkOf('lib/a.ts', ['console.log(1)']), [rule])).drafts.length, 0);
    assert.equal((await runOn(chunkOf('src/a.test.ts', ['console.log(1)']), [rule])).drafts.length, 0);
    assert.equal((await runOn(chunkOf('src/.hidden/a.ts', ['console.log(1)']), [rule])).drafts.length, 1);
  });

  test('a rule reports at most MAX_FINDINGS_PER_RULE lines per chunk, with a warning', async () => {
    const lines = Array.from({ length: MAX_FINDINGS_PER_RULE + 15 }, (_, i) => `console.log(${i});`);
    const { drafts, warnings } = await runOn(chunkOf('src/a.ts', lines), [rule]);
    assert.equal(drafts.length, MAX_FINDINGS_PER_RULE);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`adr-7:no-console matched ${MAX_FINDINGS_PER_RULE + 15} lines of src/a\\.ts; only the first ${MAX_FINDINGS_PER_RULE}`));
  });

  test('g and y flags do not make matches depend on the previous line', async () => {
    const sticky = bundleRule('adr-8', { id: 'todo', pattern: 'TODO', flags: 'gi', title: 'TODO left' });
    const { drafts } = await runOn(chunkOf('a.ts', ['// todo one', '// TODO two', 'x // todo three']), [sticky]);
    assert.deepEqual(drafts.map((d) => d.line), [1, 2, 3]);
  });
});

describe('long lines', () => {
  test('a line over the cap is skipped by bundle and code rules, with a warning naming file:line', async () => {
    const long = `const x = "${'a'.repeat(MAX_LINE_LENGTH + 10)}"; debugger;`;
    const rule = bundleRule('adr-1', { id: 'x', pattern: 'debugger', title: 'x' });
    const { drafts, warnings } = await runOn(chunkOf('src/min.js', ['ok', long], { start: 7 }), [rule, ...builtinRules(true)]);
    assert.deepEqual(drafts, []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`src/min\\.js:8 \\(${long.length} characters\\): longer than ${MAX_LINE_LENGTH} characters`));
  });

  test('credential rules still check a 5 MB one-line file, quickly', async () => {
    const key = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
    const huge = `${'x'.repeat(5 * 1024 * 1024)} ${key}`;
    const started = Date.now();
    const { drafts } = await runOn(chunkOf('dist/bundle.min.js', [huge]), builtinRules(true));
    assert.deepEqual(drafts.map((d) => d.rule_source), ['builtin/secrets:aws-access-key']);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});

describe('catastrophic backtracking', () => {
  test('pattern shape: nested quantifiers and alternation under a quantifier are risky', () => {
    assert.equal(patternShape('(a+)+$').nested, true);
    assert.equal(patternShape('(a|aa)*b').nested, true);
    assert.equal(patternShape('(?:\\s*,\\s*\\w+){1,}').nested, true);
    assert.equal(patternShape('foo\\(\\s*bar').nested, false);
    assert.equal(patternShape('[(a+)+]x').nested, false, 'inside a class nothing is a group');
    assert.equal(patternShape('a.*b.*c.*d').unbounded, 3);
    assert.equal(linearEngineCan(/(a+)+$/), true);
    assert.equal(linearEngineCan(/(a+)+$/i), false);
    assert.equal(linearEngineCan(/(?<=x)(a+)+$/), false);
    assert.equal(needsSandbox(/(a+)+$/), false, 'the linear engine takes over');
    assert.equal(needsSandbox(/(a+)+$/i), true);
    assert.equal(needsSandbox(/console\.log/i), false);
  });

  for (const flags of ['', 'i']) {
    test(`(a+)+$ with flags "${flags}" on short and long lines finishes`, async () => {
      const rule = bundleRule('adr-9', { id: 'evil', pattern: '(a+)+$', flags, title: 'evil' });
      const lines = ['a'.repeat(40) + 'b', 'a'.repeat(3000) + 'b', 'a'.repeat(200_000) + 'b', 'aaa'];
      const started = Date.now();
      const runner = new RuleRunner();
      try {
        const { drafts, warnings } = await runner.run(chunkOf('src/a.ts', lines), [rule]);
        const elapsed = Date.now() - started;
        assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
        if (flags === '') {
          // The linear engine answers correctly: only the all-`a` line matches.
          assert.deepEqual(drafts.map((d) => d.line), [4]);
        } else {
          // The sandbox gives up on the rule and says so; the review goes on.
          assert.deepEqual(drafts, []);
          assert.ok(warnings.some((w) => /adr-9:evil took over \d+ ms on src\/a\.ts and was skipped/.test(w)), warnings.join('\n'));
        }
        // A second chunk: the timed-out rule stays off, no new wait.
        const again = Date.now();
        await runner.run(chunkOf('src/b.ts', ['a'.repeat(40) + 'b']), [rule]);
        assert.ok(Date.now() - again < 1500);
      } finally {
        await runner.close();
      }
    });
  }

  test('a risky pattern that is fine on the input answers through the sandbox', async () => {
    const rule = bundleRule('adr-9', { id: 'nested', pattern: '(ab+)+c', flags: 'i', title: 'nested' });
    const { drafts } = await runOn(chunkOf('src/a.ts', ['xxABBBc', 'no']), [rule]);
    assert.deepEqual(drafts.map((d) => d.line), [1]);
  });
});
