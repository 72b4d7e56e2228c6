/**
 * `revtrail baseline` (docs/mining.md "The baseline"): the violations of the bundle's rules in the
 * tree at HEAD, recorded once in `.revtrail/baseline.json` (a file the team commits and reviews
 * like any other), so that they never block while new code is held to the rules; `--check` says
 * per rule how many of them remain at HEAD, how many were fixed, and how many violations the
 * baseline does not hold. The tree is reviewed as `review --all` reviews it (./whole-tree.ts),
 * with the bundle's rules only: a credential is never baselined.
 */
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { catFileBatch, run } from '../core/git/commands.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import type { Finding, ReviewResult } from '../review/types.js';
import type { CappedDiff } from '../diff/cap.js';
import {
  BASELINE_FILE,
  entriesOf,
  readBaseline,
  textCounts,
  type BaselineEntry,
  type BaselineFile,
} from '../review/findings/baseline.js';
import { parseDiff } from '../diff/parse.js';
import { reviewWholeTree, wholeTree } from './whole-tree.js';
import { InputError } from '../core/errors.js';
import { flowMessages as m } from '../messages/flows.js';

export interface BaselineInput {
  cwd: string;
  knowledge?: string;
  onProgress?: (done: number, total: number, path: string) => void;
}

/** The violations of the bundle's rules at HEAD: each finding with its line's text. */
async function violations(
  session: Workspace,
  input: BaselineInput,
): Promise<{ commit: string; entries: BaselineEntry[] }> {
  const bundle = await session.bundle();
  const ruleSources = new Set<string>();
  for (const c of bundle.concepts) for (const r of [...c.rules, ...(c.structural ?? [])]) ruleSources.add(r.ruleSource);
  const tree = await wholeTree(session.top);
  if (!ruleSources.size) return { commit: tree.commit, entries: [] };
  const lines = new Map<string, Map<number, string>>();
  // The flagged lines' text, read from each batch's diff while it is at hand.
  const keep = (result: ReviewResult, diff: CappedDiff) => {
    const wanted = new Set(result.findings.map((f) => f.path));
    if (!wanted.size) return;
    for (const file of parseDiff(diff.text, 'the tree at HEAD')) {
      if (file.newPath === null || !wanted.has(file.newPath)) continue;
      const byLine = new Map<number, string>();
      for (const h of file.hunks) for (const l of h.lines) if (l.newLine !== null) byLine.set(l.newLine, l.text);
      lines.set(file.newPath, byLine);
    }
  };
  const result = await reviewWholeTree(
    session,
    tree,
    {
      ruleFilter: (s) => ruleSources.has(s),
      reviewer: false,
      model: false,
      program: false,
      verdictTip: null,
      calibration: false,
      baseline: false,
      onProgress: input.onProgress,
    },
    keep,
  );
  // What an allow comment already takes out does not block: it needs no entry.
  const findings: Finding[] = result.findings.filter((f) => ruleSources.has(f.rule_source));
  return { commit: tree.commit, entries: entriesOf(findings, (path, line) => lines.get(path)?.get(line) ?? '') };
}

export interface BaselineWritten {
  file: string;
  commit: string;
  entries: number;
  /** Entries per rule. */
  rules: Array<{ rule_source: string; entries: number }>;
}

/** Records the violations at HEAD into .revtrail/baseline.json (replacing what it held). */
export async function writeBaseline(input: BaselineInput): Promise<BaselineWritten> {
  const session = await openWorkspace(input.cwd, { knowledge: input.knowledge, needRepo: true });
  const { commit, entries } = await violations(session, input);
  const file = join(session.top, BASELINE_FILE);
  await mkdir(join(session.top, '.revtrail'), { recursive: true });
  const data: BaselineFile = { version: 1, commit, entries };
  // One entry a line: a fixed violation is one line gone in the file's diff.
  const body = entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n');
  await writeFileAtomic(
    file,
    `{\n  "version": ${data.version},\n  "commit": ${JSON.stringify(commit)},\n  "entries": [${body ? `\n${body}\n  ` : ''}]\n}\n`,
  );
  return { file: BASELINE_FILE, commit, entries: entries.length, rules: perRule(entries) };
}

function perRule(entries: readonly BaselineEntry[]): Array<{ rule_source: string; entries: number }> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.rule_source, (counts.get(e.rule_source) ?? 0) + 1);
  return [...counts].map(([rule_source, n]) => ({ rule_source, entries: n }));
}

export interface BaselineStanding {
  rule_source: string;
  /** Entries recorded. */
  entries: number;
  /** Entries whose line is still in HEAD's file. */
  remaining: number;
  /** Entries whose line is gone from HEAD's file: fixed. */
  fixed: number;
}

/**
 * Per rule, how many entries remain at HEAD (the file still holds that many lines of the text)
 * and how many were fixed; read from HEAD's files in one cat-file, no review (`stats` can afford it).
 */
export async function baselineStanding(top: string, file: BaselineFile): Promise<BaselineStanding[]> {
  const paths = [...new Set(file.entries.map((e) => e.path))];
  const blobs = paths.length ? await run(catFileBatch(paths.map((p) => `HEAD:${p}`)), { cwd: top }) : new Map();
  const counts = new Map<string, Map<string, number>>();
  for (const p of paths) {
    const object = blobs.get(`HEAD:${p}`);
    counts.set(p, object?.type === 'blob' ? textCounts(object.content.toString('utf8')) : new Map());
  }
  const byRule = new Map<string, BaselineStanding>();
  for (const e of file.entries) {
    const row = byRule.get(e.rule_source) ?? { rule_source: e.rule_source, entries: 0, remaining: 0, fixed: 0 };
    byRule.set(e.rule_source, row);
    row.entries++;
    // The n-th entry of a text stands while the file holds more than n lines of it.
    if ((counts.get(e.path)?.get(e.text) ?? 0) > e.occurrence) row.remaining++;
    else row.fixed++;
  }
  return [...byRule.values()];
}

export interface BaselineCheck {
  commit: string | null;
  rules: Array<BaselineStanding & { unrecorded: number }>;
}

/** `baseline --check`: the standing of each rule's entries, and the violations at HEAD the baseline does not hold. */
export async function checkBaseline(input: BaselineInput): Promise<BaselineCheck> {
  const session = await openWorkspace(input.cwd, { knowledge: input.knowledge, needRepo: true });
  const file = await readBaseline(session.top).catch((error: Error) => {
    throw new InputError(m.baselineUnreadable(error.message), { remedy: m.baselineRemedy });
  });
  if (file === null) throw new InputError(m.baselineMissing, { remedy: m.baselineRemedy });
  const [standing, now] = await Promise.all([baselineStanding(session.top, file), violations(session, input)]);
  const recorded = new Set(file.entries.map((e) => JSON.stringify([e.rule_source, e.path, e.text, e.occurrence])));
  const unrecorded = new Map<string, number>();
  for (const e of now.entries)
    if (!recorded.has(JSON.stringify([e.rule_source, e.path, e.text, e.occurrence])))
      unrecorded.set(e.rule_source, (unrecorded.get(e.rule_source) ?? 0) + 1);
  const rules = standing.map((s) => ({ ...s, unrecorded: unrecorded.get(s.rule_source) ?? 0 }));
  for (const [rule_source, n] of unrecorded)
    if (!rules.some((r) => r.rule_source === rule_source))
      rules.push({ rule_source, entries: 0, remaining: 0, fixed: 0, unrecorded: n });
  return { commit: file.commit || null, rules };
}

/**
 * `stats`'s lines about the baseline: per rule, the entries that remain at HEAD and those fixed;
 * none without a baseline file (or with one that cannot be read: `baseline --check` says why).
 */
export async function baselineStatsLines(top: string): Promise<string[]> {
  const file = await readBaseline(top).catch(() => null);
  if (!file?.entries.length) return [];
  const standing = await baselineStanding(top, file);
  return [m.baselineStatsHeader, ...standing.map((s) => m.baselineStatsLine(s.rule_source, s.remaining, s.fixed))];
}
