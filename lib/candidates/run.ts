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
import { evaluateGate } from '../gate/index.js';
import { ruleTallies } from '../gate/threads.js';
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
  | { kind: 'written'; set: CandidateSet; written: Written[]; report: GateReport };

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

  // Never calibrated: what the caller exempts (credential rules) and security rules calibration.security does not name.
  const tallies = () => {
    const security = securityExempt(
      history.commits.flatMap((c) => c.findings),
      config.calibration.security,
    );
    const exempt = (s: string) => (options.exempt?.(s) ?? false) || security(s);
    return ruleTallies(history.commits, { ...config.calibration, exempt });
  };
  if (target === '') {
    const all = tallies();
    const explanations = report.rules
      .map((r) => explain(report, r.rule_source, set, all))
      .filter((e): e is Explanation => e !== null);
    return { kind: 'explained-all', explanations };
  }
  if (target !== undefined) {
    const explanation = explain(report, target, set, tallies());
    if (!explanation) throw new InputError(m.explainUnknown(target), { remedy: m.explainUnknownRemedy });
    return { kind: 'explained', explanation };
  }
  const mainline = history.mainline?.name ?? 'the mainline';
  const [template, version] = await Promise.all([loadTemplate(), revtrailVersion()]);
  const files = set.candidates.map((c) => ({
    name: `${c.id.slice(3)}.md`,
    text: renderCandidate(template, c, describe(c, mainline), version),
  }));
  return { kind: 'written', set, written: await writeCandidateFiles(out, files), report };
}
