/**
 * `revtrail org candidates` (docs/org.md "Candidates"): the promotion gate over threads of
 * several repositories. Each repository's thread signals are decided by its own gate, on its
 * own git facts (its mainline, its CI notes, its diffs: lib/gate/index.ts); the rule signals
 * (`generalizable`, `several_authors`) are then decided once per rule_source over the qualifying
 * threads of every repository together (lib/gate/judge.ts decideRule), so a finding fixed and
 * accepted once in each of three repositories by different people is one candidate naming the
 * three. A file is named `<repository>/<path>`, so the same path in two repositories is two
 * files. Candidates are built by lib/candidates/build.ts: a draft for a human, never adopted here.
 */
import { isRevtrailError } from '../core/errors.js';
import { configCacheFile } from '../core/state.js';
import { loadConfig, parseConfig } from '../config/load.js';
import { loadHistory } from '../gate/history.js';
import { evaluateGate } from '../gate/index.js';
import { decideRule } from '../gate/judge.js';
import { RULE_SIGNALS, type SignalName } from '../gate/signals/index.js';
import type { GateReport, RuleGate, Signal, ThreadGate } from '../gate/types.js';
import type { Bundle } from '../bundle/types.js';
import { buildCandidates, describe, type CandidateSet } from '../candidates/build.js';
import { loadTemplate, renderCandidate, revtrailVersion } from '../candidates/render.js';
import { checkOutDir, writeCandidateFiles, type Written } from '../candidates/write.js';
import type { KnowledgeCandidate } from '../candidates/model.js';
import { defaultJobs, type RepoOutcome } from './mine.js';
import { knownRefs, locate, type RepoEntry } from './repos.js';

export interface OrgCandidatesOptions {
  entries: readonly RepoEntry[];
  jobs?: number;
  minRecurrence: number;
  minAuthors: number;
  /** The shared bundle: a rule it holds is knowledge already. */
  bundle: Bundle | null;
  onRepo?: (outcome: RepoOutcome, done: number, total: number) => void;
}

/** A rule as the organisation's gate judged it. */
export interface OrgRuleGate {
  rule_source: string;
  passed: boolean;
  /** Qualifying threads per repository (those meeting every thread signal in their own repository). */
  qualifying: Record<string, number>;
  /** Threads per repository. */
  threads: Record<string, number>;
  files: string[];
  signals: Signal[];
}

export interface OrgCandidate {
  candidate: KnowledgeCandidate;
  /** Every repository whose qualifying threads are its evidence, sorted. */
  repositories: string[];
}

export interface OrgCandidatesResult {
  candidates: OrgCandidate[];
  set: CandidateSet;
  rules: OrgRuleGate[];
  outcomes: RepoOutcome[];
}

interface RepoGate {
  name: string;
  report: GateReport;
}

export async function orgCandidates(options: OrgCandidatesOptions): Promise<OrgCandidatesResult> {
  const gates: Array<RepoGate | null> = new Array(options.entries.length).fill(null);
  const outcomes: RepoOutcome[] = new Array(options.entries.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < options.entries.length) {
      const i = next++;
      const entry = options.entries[i]!;
      try {
        const { report, commits, records } = await gateOf(entry, options);
        gates[i] = { name: entry.name, report };
        outcomes[i] = { name: entry.name, path: entry.path, state: 'mined', commits, records };
      } catch (error) {
        const problem = isRevtrailError(error)
          ? error.message
          : String((error as Error)?.message ?? error).split('\n')[0]!;
        outcomes[i] = { name: entry.name, path: entry.path, state: 'skipped', problem };
      }
      done += 1;
      options.onRepo?.(outcomes[i]!, done, options.entries.length);
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? defaultJobs(), options.entries.length));
  await Promise.all(Array.from({ length: jobs }, worker));
  const pooled = pool(
    gates.filter((g): g is RepoGate => g !== null),
    options,
  );
  const set = buildCandidates(pooled.report, options.bundle);
  const candidates = set.candidates.map((candidate) => ({
    candidate,
    repositories: [...new Set(candidate.gate.files.map((f) => f.slice(0, f.indexOf('/'))))].sort(),
  }));
  return { candidates, set, rules: pooled.rules, outcomes };
}

/** One repository's gate, with its own config's mainline (a bare clone: the defaults). */
async function gateOf(
  entry: RepoEntry,
  options: OrgCandidatesOptions,
): Promise<{ report: GateReport; commits: number; records: number }> {
  const source = await locate(entry);
  const { config } = await loadConfig(source.top, { cacheFile: configCacheFile(source.commonDir) }).catch(async () => ({
    config: await parseConfig({}, null),
  }));
  const history = await loadHistory({
    cwd: source.top,
    commonDir: source.commonDir,
    mainline: config.mainline,
    known: knownRefs(source.refs),
  });
  const report = await evaluateGate({
    cwd: source.top,
    commonDir: source.commonDir,
    commits: history.commits,
    minRecurrence: options.minRecurrence,
    minAuthors: options.minAuthors,
    resolved: { mainline: history.mainline, problem: history.mainlineProblem },
    reachable: history.reachable,
  });
  const records = history.commits.reduce((n, c) => n + c.findings.length, 0);
  return { report, commits: history.commits.length, records };
}

const RULE_NAMES = new Set<SignalName>(RULE_SIGNALS.map((s) => s.name));

/** A repository's thread gate with its file named `<repository>/<path>`, and the pooled rule signals in its record. */
function placed(repo: string, g: ThreadGate, ruleMet: ReadonlyMap<SignalName, boolean>): ThreadGate {
  const at = (file: string | null) => (file === null ? null : `${repo}/${file}`);
  const met = Object.freeze(
    Object.fromEntries(
      Object.entries(g.met).map(([n, v]) => [n, RULE_NAMES.has(n as SignalName) ? ruleMet.get(n as SignalName)! : v]),
    ),
  ) as ThreadGate['met'];
  return {
    ...g,
    thread: { ...g.thread, file: at(g.thread.file) },
    evidence: g.evidence && { ...g.evidence, file: at(g.evidence.file) },
    accept: g.accept && { ...g.accept, file: at(g.accept.file) },
    met,
  };
}

/** Every rule_source of every repository, its rule signals decided over the pooled qualifying threads. */
function pool(repos: readonly RepoGate[], options: OrgCandidatesOptions): { report: GateReport; rules: OrgRuleGate[] } {
  const byRule = new Map<string, Array<{ repo: string; rule: RuleGate }>>();
  for (const { name, report } of repos)
    for (const rule of report.rules) {
      const list = byRule.get(rule.rule_source) ?? [];
      list.push({ repo: name, rule });
      byRule.set(rule.rule_source, list);
    }
  const limits = { minRecurrence: options.minRecurrence, minAuthors: options.minAuthors };
  const rules: RuleGate[] = [];
  const summary: OrgRuleGate[] = [];
  for (const [source, list] of [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const qualifying = list.flatMap(({ repo, rule }) => rule.qualifying.map((g) => ({ repo, g })));
    const files = [...new Set(qualifying.map(({ repo, g }) => `${repo}/${g.thread.file}`))].sort();
    const decided = decideRule(
      source,
      qualifying.map(({ g }) => ({ thread: g.thread, accept: g.accept, hit: g.evidence })),
      files,
      limits,
    );
    const ruleMet = new Map(decided.signals.map((s) => [s.name, s.met]));
    const q = qualifying.map(({ repo, g }) => placed(repo, g, ruleMet));
    rules.push({
      rule_source: source,
      threads: list.flatMap(({ repo, rule }) => rule.threads.map((g) => placed(repo, g, ruleMet))),
      qualifying: q,
      files,
      minRecurrence: options.minRecurrence,
      passed: decided.passed,
      signals: decided.signals,
    });
    summary.push({
      rule_source: source,
      passed: decided.passed,
      qualifying: Object.fromEntries(list.map(({ repo, rule }) => [repo, rule.qualifying.length])),
      threads: Object.fromEntries(list.map(({ repo, rule }) => [repo, rule.threads.length])),
      files,
      signals: decided.signals,
    });
  }
  return {
    report: { mainline: null, mainlineProblem: null, threads: rules.flatMap((r) => r.threads), rules },
    rules: summary,
  };
}

/** The candidates as OKF concept files in `out` (lib/candidates/render.ts), never into the bundle. */
export async function writeOrgCandidates(
  out: string,
  bundleRoot: string | null,
  candidates: readonly OrgCandidate[],
): Promise<Written[]> {
  if (bundleRoot) await checkOutDir(out, bundleRoot);
  const [template, version] = await Promise.all([loadTemplate(), revtrailVersion()]);
  const files = candidates.map(({ candidate }) => ({
    name: `${candidate.id.slice(3)}.md`,
    text: renderCandidate(template, candidate, describe(candidate, 'their mainlines'), version),
  }));
  return writeCandidateFiles(out, files);
}
