import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { oneLineFields, parseRows } from '../../lib/record/row.js';
import { formatRow, parseRow } from '../../lib/record/row.js';
import { row } from '../kit/mine.js';

// The batch reader must answer exactly as parseRow does on every value, in any batch.
const corpus = [
  formatRow(row({ id: 'rf-0123456789' })),
  formatRow(row({ id: 'rf-0123456789', verdict: 'ACCEPT', rationale: 'Fixed, with a comma' })),
  formatRow(row({ id: 'rf-0123456789', verdict: 'REJECT', rationale: 'said "no", ran `ls`' })),
  formatRow(row({ id: 'rf-0123456789', issue: 'Ünïcödé, ok', file: 'dir with space/a b.ts' })),
  formatRow(row({ id: 'rf-0123456789', line: '3-7' })),
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,SQL,OPEN',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,SQL,OPEN,,extra',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,"SQL,OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,SQL "quoted" inside,OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security, "spaced",OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,"a""b",OPEN,',
  'rf-0123456789,src/a.ts,0,builtin/sql:concat,security,security,SQL,OPEN,',
  'rf-0123456789,src/a.ts,9-3,builtin/sql:concat,security,security,SQL,OPEN,',
  'rf-XYZ,src/a.ts,1,builtin/sql:concat,security,security,SQL,OPEN,',
  'rf-0123456789,/abs/a.ts,1,builtin/sql:concat,security,security,SQL,OPEN,',
  'rf-0123456789,src/a.ts,1,nocolon,security,security,SQL,OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,nosuch,security,SQL,OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,SQL,MAYBE,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,' + 'x'.repeat(81) + ',OPEN,',
  'rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,,OPEN,',
  '  rf-0123456789,src/a.ts,1,builtin/sql:concat,security,security,trimmed,OPEN,  ',
  '',
  '   ',
  '""',
  '"unterminated',
  'a,b\nc,d',
];

test("parseRows gives parseRow's result and reason for every value, alone and in a batch", () => {
  const batch = parseRows(corpus);
  corpus.forEach((value, i) => {
    assert.deepEqual(batch[i], parseRow(value), JSON.stringify(value));
    assert.deepEqual(parseRows([value])[0], parseRow(value), JSON.stringify(value));
  });
  // A broken row in the middle of a batch does not disturb its neighbours.
  const mixed = parseRows([corpus[0]!, corpus[7]!, corpus[1]!]);
  assert.deepEqual(mixed, [parseRow(corpus[0]!), parseRow(corpus[7]!), parseRow(corpus[1]!)]);
});

test('oneLineFields cuts a clean one-line record exactly as csv-parse reads it', () => {
  const char = fc.constantFrom('a', 'Z', ' ', '\t', '"', ',', ';', '\\', 'é', '\u2028', '\u00a0', '\uFEFF', '0');
  const text = (chars: fc.Arbitrary<string>) => fc.array(chars, { maxLength: 12 }).map((a) => a.join(''));
  const bare = text(char.filter((c) => c !== '"' && c !== ','));
  const quoted = text(char).map((t) => `"${t.replace(/"/g, '""')}"`);
  fc.assert(
    fc.property(fc.array(fc.oneof(bare, quoted), { minLength: 1, maxLength: 11 }), (fields) => {
      const record = fields.join(',');
      const expected = (parse(record, { relax_column_count: true, record_delimiter: '\n' }) as string[][])[0] ?? [''];
      assert.deepEqual(oneLineFields(record), expected, JSON.stringify(record));
      // And a row reads the same in a batch as alone, trimmed or not.
      assert.deepEqual(parseRows([record])[0], parseRow(record), JSON.stringify(record));
    }),
    { numRuns: 3000 },
  );
});
