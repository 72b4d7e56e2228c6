/**
 * One `revtrail candidates` run (docs/gate.md): mine the history, judge every thread through
 * the gate, build candidates (rules already in the bundle are knowledge already), then either
 * explain one finding or rule_source, or write the drafts. The CLI only prints the result.
 */
import { resolve } from 'node:path';
import type { Repo } from '../core/git/repo.js';
import type { Config } from '../config/schema.js';
import { InputError } from '../core/errors.js';
import { loadHistory } from '../gate/history.js';
import { evaluateGate, reachableCommits } from '../gate/index.js';
import { readCiNotes } from '../ci/notes.js';
import { answerCommits, refinementTrials, type RefinementTrial } from './refine.js';
import { draftRefinements } from './refine-draft.js';
import { minedSigners, ruleTallies } from '../gate/threads.js';
import { securityExempt } from '../record/rule-tally.js';
import type { GateReport } from '../gate/types.js';
import { loadBundle } from '../bundle/load.js';
import { buildCandidates, describe, type CandidateSet } from './build.js';
import { explain, type Explanation } from './explain.js';
import { loadTemplate, renderCandidate, revtrailVersion } from './render.js';
import { checkOutDir, writeCandidateFiles, type Written } from './write.js';
import { candidatesMessages as m } from '../messages/candidates.js';

export interface CandidatesRunOptions {
  repo: Repo;
  config: Config;
  /** Absolute output folder (default `.revtrail/candidates/` at the top level). */
  out?: string;
  /** A finding ID or rule_source to explain instead of writing files. */
  explain?: string;
  all: boolean;
  /** Rules calibration never demotes (the built-in credential rules; the CLI passes the registry's). */
  exempt?: (ruleSource: string) => boolean;
}

export type CandidatesRunResult =
  | { kind: 'explained'; explanation: Explanation }
  | { kind: 'explained-all'; explanations: Explanation[] }
  | {
      kind: 'written';
      set: CandidateSet;
      written: Written[];
      report: GateReport;
      /** Refinements of bundle rules (./refine.ts): every trial, the drafts written, and what could not be drafted. */
      refinements: {
        trials: RefinementTrial[];
        drafts: Array<{ trial: RefinementTrial; page: Written; patch: Written }>;
        notes: string[];
      };
    };

export async function runCandidates(options: CandidatesRunOptions): Promise<CandidatesRunResult> {
  const { repo, config } = options;
  const bundleRoot = resolve(repo.top, config.knowledge);
  const out = options.out ?? resolve(repo.top, '.revtrail', 'candidates');
  const target = options.explain;
  if (target === undefined) await checkOutDir(out, bundleRoot);

  const history = await loadHistory({
    cwd: repo.top,
    commonDir: repo.commonDir,
    mainline: config.mainline,
    all: options.all,
  });
  const report = await evaluateGate({
    cwd: repo.top,
    commonDir: repo.commonDir,
    commits: history.commits,
    minRecurrence: config.gate.minRecurrence,
    minAuthors: config.gate.minAuthors,
    resolved: { mainline: history.mainline, problem: history.mainlineProblem },
    reachable: history.reachable,
    // An empty target (`--explain` alone) explains every rule_source of the history.
    explain:
      target === undefined
        ? undefined
        : target === ''
          ? () => true
          : (t) => t.id === target || t.rule_source === target,
  });
  const bundle = await loadBundle(bundleRoot, { base: repo.top });
  const set = buildCandidates(report, bundle);
  // Refinements of the bundle's own rules, judged with the gate's thresholds (./refine.ts).
  const [reachable, ci] = await Promise.all([
    history.reachable ??
      (history.mainline
        ? reachableCommits({ cwd: repo.top, commonDir: repo.commonDir }, history.mainline.name)
        : new Set<string>()),
    readCiNotes(repo.top, answerCommits(report, bundle)),
  ]);
  const trials = refinementTrials(report, bundle, {
    reachable,
    ci,
    minRecurrence: config.gate.minRecurrence,
    minAuthors: config.gate.minAuthors,
  });
  const trialsOf = (rule: string) => trials.filter((t) => t.rule_source === rule).map(({ evidence: _, ...t }) => t);

  // Never calibrated: what the caller exempts (credential rules) and security rules calibration.security does not name.
  // Where the policy names reviewers, its people are the answers' verified signers (lib/gate/threads.ts minedSigners).
  const signers = await minedSigners(repo.top, history.commits, config.gate.reviewers?.file);
  const tallies = () => {
    const security = securityExempt(
      history.commits.flatMap((c) => c.findings),
      config.calibration.security,
    );
    const exempt = (s: string) => (options.exempt?.(s) ?? false) || security(s);
    return ruleTallies(history.commits, {
      ...config.calibration,
      minAuthors: config.gate.minAuthors,
      exempt,
      ...(signers ? { signers } : {}),
    });
  };
  if (target === '') {
    const all = tallies();
    const explanations = report.rules
      .map((r) => explain(report, r.rule_source, set, all, trialsOf(r.rule_source)))
      .filter((e): e is Explanation => e !== null);
    return { kind: 'explained-all', explanations };
  }
  if (target !== undefined) {
    const ruleOfTarget = report.threads.find((t) => t.thread.id === target)?.thread.rule_source ?? target;
    const explanation = explain(report, target, set, tallies(), trialsOf(ruleOfTarget));
    if (!explanation) throw new InputError(m.explainUnknown(target), { remedy: m.explainUnknownRemedy });
    return { kind: 'explained', explanation };
  }
  const mainline = history.mainline?.name ?? 'the mainline';
  const [template, version] = await Promise.all([loadTemplate(), revtrailVersion()]);
  const files = set.candidates.map((c) => ({
    name: `${c.id.slice(3)}.md`,
    text: renderCandidate(template, c, describe(c, mainline), version),
  }));
  const written = await writeCandidateFiles(out, files);
  const drafted = await draftRefinements(repo.top, bundle, trials, out);
  const refinedFiles = await writeCandidateFiles(
    out,
    drafted.files.flatMap((f) => [f.page, f.patch]),
  );
  return {
    kind: 'written',
    set,
    written,
    report,
    refinements: {
      trials: trials.map(({ evidence: _, ...t }) => t),
      drafts: drafted.files.map((f, i) => ({
        trial: f.trial,
        page: refinedFiles[2 * i]!,
        patch: refinedFiles[2 * i + 1]!,
      })),
      notes: drafted.notes,
    },
  };
}
