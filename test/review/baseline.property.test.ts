/**
 * The adoption baseline's suppression (lib/review/findings/baseline.ts): whatever lines are added
 * around recorded violations and however their own lines are reindented, a review of the new
 * version counts exactly the violations beyond what the baseline recorded, per rule and text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyBaseline, entriesOf, normalizeLine } from '../../lib/review/findings/baseline.js';
import type { Finding } from '../../lib/review/types.js';

const RULE = 'adr-1:no-bad';
const violation = fc.constantFrom('bad(a);', 'bad(b);', 'x = bad(a) + 1;');
const clean = fc.constantFrom('ok();', '', '// note', 'let y = 2;');
const indent = fc.constantFrom('', '  ', '\t', '    \t');
const isViolation = (line: string) => line.includes('bad(');

/** A finding on every violation line of `lines` (as a review that flags each line it sees). */
function findingsOf(lines: readonly string[]): Finding[] {
  return lines.flatMap((text, i) =>
    isViolation(text) ? [{ rule_source: RULE, path: 'src/a.ts', line: i + 1 } as Finding] : [],
  );
}

test('lines added around recorded violations and reindented ones raise nothing; each extra violation is one finding', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(violation, clean), { maxLength: 30 }),
      fc.array(fc.tuple(fc.nat(), fc.oneof(clean, violation)), { maxLength: 10 }),
      fc.array(indent, { minLength: 40, maxLength: 40 }),
      async (before, inserted, indents) => {
        const entries = entriesOf(findingsOf(before), (_, line) => before[line - 1]!);
        const after = before.map((l, i) => `${indents[i % indents.length]}${l}  `);
        for (const [at, line] of inserted) after.splice(at % (after.length + 1), 0, line);
        const findings = findingsOf(after);
        const { kept, baselined } = await applyBaseline(
          findings,
          entries,
          (_, line) => after[line - 1]!,
          async () => after.join('\n'),
        );
        const extra = inserted.filter(([, l]) => isViolation(l)).length;
        assert.equal(kept.length, extra);
        assert.equal(baselined.length, findings.length - extra);
        // Per text, the kept findings are those beyond the recorded count.
        for (const text of new Set(after.filter(isViolation).map(normalizeLine))) {
          const recorded = entries.filter((e) => e.text === text).length;
          const now = after.filter((l) => normalizeLine(l) === text).length;
          assert.equal(
            kept.filter((f) => normalizeLine(after[f.line - 1]!) === text).length,
            Math.max(0, now - recorded),
          );
        }
      },
    ),
  );
});

test('an entry is rule, path, the line trimmed with white space collapsed, and its occurrence', () => {
  const lines = ['  bad(a);', 'ok();', '\tbad(a);', 'bad(  b );'];
  assert.deepEqual(
    entriesOf(findingsOf(lines), (_, line) => lines[line - 1]!),
    [
      { rule_source: RULE, path: 'src/a.ts', text: 'bad( b );', occurrence: 0 },
      { rule_source: RULE, path: 'src/a.ts', text: 'bad(a);', occurrence: 0 },
      { rule_source: RULE, path: 'src/a.ts', text: 'bad(a);', occurrence: 1 },
    ],
  );
});
