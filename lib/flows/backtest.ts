/**
 * `revtrail rules --backtest` (docs/mining.md "Backtest"): each bundle rule replayed over
 * history, the change each commit introduced, so a lead sees a rule's noise before it is
 * enforced. One `git log -p --full-index` stream, read as it arrives; each commit's patch is
 * reviewed in this process, as a range whose diff is already read (the commit's own tree is
 * what syntax-tree and import rules read), with the bundle's rules only: no built-in rule, no
 * credential, no reviewer program, no verdicts, no calibration.
 *
 * The mainline, first parent only: a merge's change is its diff against its first parent (the
 * branch as it landed), and the commits of a merged branch are not walked again, so each change
 * is counted once, in the order the mainline took it.
 */
import { emptyTree, headWalk, historyPatches, run, stream } from '../core/git/commands.js';
import { DEFAULT_CAPS, readCapped } from '../diff/cap.js';
import { parseDiff } from '../diff/parse.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { runReview } from '../review/index.js';
import type { Finding } from '../review/types.js';
import { UsageError } from '../core/errors.js';
import { HistoryFiles } from './backtest-files.js';
import { flowMessages as m } from '../messages/flows.js';

/** How many of a rule's hits are shown as lines (the oldest first). */
export const FIRST_LINES = 5;

export interface BacktestInput {
  cwd: string;
  knowledge?: string;
  /** `--since DATE`, as git log takes it. */
  since?: string;
  /** `--max-count N`: the N newest mainline commits. */
  maxCount?: number;
  /** Called after each commit (done, total, the commit's short id). */
  onProgress?: (done: number, total: number, commit: string) => void;
}

export interface BacktestHit {
  commit: string;
  path: string;
  line: number;
  /** The flagged line as the commit added it. */
  text: string;
}

export interface BacktestRule {
  rule_source: string;
  kind: 'regex' | 'ast' | 'imports';
  severity: string;
  title: string;
  hits: number;
  files: number;
  commits: number;
  authors: number;
  /** The first hits, oldest first (at most FIRST_LINES). */
  first: BacktestHit[];
}

export interface BacktestResult {
  /** Commits reviewed (merges included, as their first-parent change). */
  commits: number;
  /** The oldest and newest commit reviewed. */
  range: { from: string | null; to: string | null };
  rules: BacktestRule[];
  warnings: string[];
}

/** Between two commits' records in the stream: a line git's patch never starts with (a hunk line starts with ` `, `+`, `-` or `\`). */
const COMMIT_MARK = '\n\x01revtrail-commit\x02';

/** git log's arguments for the walk (shared by the count and the stream). */
function walkArgs(input: BacktestInput): string[] {
  const args = ['--first-parent'];
  if (input.since !== undefined) args.push(`--since=${input.since}`);
  if (input.maxCount !== undefined) args.push(`--max-count=${input.maxCount}`);
  return args;
}

interface RuleTally {
  row: BacktestRule;
  files: Set<string>;
  commits: Set<string>;
  authors: Set<string>;
}

export async function backtest(input: BacktestInput): Promise<BacktestResult> {
  if (input.maxCount !== undefined && !(Number.isInteger(input.maxCount) && input.maxCount > 0))
    throw new UsageError(m.badMaxCount(String(input.maxCount)), { remedy: m.badMaxCountRemedy });
  const session = await openWorkspace(input.cwd, { knowledge: input.knowledge, needRepo: true });
  return backtestWith(session, input);
}

export async function backtestWith(session: Workspace, input: BacktestInput): Promise<BacktestResult> {
  const top = session.top;
  const bundle = await session.bundle();
  const tallies = new Map<string, RuleTally>();
  for (const concept of bundle.concepts)
    for (const r of [...concept.rules.map((x) => ({ ...x, kind: 'regex' as const })), ...(concept.structural ?? [])])
      tallies.set(r.ruleSource, {
        row: {
          rule_source: r.ruleSource,
          kind: r.kind,
          severity: r.severity,
          title: r.title,
          hits: 0,
          files: 0,
          commits: 0,
          authors: 0,
          first: [],
        },
        files: new Set(),
        commits: new Set(),
        authors: new Set(),
      });
  const warnings = new Set<string>();
  const result = (commits: number, from: string | null, to: string | null): BacktestResult => ({
    commits,
    range: { from, to },
    rules: [...tallies.values()].map((t) => ({
      ...t.row,
      files: t.files.size,
      commits: t.commits.size,
      authors: t.authors.size,
    })),
    warnings: [...warnings],
  });
  const head = await run(headWalk(walkArgs(input)), { cwd: top });
  if (head === null) throw new UsageError(m.noCommitYet, { remedy: m.noCommitYetRemedy });
  const shas = head.split('\n').filter(Boolean);
  if (tallies.size === 0 || shas.length === 0) return result(shas.length, shas.at(-1) ?? null, shas[0] ?? null);
  const empty = await run(emptyTree, { cwd: top });
  // Import rules resolve against the files of each commit, kept as the walk goes.
  const imports = bundle.concepts.some((c) => (c.structural ?? []).some((r) => r.kind === 'imports'));
  const structural = bundle.concepts.some((c) => (c.structural ?? []).length > 0);
  const files = structural ? await HistoryFiles.before(top, shas.at(-1)!) : null;
  try {
    return await replay();
  } finally {
    files?.close();
  }
  async function replay(): Promise<BacktestResult> {
    const ruleFilter = (s: string) => tallies.has(s);
    // Oldest first, so that a rule's first lines are where it first fired.
    const patches = stream(historyPatches(COMMIT_MARK, walkArgs(input), DEFAULT_CAPS.fileBytes), { cwd: top });
    let done = 0;
    for await (const batch of patches) {
      for (const record of batch) {
        if (record === '' || record === '\n') continue;
        const [sha = '', parents = '', author = '', rest = ''] = record.split('\0', 4) as string[];
        const at = rest.indexOf('diff --git ');
        done++;
        if (at !== -1) {
          const patch = rest.slice(at);
          // A commit's patch over the per-file cap is cut as a review's diff is (docs/review.md "Big files").
          const diff =
            patch.length > DEFAULT_CAPS.fileBytes
              ? await readCapped(
                  (async function* () {
                    yield Buffer.from(patch);
                  })(),
                )
              : { text: patch, capped: [] };
          const parent = parents.split(' ')[0] || empty;
          if (imports) files!.apply(parseDiff(diff.text, sha));
          const reviewed = await runReview(session, {
            cwd: top,
            source: { kind: 'range', range: `${parent}..${sha}`, text: Promise.resolve(diff) },
            ruleFilter,
            reviewer: false,
            model: false,
            program: false,
            verdictTip: null,
            calibration: false,
            // What history raised, not what today's baseline would let pass.
            baseline: false,
            // A history's commit is reviewed whole: the hook's budget guards against a hostile
            // rule, and the sandbox and each rule's deadline still do (docs/review.md "The whole tree").
            ruleTime: { budgetMs: Number.POSITIVE_INFINITY },
            fileVersions: files?.at(sha, Number.POSITIVE_INFINITY),
          });
          for (const w of reviewed.warnings) warnings.add(w);
          if (reviewed.findings.length) tallyFindings(reviewed.findings, diff.text, sha, author, tallies);
        }
        input.onProgress?.(done, shas.length, sha.slice(0, 12));
      }
    }
    return result(done, shas.at(-1) ?? null, shas[0] ?? null);
  }
}

function tallyFindings(
  findings: readonly Finding[],
  patch: string,
  sha: string,
  author: string,
  tallies: Map<string, RuleTally>,
): void {
  // The flagged lines' text, read from the patch only when a rule fired.
  const added = new Map<string, Map<number, string>>();
  for (const file of parseDiff(patch, sha)) {
    if (file.newPath === null) continue;
    const lines = new Map<number, string>();
    for (const hunk of file.hunks)
      for (const l of hunk.lines) if (l.kind === 'add' && l.newLine !== null) lines.set(l.newLine, l.text);
    added.set(file.newPath, lines);
  }
  for (const f of findings) {
    const tally = tallies.get(f.rule_source);
    if (!tally) continue;
    tally.row.hits++;
    tally.files.add(f.path);
    tally.commits.add(sha);
    tally.authors.add(author);
    if (tally.row.first.length < FIRST_LINES)
      tally.row.first.push({ commit: sha, path: f.path, line: f.line, text: added.get(f.path)?.get(f.line) ?? '' });
  }
}
