/**
 * `--format codequality`: GitLab's Code Quality report (a JSON array of issues, the subset of
 * the Code Climate spec GitLab reads: description, check_name, fingerprint, severity,
 * location.path, location.lines.begin), for `artifacts: reports: codequality:` in a job
 * (docs/review.md "Output").
 */
import { createHash } from 'node:crypto';
import type { Finding, ReviewResult } from '../review/types.js';
import type { Severity } from '../core/vocabulary.js';
import { jsonForTerminal } from '../core/output.js';

export type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

const SEVERITY: Record<Severity, CodeQualitySeverity> = {
  security: 'critical',
  bug: 'major',
  'api-surface': 'major',
  test: 'major',
  suggestion: 'minor',
  nit: 'info',
  question: 'info',
};

/** A calibrated finding (it no longer blocks) is one step down. */
function severityOf(f: Finding): CodeQualitySeverity {
  const s = SEVERITY[f.severity];
  return f.calibration && s !== 'info' ? (s === 'critical' ? 'major' : 'minor') : s;
}

export function formatCodeQuality(result: ReviewResult): string {
  const issues = result.findings.map((f) => ({
    description: `${f.title} (${f.id})`,
    check_name: f.rule_source,
    // The finding id survives line shifts; GitLab compares fingerprints between pipelines.
    fingerprint: createHash('sha256').update(`revtrail\0${f.id}`).digest('hex').slice(0, 32),
    severity: severityOf(f),
    location: { path: f.path, lines: { begin: Math.min(f.start_line, f.line) } },
  }));
  return `${jsonForTerminal(JSON.stringify(issues, null, 2))}\n`;
}
