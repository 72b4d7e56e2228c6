import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRows } from '../../lib/record/row.js';
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
