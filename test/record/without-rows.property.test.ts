/**
 * withoutRows (lib/record/message.ts), which an amend uses to take a fixed finding's OPEN row out
 * of the message: only the named rows' lines (the row and the lines folded under it) leave, and
 * only from the trailer paragraph; every other line stays, in order, byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withoutRows } from '../../lib/record/message.js';

const hex = fc.stringMatching(/^[0-9a-f]{10}$/);
const word = fc.stringMatching(/^[a-z][a-z ]{0,20}$/);

test('property: the named rows leave the trailer paragraph; nothing else changes', () => {
  fc.assert(
    fc.property(
      word,
      fc.array(word, { maxLength: 3 }),
      fc.uniqueArray(hex, { minLength: 1, maxLength: 5 }),
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 5, maxLength: 5 }),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      fc.boolean(),
      (subject, body, ids, folds, drop, comments) => {
        const rows = ids.map((id, i) => [
          `Review-Finding: rf-${id},src/a.js,${i + 1},builtin/debug:debugger,correctness,bug,issue`,
          ...Array.from({ length: folds[i]! }, (_, k) => `  part ${k},OPEN,`),
        ]);
        // A body line that looks like a row is not a trailer (not in the last paragraph).
        const lines = [subject, '', ...body.map((b) => b || 'x'), `Review-Finding: rf-${ids[0]},body line`, ''];
        for (const row of rows) lines.push(...row);
        if (comments) lines.push('# a comment', `# Review-Finding: rf-${ids[0]},in a comment`);
        const text = `${lines.join('\n')}\n`;
        const gone = new Set(ids.filter((_, i) => drop[i]).map((id) => `rf-${id}`));
        const out = withoutRows(text, gone, '#', 'Review-Finding');
        const expectedRows = rows.filter((_, i) => !drop[i]).flat();
        const expected = [...lines.slice(0, lines.length - rows.flat().length - (comments ? 2 : 0))];
        if (!expectedRows.length) while (expected.length && expected.at(-1) === '') expected.pop();
        expected.push(...expectedRows);
        if (comments) expected.push('# a comment', `# Review-Finding: rf-${ids[0]},in a comment`);
        assert.equal(out, `${expected.join('\n')}\n`);
        if (!gone.size) assert.equal(out, text);
      },
    ),
  );
});
