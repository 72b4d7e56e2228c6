/**
 * A commit's records read back from their JSON lines (the cache) are the records parsing gave,
 * with or without the string pool that shares recurring texts across a history, and held
 * records are the records; the lines made from the records are the lines stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommits } from '../../lib/mine/parse.js';
import { MinedCommit, StringPool } from '../../lib/mine/record.js';
import type { RawCommit } from '../../lib/mine/types.js';
import { formatRow } from '../../lib/record/row.js';
import { row } from '../kit/mine.js';

const raw = (n: number, body: string, trailerValues: string[]): RawCommit => ({
  commit: String(n).repeat(40).slice(0, 40),
  date: `2024-01-0${n}T00:00:00+02:00`,
  author: n % 2 ? 'Ada <ada@example.com>' : 'Bo "B" <bo@example.com>',
  body,
  trailerValues,
});

const a = formatRow(row({ id: 'rf-0123456789', verdict: 'REJECT', rationale: 'said "no", ran `ls`' }));
const b = formatRow(row({ id: 'rf-abcdefabcd', file: 'dir/é 漢.ts', line: '3-7' }));
const commits = [
  // trailers, a repeated row, a rejected line
  raw(1, `S\n\nReview-Finding: ${a}\nReview-Finding: ${b}\nReview-Finding: ${a}\nReview-Finding: rf-zz,broken\n`, [
    a,
    b,
    a,
    'rf-zz,broken',
  ]),
  // one in the body (a warning), one adr-0029 line (no file:line, raw_severity)
  raw(2, `S\n\nReview-Finding: ${b}\n\nReview-Finding: security HIGH \u2014 unchecked input\n`, [
    'security HIGH \u2014 unchecked input',
  ]),
  raw(3, `S\n\nReview-Finding: security LOW - src/a.ts:9 slow loop\nReview-Finding: ${a}\n`, [
    'security LOW - src/a.ts:9 slow loop',
    a,
  ]),
];

test('records read back from their lines equal the parsed records, pooled or not', () => {
  const pool = new StringPool();
  const results = parseCommits(commits);
  assert.ok(
    results.some((r) => r.rejected.length) &&
      results.some((r) => r.warnings.length) &&
      results.some((r) => r.findings.some((f) => f.raw_severity)),
  );
  for (const result of results) {
    const lines = new MinedCommit(result.commit, { result }).lines;
    assert.deepEqual(new MinedCommit(result.commit, { lines }).result, result);
    const pooled = new MinedCommit(result.commit, { lines, pool });
    assert.deepEqual(pooled.result, result);
    assert.deepEqual(pooled.lines, lines);
    assert.deepEqual(pooled.notices(), { warnings: result.warnings, rejected: result.rejected });
    // Held records (mineAll) are the same records.
    const held = structuredClone(result);
    pool.hold(held);
    assert.deepEqual(held, result);
  }
});

test('record lines hold no raw DEL, C1 or bidi control, and read back to the same record', () => {
  const tricky = formatRow(
    row({ id: 'rf-1111111111', verdict: 'REJECT', rationale: 'looks \u202eok\u202c here \x85 \x7f' }),
  );
  const [mined] = parseCommits([raw(4, `S\n\nReview-Finding: ${tricky}\n`, [tricky])]);
  const commit = new MinedCommit(mined!.commit, { result: mined! });
  const [line] = commit.lines;
  assert.doesNotMatch(line!, /[\x7f-\x9f\u202a-\u202e]/);
  assert.match(line!, /looks \\u202eok\\u202c here \\u0085 \\u007f/);
  const back = new MinedCommit(mined!.commit, { lines: commit.lines });
  assert.deepEqual(back.result.findings, mined!.findings);
});
