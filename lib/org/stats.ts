/**
 * `revtrail org stats` (docs/org.md "Statistics"): per rule_source across the folder's
 * repositories, the numbers `revtrail stats` gives one repository (findings, threads per latest
 * verdict, the reject rate with its n) summed over them, and the repositories where the rule is
 * noisy (its own rate above 30% from at least calibration.minVerdicts answered findings). All of
 * it is the shared views (./schema.ts), so Spark or Trino over the same files says the same.
 */
import { flagOf, type Flag } from '../stats/compute.js';
import type { Engine, Row } from '../core/duckdb.js';
import { MIN_VERDICTS } from './schema.js';

export interface RepositoryRuleStats {
  repository: string;
  findings: number;
  human_verdicts: number;
  rejected: number;
  reject_rate: number | null;
  noisy: boolean;
}

export interface OrgRuleStats {
  rule_source: string;
  /** Repositories whose history has findings of the rule. */
  repositories: number;
  findings: number;
  open: number;
  counts: { ACCEPT: number; REJECT: number; DEFER: number; ACKNOWLEDGE: number };
  /** Answered findings over every repository: the n of the pooled rate. */
  human_verdicts: number;
  reject_rate: number | null;
  flag: Flag;
  /** Repositories where the rule is noisy, by name. */
  noisy_in: string[];
  per_repository: RepositoryRuleStats[];
}

export interface OrgStats {
  repositories: string[];
  rules: OrgRuleStats[];
}

type Value = Row[string] | undefined;
const num = (v: Value) => (typeof v === 'number' ? v : v === null || v === undefined ? 0 : Number(v));
const rate = (v: Value) => (v === null || v === undefined ? null : Number(v));

export async function orgStats(engine: Engine, repositories: readonly string[]): Promise<OrgStats> {
  const [org, per] = await Promise.all([
    engine.rows('SELECT * FROM rule_org ORDER BY rule_source'),
    engine.rows('SELECT * FROM rule_repository ORDER BY rule_source, repository'),
  ]);
  const perRule = new Map<string, RepositoryRuleStats[]>();
  for (const r of per.rows) {
    const list = perRule.get(String(r.rule_source)) ?? [];
    list.push({
      repository: String(r.repository),
      findings: num(r.findings),
      human_verdicts: num(r.human_verdicts),
      rejected: num(r.rejected),
      reject_rate: rate(r.reject_rate),
      noisy: r.noisy === true,
    });
    perRule.set(String(r.rule_source), list);
  }
  const rules = org.rows.map((r): OrgRuleStats => {
    const list = perRule.get(String(r.rule_source)) ?? [];
    const n = num(r.human_verdicts);
    return {
      rule_source: String(r.rule_source),
      repositories: num(r.repositories),
      findings: num(r.findings),
      open: num(r.open_findings),
      counts: {
        ACCEPT: num(r.accepted),
        REJECT: num(r.rejected),
        DEFER: num(r.deferred),
        ACKNOWLEDGE: num(r.acknowledged),
      },
      human_verdicts: n,
      reject_rate: rate(r.reject_rate),
      flag: flagOf(rate(r.reject_rate), n, MIN_VERDICTS),
      noisy_in: list.filter((p) => p.noisy).map((p) => p.repository),
      per_repository: list,
    };
  });
  return { repositories: [...repositories], rules };
}
