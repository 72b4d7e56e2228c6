/**
 * `revtrail stats` as one entry (docs/stats.md): the history read, the report built with the
 * calibration the review uses, and the HTML page written when one is asked for. The command
 * only parses its options and prints what this returns.
 */
import type { Config } from '../config/schema.js';
import { loadHistory } from '../gate/history.js';
import { minedSigners } from '../gate/threads.js';
import type { BodyRow } from '../mine/counted.js';
import { InputError } from '../core/errors.js';
import { statsMessages as m } from '../messages/stats.js';
import { computeStats } from './compute.js';
import { withMinVerdicts, type ShownReport } from './present.js';
import { type SignedAnswerRules, auditSignedAnswers } from './signed-audit.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { statsHtml } from './html.js';
import { computeTrends } from './trend.js';
import { attention, mainlineCommits, pageMeta } from './attention.js';
import { BLOCKING_SEVERITIES } from '../core/vocabulary.js';

export interface StatsRequest {
  top: string;
  commonDir: string;
  config: Config;
  /** Every ref (default: HEAD and the mainline). */
  all?: boolean;
  /** Only this rule_source, with each of its findings. */
  rule?: string;
  /** Also write the HTML page to this file (absolute). */
  html?: string;
  /**
   * Which rules calibration never demotes, from the findings read and the config's security
   * rules (the review's rule, docs/gate.md); the caller passes it, the review owns it.
   */
  exempt: (
    findings: Iterable<{ rule_source: string; severity: string }>,
    security: readonly string[],
  ) => (ruleSource: string) => boolean;
  /** The signed-answer rules of the config, from the review (null: no reviewers): the audit's. */
  signedRules?: SignedAnswerRules | null;
}

export interface StatsResult {
  report: ShownReport;
  /** Rows in a message body: not counted, for the caller to name. */
  bodyRows: BodyRow[];
}

export async function buildStats(request: StatsRequest): Promise<StatsResult> {
  const { config } = request;
  const history = await loadHistory({
    cwd: request.top,
    commonDir: request.commonDir,
    mainline: config.mainline,
    all: request.all,
  });
  const exempt = request.exempt(
    history.commits.flatMap((c) => c.findings),
    config.calibration.security,
  );
  // A demotion needs REJECTs from gate.minAuthors people, as in the review (docs/gate.md "Calibration").
  // Where the policy names reviewers, its people are the answers' verified signers (lib/gate/threads.ts minedSigners).
  const signers = await minedSigners(request.top, history.commits, config.gate.reviewers?.file);
  const calibration = {
    ...config.calibration,
    minAuthors: config.gate.minAuthors,
    exempt,
    ...(signers ? { signers } : {}),
  };
  const report = withMinVerdicts(
    computeStats(history.commits, { calibration, rule: request.rule }),
    config.calibration.minVerdicts,
  );
  if (request.rule !== undefined && report.rules.length === 0) {
    const known = computeStats(history.commits, { calibration }).rules.map((r) => r.rule_source);
    throw new InputError(m.unknownRule(request.rule), { remedy: m.unknownRuleRemedy(known) });
  }
  const signed = await auditSignedAnswers(
    request.top,
    config,
    history.commits,
    request.signedRules ?? null,
    request.all ? ['--all'] : ['HEAD'],
  );
  if (signed) report.signed_answers = signed;
  if (request.html !== undefined) {
    const file = request.html;
    // What reached the mainline: the history read is the mainline's own, or its commits are listed.
    const reachable =
      history.reachable ??
      (history.mainline ? await mainlineCommits(request.top, history.mainline.sha) : new Set<string>());
    const blocking = config.softTests ? BLOCKING_SEVERITIES : [...BLOCKING_SEVERITIES, 'test' as const];
    const extras = {
      meta: await pageMeta(request.top, history.mainline?.name ?? null),
      attention: attention(history.commits, { blocking, onMainline: (c) => reachable.has(c) }),
    };
    try {
      await writeFileAtomic(file, statsHtml(report, computeTrends(history.commits), extras));
    } catch (error) {
      throw new InputError(m.htmlUnwritable(file, (error as Error).message), { remedy: m.htmlUnwritableRemedy });
    }
  }
  return { report, bodyRows: history.bodyRows };
}
