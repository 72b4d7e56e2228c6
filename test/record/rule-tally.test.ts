/**
 * The one per-rule computation (lib/record/rule-tally.ts) that stats, candidates --explain and the
 * review's calibration share: properties over random histories, and the edges by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  isDemoted,
  occurrencesOfRows,
  tallyRules,
  type CalibrationSettings,
  type Occurrence,
} from '../../lib/record/rule-tally.js';
import { VERDICTS, type Verdict } from '../../lib/core/vocabulary.js';
import { buildThreads, occurrencesOf } from '../../lib/gate/threads.js';
import type { CommitResult } from '../../lib/mine/types.js';
import type { HistoryRow } from '../../lib/record/history.js';
import { flagOf } from '../../lib/stats/compute.js';

const RULES = ['a:x', 'b/s:y', 'builtin/secrets:aws-access-key'];
const occurrence = fc.record({
  id: fc.constantFrom('rf-000001', 'rf-000002', 'rf-000003', 'rf-000004', 'rf-000005', 'rf-000006'),
  rule_source: fc.constantFrom(...RULES),
  verdict: fc.constantFrom<Verdict>(...VERDICTS),
});
const settings = fc.record({
  enabled: fc.boolean(),
  minVerdicts: fc.integer({ min: 1, max: 4 }),
  demoteAbove: fc.constantFrom(0, 0.25, 0.3, 0.5, 1),
});
/** Occurrences oldest first, each in a commit of its own (c0, c1, …). */
const history = fc
  .array(occurrence, { maxLength: 40 })
  .map((list) => list.map((o, i): Occurrence => ({ ...o, commit: `c${i}` })));

function asCommits(occurrences: readonly Occurrence[]): CommitResult[] {
  // Mining yields newest first.
  return [...occurrences].reverse().map((o) => ({
    commit: o.commit!,
    findings: [
      {
        commit: o.commit!,
        date: '2024-01-01T00:00:00Z',
        author: 'A <a@x>',
        id: o.id,
        file: 'a.ts',
        line: '1',
        rule_source: o.rule_source,
        category: 'style',
        severity: 'nit',
        issue: 'i',
        verdict: o.verdict,
        rationale: o.verdict === 'OPEN' ? '' : 'why',
        placement: 'trailer' as const,
        grammar: 'csv' as const,
      },
    ],
    rejected: [],
    warnings: [],
  }));
}

/** What the review passes in: the built-in credential rules are exempt (here, by their section). */
const credential = (ruleSource: string) => ruleSource.startsWith('builtin/secrets:');

const demotedAt = (occurrences: readonly Occurrence[], rule: string, s: CalibrationSettings) =>
  tallyRules(occurrences, s).find((t) => t.rule_source === rule)?.demoted ?? false;

test('property: the counts are the threads per rule and latest verdict, as buildThreads sees them', () => {
  fc.assert(
    fc.property(history, (occurrences) => {
      const commits = asCommits(occurrences);
      assert.deepEqual(
        occurrencesOf(commits).map((o) => [o.id, o.rule_source, o.verdict, o.commit]),
        occurrences.map((o) => [o.id, o.rule_source, o.verdict, o.commit]),
      );
      const expected = new Map<string, Record<Verdict, number>>();
      for (const t of buildThreads(commits)) {
        const c = expected.get(t.rule_source) ?? { OPEN: 0, ACCEPT: 0, REJECT: 0, DEFER: 0, ACKNOWLEDGE: 0 };
        c[t.state] += 1;
        expected.set(t.rule_source, c);
      }
      const tallies = tallyRules(occurrences);
      assert.deepEqual(
        tallies.map((t) => t.rule_source),
        [...expected.keys()].sort(),
      );
      for (const t of tallies) {
        const c = expected.get(t.rule_source)!;
        assert.deepEqual(t.counts, c);
        const n = c.ACCEPT + c.REJECT + c.DEFER + c.ACKNOWLEDGE;
        assert.deepEqual(
          [t.findings, t.verdicts, t.rejected, t.rate],
          [Object.values(c).reduce((a, b) => a + b, 0), n, c.REJECT, n ? c.REJECT / n : null],
        );
      }
    }),
    { numRuns: 300 },
  );
});

test('property: demoted follows the final numbers; since is the occurrence from which the rule stayed demoted', () => {
  fc.assert(
    fc.property(history, settings, (occurrences, drawn) => {
      const s = { ...drawn, exempt: credential };
      for (const t of tallyRules(occurrences, s)) {
        assert.equal(t.demoted, isDemoted(t.rejected, t.verdicts, s, t.exempt));
        assert.equal(t.exempt, t.rule_source.startsWith('builtin/secrets:'));
        if (!t.demoted) {
          assert.equal(t.since, null);
          continue;
        }
        const k = occurrences.findIndex((o) => o.commit === t.since!.commit);
        assert.ok(k >= 0);
        assert.deepEqual([t.since!.id, t.since!.verdict], [occurrences[k]!.id, occurrences[k]!.verdict]);
        assert.equal(demotedAt(occurrences.slice(0, k), t.rule_source, s), false, 'not demoted just before');
        for (let end = k + 1; end <= occurrences.length; end++)
          assert.equal(demotedAt(occurrences.slice(0, end), t.rule_source, s), true, `demoted after ${end}`);
      }
    }),
    { numRuns: 200 },
  );
});

test('property: agreement: demoted only with REJECTs from minAuthors people (who gave each thread its latest verdict); one person alone never', () => {
  const people = fc.constantFrom('ada@x', 'bo@x', 'cy@x');
  const authored = fc
    .array(fc.tuple(occurrence, people), { maxLength: 40 })
    .map((list) => list.map(([o, author], i): Occurrence => ({ ...o, author, commit: `c${i}` })));
  fc.assert(
    fc.property(authored, settings, fc.integer({ min: 1, max: 3 }), (occurrences, drawn, minAuthors) => {
      const s = { ...drawn, minAuthors, exempt: credential };
      // By hand: each thread's rule (latest occurrence), state and the person of its latest human verdict.
      const threads = new Map<string, { rule: string; state: Verdict; by: string | null }>();
      for (const o of occurrences) {
        const t = threads.get(o.id);
        const answered = o.verdict !== 'OPEN';
        threads.set(o.id, {
          rule: o.rule_source,
          state: answered ? o.verdict : (t?.state ?? 'OPEN'),
          by: answered ? o.author! : (t?.by ?? null),
        });
      }
      for (const t of tallyRules(occurrences, s)) {
        const mine = [...threads.values()].filter((x) => x.rule === t.rule_source);
        const rejecting = new Set(mine.filter((x) => x.state === 'REJECT').map((x) => x.by));
        assert.equal(t.agreeing, rejecting.size);
        assert.equal(t.demoted, isDemoted(t.rejected, t.verdicts, s, t.exempt, t.agreeing));
        if (t.demoted) assert.ok(t.agreeing >= minAuthors);
        assert.equal(
          t.answerers.reduce(
            (n, a) => n + a.counts.ACCEPT + a.counts.REJECT + a.counts.DEFER + a.counts.ACKNOWLEDGE,
            0,
          ),
          t.verdicts,
        );
      }
      // The same history answered by one person: never demoted once two people are needed.
      const alone = occurrences.map((o) => ({ ...o, author: 'ada@x' }));
      if (minAuthors >= 2) assert.ok(tallyRules(alone, s).every((t) => !t.demoted));
    }),
    { numRuns: 300 },
  );
});

test('edges by hand: n = minVerdicts - 1, a rate exactly at demoteAbove, just above, disabled, a credential rule', () => {
  const s = { enabled: true, minVerdicts: 5, demoteAbove: 0.3, exempt: credential };
  let n = 0;
  const answers = (rule: string, verdicts: Verdict[]): Occurrence[] =>
    verdicts.flatMap((verdict) => {
      const id = `rf-${(++n).toString(16).padStart(6, '0')}`;
      return [
        { id, rule_source: rule, verdict: 'OPEN' as const },
        { id, rule_source: rule, verdict, commit: `v${n}` },
      ];
    });
  const one = (occ: Occurrence[], settings: CalibrationSettings = s) => tallyRules(occ, settings)[0]!;
  assert.equal(
    one(answers('r:a', ['REJECT', 'REJECT', 'REJECT', 'REJECT'])).demoted,
    false,
    '4 of 4, one short of minVerdicts',
  );
  const five = one(answers('r:a', ['REJECT', 'REJECT', 'REJECT', 'REJECT', 'REJECT']));
  assert.deepEqual([five.demoted, five.since?.commit], [true, `v${n}`]);
  const exactly = answers('r:b', ['REJECT', 'REJECT', 'REJECT', ...Array<Verdict>(7).fill('ACCEPT')]);
  assert.deepEqual([one(exactly).rate, one(exactly).demoted], [0.3, false], '3 of 10 is not above 0.3');
  const above = [...exactly, ...answers('r:b', ['REJECT'])];
  assert.deepEqual([one(above).demoted, one(above).since?.commit], [true, `v${n}`], '4 of 11 is');
  assert.equal(one(above, { ...s, enabled: false }).demoted, false);
  assert.equal(one(above, { ...s, demoteAbove: 1 }).demoted, false, 'demoteAbove 1 never demotes');
  const key = one(answers('builtin/secrets:private-key', Array<Verdict>(9).fill('REJECT')));
  assert.deepEqual([key.rate, key.exempt, key.demoted], [1, true, false]);
  // A copied OPEN row after the verdict does not reopen the thread; a later ACCEPT replaces the REJECT.
  const copies = [
    ...answers('r:c', ['REJECT']),
    { id: `rf-${n.toString(16).padStart(6, '0')}`, rule_source: 'r:c', verdict: 'OPEN' as const },
  ];
  assert.deepEqual(one(copies).counts, { OPEN: 0, ACCEPT: 0, REJECT: 1, DEFER: 0, ACKNOWLEDGE: 0 });
  // Falling back under the threshold drops since; crossing again names the new verdict.
  const back = [...above, ...answers('r:b', ['ACCEPT', 'ACCEPT', 'ACCEPT'])];
  assert.deepEqual([one(back).demoted, one(back).since], [false, null], '4 of 14');
  const again = [...back, ...answers('r:b', ['REJECT'])];
  assert.deepEqual([one(again).demoted, one(again).since?.commit], [true, `v${n}`], '5 of 15');
});

test('history rows (newest commit first) become occurrences oldest first, each commit in message order', () => {
  const rowOf = (id: string, verdict: Verdict) => ({
    id,
    file: 'a',
    line: '1',
    rule_source: 'r:x',
    category: 'style' as const,
    severity: 'nit' as const,
    issue: 'i',
    verdict,
    rationale: '',
  });
  const rows: HistoryRow[] = [
    { commit: 'c3', row: rowOf('rf-000005', 'OPEN') },
    { commit: 'c2', row: rowOf('rf-000003', 'OPEN') },
    { commit: 'c2', row: rowOf('rf-000003', 'REJECT') },
    { commit: 'c1', row: rowOf('rf-000001', 'OPEN') },
  ];
  assert.deepEqual(
    occurrencesOfRows(rows).map((o) => `${o.commit} ${o.id} ${o.verdict}`),
    ['c1 rf-000001 OPEN', 'c2 rf-000003 OPEN', 'c2 rf-000003 REJECT', 'c3 rf-000005 OPEN'],
  );
  assert.deepEqual(occurrencesOfRows([]), []);
});

test('stats flags: too few verdicts below minVerdicts, else the bands', () => {
  assert.deepEqual(
    [flagOf(0.9, 4, 5), flagOf(0.9, 5, 5), flagOf(0.05, 4, 5), flagOf(0.05, 5, 5), flagOf(null, 0, 5)],
    ['too few verdicts', 'investigate', 'too few verdicts', 'performing well', null],
  );
});

test('signers (gate.reviewers): people are the verified signers; an unsigned REJECT is an answer but no one’s and no rejection, also through a copied OPEN row', () => {
  const s: CalibrationSettings = { enabled: true, minVerdicts: 3, demoteAbove: 0.3, minAuthors: 2 };
  const o = (id: string, verdict: Verdict, commit: string, author: string): Occurrence => ({
    id,
    rule_source: 'a:x',
    verdict,
    commit,
    author,
  });
  // One key (ada) under three e-mails, one unsigned REJECT by bo, then a copy of that thread's OPEN row.
  const list = [
    o('rf-1', 'REJECT', 'c1', 'ada@x'),
    o('rf-2', 'REJECT', 'c2', 'a.l@x'),
    o('rf-3', 'REJECT', 'c3', 'countess@y'),
    o('rf-4', 'REJECT', 'c4', 'bo@x'),
    o('rf-4', 'OPEN', 'c5', 'cy@x'),
  ];
  const signers = new Map([
    ['c1', 'ada@x'],
    ['c2', 'ada@x'],
    ['c3', 'ada@x'],
  ]);
  const [byAuthor] = tallyRules(list, s);
  assert.deepEqual([byAuthor!.agreeing, byAuthor!.rejected, byAuthor!.demoted], [4, 4, true]);
  const [signed] = tallyRules(list, { ...s, signers });
  assert.deepEqual(
    [signed!.agreeing, signed!.rejected, signed!.verdicts, signed!.counts.REJECT, signed!.demoted],
    [1, 3, 4, 4, false],
  );
  assert.deepEqual(
    signed!.answerers.map((a) => [a.person, a.counts.REJECT]),
    [['ada@x', 3]],
  );
  // A second signer's REJECT demotes: 4 of 5.
  const [two] = tallyRules([...list, o('rf-5', 'REJECT', 'c6', 'rev@x')], {
    ...s,
    signers: new Map([...signers, ['c6', 'rev@x']]),
  });
  assert.deepEqual(
    [two!.agreeing, two!.rejected, two!.verdicts, two!.demoted, two!.since?.commit],
    [2, 4, 5, true, 'c6'],
  );
});
