/** Bundle rules on chunks: paths/exclude, caps, long lines and catastrophic patterns. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bundleRule, chunkOf, runOn } from '../kit/review.js';
import { MAX_FINDINGS_PER_RULE, MAX_LINE_LENGTH, RuleRunner, ruleTimeKey } from '../../lib/review/engine/rules.js';
import { linearEngineCan, needsSandbox, patternShape } from '../../lib/review/engine/regex-guard.js';
import { builtinRules } from '../../lib/review/builtin.js';

describe('bundle rules', () => {
  const rule = bundleRule('adr-7', {
    id: 'no-console',
    pattern: 'console\\.log',
    severity: 'nit',
    category: 'style',
    title: 'console.log left in',
    paths: ['src/**'],
    exclude: ['src/**/*.test.ts'],
  });

  test('a finding cites its document and names <doc-id>:<rule-id>', async () => {
    const { drafts } = await runOn(chunkOf('src/a.ts', ['const a = 1;', 'console.log(a);'], { start: 40 }), [rule]);
    assert.equal(drafts.length, 1);
    assert.deepEqual(
      {
        line: drafts[0]!.line,
        start: drafts[0]!.start_line,
        source: drafts[0]!.rule_source,
        citations: drafts[0]!.citations,
        severity: drafts[0]!.severity,
      },
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
    assert.match(
      warnings[0]!,
      new RegExp(
        `adr-7:no-console matched ${MAX_FINDINGS_PER_RULE + 15} lines of src/a\\.ts; only the first ${MAX_FINDINGS_PER_RULE}`,
      ),
    );
  });

  test('g and y flags do not make matches depend on the previous line', async () => {
    const sticky = bundleRule('adr-8', { id: 'todo', pattern: 'TODO', flags: 'gi', title: 'TODO left' });
    const { drafts } = await runOn(chunkOf('a.ts', ['// todo one', '// TODO two', 'x // todo three']), [sticky]);
    assert.deepEqual(
      drafts.map((d) => d.line),
      [1, 2, 3],
    );
  });
});

describe('long lines', () => {
  test('a line over the cap is skipped by bundle and code rules, with a warning naming file:line', async () => {
    const long = `const x = "${'a'.repeat(MAX_LINE_LENGTH + 10)}"; debugger;`;
    const rule = bundleRule('adr-1', { id: 'x', pattern: 'debugger', title: 'x' });
    const { drafts, warnings } = await runOn(chunkOf('src/min.js', ['ok', long], { start: 7 }), [
      rule,
      ...builtinRules(true),
    ]);
    assert.deepEqual(drafts, []);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      new RegExp(`src/min\\.js:8 \\(${long.length} characters\\): longer than ${MAX_LINE_LENGTH} characters`),
    );
  });

  test('credential rules still check a 5 MB one-line file, quickly', async () => {
    const key = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
    const huge = `${'x'.repeat(5 * 1024 * 1024)} ${key}`;
    const started = Date.now();
    const { drafts } = await runOn(chunkOf('dist/bundle.min.js', [huge]), builtinRules(true));
    assert.deepEqual(
      drafts.map((d) => d.rule_source),
      ['builtin/secrets:aws-access-key'],
    );
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});

describe('catastrophic backtracking', () => {
  test('pattern shape: nested quantifiers and alternation under a quantifier are risky', () => {
    assert.equal(patternShape('(a+)+$').nested, true);
    assert.equal(patternShape('(a|aa)*b').nested, true);
    assert.equal(patternShape('(?:\\s*,\\s*\\w+){1,}').nested, true);
    assert.equal(patternShape('(?:a{1,16}){2,16}$').nested, true, 'bounded counts nest too');
    assert.equal(patternShape('(a|aa){20}').nested, true, 'a fixed count repeats an alternation');
    assert.equal(patternShape('foo\\(\\s*bar').nested, false);
    assert.equal(patternShape('(?:ab)?c').nested, false, 'a group that is optional is not repeated');
    assert.equal(patternShape('[(a+)+]x').nested, false, 'inside a class nothing is a group');
    assert.equal(patternShape('a.*b.*c.*d').unbounded, 3);
    assert.equal(patternShape('(?<=x)a*?b??').variable, 2, 'lazy markers and group prefixes are no quantifiers');
    assert.equal(patternShape('(a)\\1').variable, 1, 'a backreference can backtrack');
    assert.equal(linearEngineCan(/(a+)+$/), true);
    assert.equal(linearEngineCan(/(a+)+$/i), false);
    assert.equal(linearEngineCan(/(?<=x)(a+)+$/), false);
    assert.equal(
      linearEngineCan(/(?:a{1,16}){2,16}$/),
      false,
      'the engine does not take every pattern without lookaround',
    );
    assert.equal(needsSandbox(/(a+)+$/), false, 'the linear engine takes over');
    assert.equal(needsSandbox(/(a+)+$/i), false, 'written without i, the linear engine takes it');
    assert.equal(needsSandbox(/(?:a{1,16}){2,16}$/), true, 'passed the old guard and hung every commit');
    assert.equal(needsSandbox(/(?<=x)(a+)+$/), true);
    assert.equal(needsSandbox(/(?<![\w.])eval\(/), false, 'a lookbehind with no quantifier runs inline');
    assert.equal(needsSandbox(/console\.log/i), false);
  });

  for (const flags of ['', 'i']) {
    test(`(a+)+$ with flags "${flags}" on short and long lines finishes, with the right answer`, async () => {
      const rule = bundleRule('adr-9', { id: 'evil', pattern: '(a+)+$', flags, title: 'evil' });
      const lines = ['a'.repeat(40) + 'b', 'a'.repeat(3000) + 'b', 'a'.repeat(200_000) + 'b', 'aaa', 'AAAA'];
      const runner = new RuleRunner();
      try {
        const { drafts, warnings } = await runner.run(chunkOf('src/a.ts', lines), [rule]);
        // The linear engine answers correctly: only the all-`a` lines match (the 200,000 one is over the line cap).
        assert.deepEqual(
          drafts.map((d) => d.line),
          flags === 'i' ? [4, 5] : [4],
        );
        assert.ok(!warnings.some((w) => /took over/.test(w)), warnings.join('\n'));
      } finally {
        await runner.close();
      }
    });
  }

  test('ten (a+)+$ rules with flag i: each answers, none waits for a deadline', async () => {
    const rules = Array.from({ length: 10 }, (_, i) =>
      bundleRule('adr-9', { id: `evil-${i}`, pattern: '(a+)+$', flags: 'i', title: 'evil' }),
    );
    const { drafts, warnings } = await runOn(chunkOf('src/a.ts', ['a'.repeat(3000) + '!', 'aaa']), rules);
    assert.equal(drafts.length, 10);
    assert.deepEqual(warnings, []);
  });

  test('(?:a{1,16}){2,16}$ overruns in the sandbox: skipped, named, reported to be remembered, and not run again', async () => {
    const rule = bundleRule('adr-9', { id: 'counted', pattern: '(?:a{1,16}){2,16}$', title: 'counted' });
    const overran = new Set<string>();
    const reported: string[] = [];
    const runner = new RuleRunner({ overran, onOverrun: (k) => reported.push(k), sandboxMs: 200 });
    try {
      const first = await runner.run(chunkOf('src/a.ts', ['a'.repeat(40) + '!']), [rule]);
      assert.deepEqual(first.drafts, []);
      assert.ok(
        first.warnings.some((w) =>
          /^adr-9:counted took over 200 ms on src\/a\.ts and was skipped; later reviews skip it too/.test(w),
        ),
        first.warnings.join('\n'),
      );
      assert.deepEqual(reported, [ruleTimeKey(rule)]);
      assert.ok(overran.has(ruleTimeKey(rule)));
      // The same runner: off for the rest of the run, without a second warning.
      const second = await runner.run(chunkOf('src/b.ts', ['aaaa']), [rule]);
      assert.deepEqual([second.drafts, second.warnings], [[], []]);
    } finally {
      await runner.close();
    }
    // A later review that knows the overrun skips the rule at once and says why.
    const later = new RuleRunner({ overran });
    try {
      const run = await later.run(chunkOf('src/a.ts', ['aaaa']), [rule]);
      assert.deepEqual(run.drafts, []);
      assert.deepEqual(run.warnings, [
        'adr-9:counted skipped: its pattern overran its time limit in a review this week (change the pattern, or run revtrail knowledge check)',
      ]);
    } finally {
      await later.close();
    }
    // A changed pattern is a new rule as far as the memory goes.
    const changed = bundleRule('adr-9', { id: 'counted', pattern: 'a{2,16}$', title: 'counted' });
    assert.equal(overran.has(ruleTimeKey(changed)), false);
  });

  test('the rule phase has a budget: once used up, bundle rules stop and one warning names them; the baseline still runs', async () => {
    const slow = Array.from({ length: 3 }, (_, i) =>
      bundleRule('adr-9', { id: `slow-${i}`, pattern: '(?:a{1,16}){2,16}$', title: 'slow' }),
    );
    const plain = bundleRule('adr-9', { id: 'plain', pattern: 'aaaa', title: 'plain' });
    const runner = new RuleRunner({ budgetMs: 150, sandboxMs: 1000 });
    try {
      const { drafts, warnings } = await runner.run(chunkOf('src/a.ts', ['a'.repeat(40) + '!', 'debugger;']), [
        ...slow,
        plain,
        ...builtinRules(true),
      ]);
      assert.deepEqual(
        drafts.map((d) => d.rule_source),
        ['builtin/debug:debugger'],
      );
      assert.deepEqual(runner.summary(), [
        'bundle rules used up their 150 ms budget for this review; not run from then on: adr-9:slow-0, adr-9:slow-1, adr-9:slow-2, adr-9:plain (the built-in rules all ran)',
      ]);
      assert.ok(
        !warnings.some((w) => /later reviews skip it/.test(w)),
        'a wait cut short by the budget is not held against the rule',
      );
    } finally {
      await runner.close();
    }
  });

  test('a risky pattern that is fine on the input answers through the sandbox', async () => {
    const rule = bundleRule('adr-9', { id: 'nested', pattern: '(ab+)+c', flags: 'iu', title: 'nested' });
    assert.equal(needsSandbox(rule.regex), true);
    const { drafts } = await runOn(chunkOf('src/a.ts', ['xxABBBc', 'no']), [rule]);
    assert.deepEqual(
      drafts.map((d) => d.line),
      [1],
    );
  });
});
