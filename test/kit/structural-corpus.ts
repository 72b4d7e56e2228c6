/**
 * The labelled corpus of syntax-tree and import rules (test/fixtures/structural/corpus.json):
 * each case is a whole new file under one rule, expected to be found or not. Scored for the
 * structural rule and, beside it, for the regex it replaces. Shared by the quality test and
 * `npm run bench -- quality`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStructural } from '../../lib/bundle/structural.js';
import { runStructural } from '../../lib/review/structural/index.js';
import type { ChunkSelection } from '../../lib/select/types.js';

interface CorpusRule {
  ast?: unknown;
  language?: string;
  imports?: { forbid: string[]; allow?: string[] };
  regex: string;
  path: string;
}
export interface Corpus {
  rules: Record<string, CorpusRule>;
  files: string[];
  goModule: string;
  tsconfig: { compilerOptions: { baseUrl: string; paths: Record<string, string[]> } };
  cases: Array<{ rule: string; code: string; expect: boolean; why: string }>;
}

export function loadStructuralCorpus(dir: string): Corpus {
  return JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as Corpus;
}

export interface Score {
  rule: string;
  positives: number;
  negatives: number;
  structural: { recall: number; precision: number };
  regex: { recall: number; precision: number };
  misses: string[];
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

export async function scoreStructural(corpus: Corpus): Promise<Score[]> {
  const scores: Score[] = [];
  const tsPaths = Object.entries(corpus.tsconfig.compilerOptions.paths).map(([a, t]): [string, string[]] => [a, t]);
  for (const [name, def] of Object.entries(corpus.rules)) {
    const parsed = parseStructural(
      {
        id: name,
        severity: 'bug',
        title: name,
        ...(def.ast ? { ast: def.ast, language: def.language } : { imports: def.imports }),
      },
      'adr-corpus',
    );
    if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.issues)}`);
    const regex = new RegExp(def.regex);
    const tally = { s: { tp: 0, fp: 0, fn: 0 }, r: { tp: 0, fp: 0, fn: 0 } };
    const misses: string[] = [];
    const cases = corpus.cases.filter((c) => c.rule === name);
    for (const c of cases) {
      const lines = c.code.split('\n');
      if (lines.at(-1) === '') lines.pop();
      const added = lines.map((text, i) => ({ line: i + 1, text }));
      // An added file: every match is one the change introduces.
      const file = { newPath: def.path, oldPath: null, status: 'added', binary: false, hunks: [] };
      const chunk = { path: def.path, file, added, changedLines: new Set(added.map((a) => a.line)) };
      const selection = { chunk, matched: [], documents: [] } as unknown as ChunkSelection;
      const result = await runStructural([{ selection, rules: [parsed.rule] }], {
        fileText: async () => c.code,
        context: async () => ({ tsPaths, goModule: corpus.goModule, exists: (p) => corpus.files.includes(p) }),
      });
      const found = result.drafts.length > 0;
      const byRegex = added.some((a) => regex.test(a.text));
      for (const [key, got] of [
        ['s', found],
        ['r', byRegex],
      ] as const) {
        if (got && c.expect) tally[key].tp++;
        else if (got) tally[key].fp++;
        else if (c.expect) tally[key].fn++;
      }
      if (found !== c.expect)
        misses.push(
          `${name}: ${c.why} (expected ${c.expect ? 'a finding' : 'none'}${result.warnings.length ? `; ${result.warnings.join('; ')}` : ''})`,
        );
    }
    const of = (t: { tp: number; fp: number; fn: number }) => ({
      recall: ratio(t.tp, t.tp + t.fn),
      precision: ratio(t.tp, t.tp + t.fp),
    });
    scores.push({
      rule: name,
      positives: cases.filter((c) => c.expect).length,
      negatives: cases.filter((c) => !c.expect).length,
      structural: of(tally.s),
      regex: of(tally.r),
      misses,
    });
  }
  return scores;
}

/** All cases pooled. */
export function overall(
  scores: readonly Score[],
  corpus: Corpus,
  kind: 'structural' | 'regex',
): { recall: number; precision: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const s of scores) {
    const pos = s.positives;
    const r = s[kind];
    const t = Math.round(r.recall * pos);
    tp += t;
    fn += pos - t;
    fp += r.precision === 0 ? 0 : Math.round(t / r.precision) - t;
  }
  void corpus;
  return { recall: ratio(tp, tp + fn), precision: ratio(tp, tp + fp) };
}
