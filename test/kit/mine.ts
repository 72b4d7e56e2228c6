/** Shared by the mining, gate, candidate and statistics tests: trailer lines and dated commits. */
import { formatRow, type TrailerRow } from '../../lib/record/row.js';
import type { TestRepo } from './repo.js';

export type Row = TrailerRow;

export function row(partial: Partial<Row> & Pick<Row, 'id'>): Row {
  return {
    file: 'src/a.ts',
    line: '1',
    rule_source: 'builtin/sql:concat',
    category: 'security',
    severity: 'security',
    issue: 'SQL built by concatenation',
    verdict: 'OPEN',
    rationale: '',
    ...partial,
  };
}

export function trailer(r: Row): string {
  return `Review-Finding: ${formatRow(r)}`;
}

/** A message whose trailer block (last paragraph) holds the given rows. */
export function message(subject: string, rows: Row[], extra: string[] = []): string {
  return `${subject}\n\n${[...extra, ...rows.map(trailer)].join('\n')}\n`;
}

/** Commits at a fixed, increasing time (a second per tick), so order and dates are deterministic. */
export function clock(start = Date.UTC(2024, 0, 1) / 1000) {
  let t = start;
  return {
    next(step = 60): NodeJS.ProcessEnv {
      t += step;
      const date = `${t} +0000`;
      return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    },
  };
}

export function commitAt(
  repo: TestRepo,
  env: NodeJS.ProcessEnv,
  msg: string,
  files: Record<string, string> = {},
): string {
  return repo.commit(msg, files, { env });
}

export function parseJsonl(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const FINDING_KEYS = [
  'commit',
  'date',
  'author',
  'id',
  'file',
  'line',
  'rule_source',
  'category',
  'severity',
  'issue',
  'verdict',
  'rationale',
  'placement',
  'grammar',
];

/** Lines 1..n of a file, each its own number. */
export function lines(n: number, f = (i: number) => `const v${i} = ${i};`): string {
  return Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
}
