/**
 * The adoption baseline (docs/mining.md "The baseline"): the violations of the bundle's rules
 * that were in the code when the team adopted them, recorded once by `revtrail baseline` in a
 * committed file, `.revtrail/baseline.json`, so that they never block while new code is held to
 * the rule. An entry is a rule, a path, the normalised text of the flagged line and its
 * occurrence among that file's lines of the same text: no line number, so lines added above it
 * leave it standing, and a reindented or touched line that still says the same thing is still it.
 *
 * A finding whose (rule, path, text) has entries is suppressed as long as the file's new version
 * holds no more lines of that text than the baseline has entries: one more such line is a new
 * violation, and the last of those the change added stays a finding. Built-in rules (credentials
 * first of all) never have entries: `baseline` records the bundle's rules only, and an entry a
 * hand put in the file for one is not read.
 */
import type { Finding, ReviewResult } from '../types.js';
import { readRegularFile } from '../../core/fs/read.js';
import { join } from 'node:path';
import { computeEvent } from './event.js';
import { SEVERITY_RANK } from '../../core/vocabulary.js';
import { reviewMessages as m } from '../../messages/review.js';

/** The most of a baseline file that is read (about 200,000 entries). */
export const MAX_BASELINE_BYTES = 32 * 1024 * 1024;

export const BASELINE_FILE = '.revtrail/baseline.json';

export interface BaselineEntry {
  rule_source: string;
  path: string;
  /** The flagged line, trimmed, each run of white space one space. */
  text: string;
  /** Which of the file's flagged lines of this rule and text it is, from 0, in line order. */
  occurrence: number;
}

export interface BaselineFile {
  version: 1;
  /** The commit whose tree was recorded. */
  commit: string;
  entries: BaselineEntry[];
}

/** A line as the baseline keeps it: trimmed, white space runs collapsed. */
export function normalizeLine(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

const keyOf = (ruleSource: string, path: string, text: string) => `${ruleSource}\0${path}\0${text}`;

/** Entries in their one order (rule, path, text, occurrence): the file is the same for the same violations. */
export function sortEntries(entries: BaselineEntry[]): BaselineEntry[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort(
    (a, b) =>
      cmp(a.rule_source, b.rule_source) || cmp(a.path, b.path) || cmp(a.text, b.text) || a.occurrence - b.occurrence,
  );
}

/** The entries for findings in line order (occurrence counted per rule, path and text). */
export function entriesOf(
  findings: readonly Finding[],
  lineText: (path: string, line: number) => string,
): BaselineEntry[] {
  const seen = new Map<string, number>();
  const out: BaselineEntry[] = [];
  const ordered = [...findings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  for (const f of ordered) {
    const text = normalizeLine(lineText(f.path, f.line));
    const key = keyOf(f.rule_source, f.path, text);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    out.push({ rule_source: f.rule_source, path: f.path, text, occurrence });
  }
  return sortEntries(out);
}

/** The baseline file's entries, or null when there is none; a file that cannot be used is an error for the caller to say. */
export async function readBaseline(top: string): Promise<BaselineFile | null> {
  let text: string;
  try {
    // Through the one safe reader: a FIFO or a device in its place is not opened for good (a hook
    // would hang), and a file over the cap is refused (docs/mining.md "The baseline").
    text = readRegularFile(join(top, BASELINE_FILE), { maxBytes: MAX_BASELINE_BYTES }).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<BaselineFile>;
  if (parsed?.version !== 1 || !Array.isArray(parsed.entries)) throw new Error('not a revtrail baseline (version 1)');
  const entries = parsed.entries.filter(
    (e): e is BaselineEntry =>
      typeof e?.rule_source === 'string' &&
      // The bundle's rules only, whatever the file says: a hand-written entry never takes out a
      // credential, nor any other built-in rule's finding.
      !e.rule_source.startsWith('builtin/') &&
      typeof e.path === 'string' &&
      typeof e.text === 'string' &&
      Number.isInteger(e.occurrence),
  );
  return { version: 1, commit: String(parsed.commit ?? ''), entries };
}

/** How many lines of each normalised text a file holds. */
export function textCounts(fileText: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of fileText.split('\n')) {
    const text = normalizeLine(line);
    if (text) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return counts;
}

export interface BaselineSplit {
  kept: Finding[];
  baselined: Finding[];
}

/**
 * Splits findings into those the baseline covers and the rest. `lineText`: a finding's line as
 * the change added it; `newFile`: the file's new version (null: not readable, then each of the
 * change's lines of that text counts, as if the file held only those).
 */
export async function applyBaseline(
  findings: readonly Finding[],
  entries: readonly BaselineEntry[],
  lineText: (path: string, line: number) => string,
  newFile: (path: string) => Promise<string | null>,
): Promise<BaselineSplit> {
  const recorded = new Map<string, number>();
  for (const e of entries) {
    const key = keyOf(e.rule_source, e.path, e.text);
    recorded.set(key, (recorded.get(key) ?? 0) + 1);
  }
  const groups = new Map<string, Finding[]>();
  const kept: Finding[] = [];
  for (const f of findings) {
    const key = keyOf(f.rule_source, f.path, normalizeLine(lineText(f.path, f.line)));
    if (!recorded.has(key)) {
      kept.push(f);
      continue;
    }
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  const baselined: Finding[] = [];
  const counts = new Map<string, Map<string, number> | null>();
  for (const [key, group] of groups) {
    const [, path, text] = key.split('\0') as [string, string, string];
    if (!counts.has(path)) {
      const file = await newFile(path);
      counts.set(path, file === null ? null : textCounts(file));
    }
    const inFile = counts.get(path)?.get(text) ?? group.length;
    // More lines of this text than the baseline recorded: that many are new, the last ones added.
    const fresh = Math.max(0, inFile - recorded.get(key)!);
    const sorted = group.sort((a, b) => a.line - b.line);
    const cut = Math.max(0, sorted.length - fresh);
    baselined.push(...sorted.slice(0, cut));
    kept.push(...sorted.slice(cut));
  }
  return { kept, baselined };
}

/**
 * The review's result with the baseline's findings taken out of the count (they stay in the
 * output, under `baselined`), the event and the summary's first line made again from what is
 * left. Called from the review's entry (../index.ts runReview) after the pipeline.
 */
export async function withBaseline(
  result: ReviewResult,
  entries: readonly BaselineEntry[],
  lineText: (path: string, line: number) => string,
  newFile: (path: string) => Promise<string | null>,
  softTests: boolean,
): Promise<ReviewResult> {
  const { kept, baselined } = await applyBaseline(result.findings, entries, lineText, newFile);
  if (!baselined.length) return result;
  const findings = result.findings.filter((f) => kept.includes(f));
  const bySeverity = SEVERITY_RANK.map(
    (s) => [s, findings.filter((f) => f.severity === s).length] as [string, number],
  ).filter(([, n]) => n > 0);
  const dropped = Object.values(result.dropped).reduce((a, b) => a + b, 0);
  const first = m.summary(
    findings.length,
    new Set(findings.map((f) => f.path)).size,
    bySeverity,
    result.suppressed.length,
    dropped,
    findings.filter((f) => f.calibration).length,
  );
  const rest = result.summary.split('\n').slice(1);
  return {
    ...result,
    findings,
    baselined,
    event: computeEvent(findings, softTests),
    summary: [`${first.slice(0, -1)}; ${m.baselinedSummary(baselined.length)}.`, ...rest].join('\n'),
  };
}
