/**
 * `--format sarif`: SARIF 2.1.0 (OASIS), as code-scanning tools read it. One run; one
 * reportingDescriptor per rule_source; counted findings as results, suppressed findings as
 * results with an external suppression (their verdict); warnings as tool notifications.
 */
import type { Finding, ReviewResult, SuppressedFinding } from '../review/types.js';
import type { Severity } from '../core/vocabulary.js';
import { toolVersion } from './version.js';
import { jsonForTerminal } from '../core/output.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
declare const REVTRAIL_HOMEPAGE: string | undefined;
/** package.json's `homepage`, set at bundle time; none yet (revtrail is not published), so no link. */
export const INFORMATION_URI: string | undefined =
  typeof REVTRAIL_HOMEPAGE === 'string' && REVTRAIL_HOMEPAGE ? REVTRAIL_HOMEPAGE : undefined;

type Level = 'error' | 'warning' | 'note';

export function sarifLevel(severity: Severity): Level {
  if (severity === 'bug' || severity === 'security' || severity === 'api-surface') return 'error';
  return severity === 'test' ? 'warning' : 'note';
}

/** A relative URI reference for a repo-relative POSIX path (spaces and the like percent-encoded). */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function ruleName(ruleSource: string): string {
  const id = ruleSource.slice(ruleSource.lastIndexOf(':') + 1);
  return id.replace(/(^|[-_.\s]+)(\w)/g, (_, __, c: string) => c.toUpperCase()) || 'Finding';
}

function messageText(f: Finding): string {
  const parts = [f.title];
  if (f.body && f.body !== f.title) parts.push(f.body);
  if (f.citations.length) parts.push(`Cites: ${f.citations.join(', ')}`);
  return parts.join('\n\n');
}

export function formatSarif(result: ReviewResult, options: { version?: string } = {}): string {
  const all: Array<Finding | SuppressedFinding> = [...result.findings, ...result.suppressed];
  const ruleIndex = new Map<string, number>();
  const rules: Array<Record<string, unknown>> = [];
  for (const f of all) {
    if (ruleIndex.has(f.rule_source)) continue;
    ruleIndex.set(f.rule_source, rules.length);
    rules.push({
      id: f.rule_source,
      name: ruleName(f.rule_source),
      shortDescription: { text: f.title },
      defaultConfiguration: { level: sarifLevel(f.severity) },
      properties: { severity: f.severity, category: f.category, tags: [f.category] },
    });
  }
  const results = all.map((f) => {
    const out: Record<string, unknown> = {
      ruleId: f.rule_source,
      ruleIndex: ruleIndex.get(f.rule_source)!,
      // A calibrated finding keeps its severity's level: code scanning shows what it is, and
      // `properties.calibration` says why revtrail did not block on it (docs/gate.md "Calibration").
      level: sarifLevel(f.severity),
      message: { text: messageText(f) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: pathToUri(f.path) },
            region: { startLine: f.start_line, endLine: f.line },
          },
        },
      ],
      partialFingerprints: { revtrailFindingId: f.id },
      properties: {
        severity: f.severity,
        category: f.category,
        confidence: f.confidence,
        citations: f.citations,
        ...(f.suggestion_code !== null ? { suggestion_code: f.suggestion_code } : {}),
        ...(f.calibration ? { calibration: f.calibration } : {}),
        ...(f.answer ? { answer: f.answer } : {}),
      },
    };
    if ('verdict' in f) {
      out.suppressions = [
        { kind: 'external', status: 'accepted', justification: `${f.verdict}: ${f.rationale}`.trim() },
      ];
    }
    return out;
  });
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'revtrail',
            version: options.version ?? toolVersion(),
            ...(INFORMATION_URI ? { informationUri: INFORMATION_URI } : {}),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: result.warnings.map((w) => ({ level: 'warning', message: { text: w } })),
          },
        ],
        results,
        properties: {
          event: result.event,
          summary: result.summary,
          merged_findings: result.merged_findings,
          dropped: result.dropped,
          knowledge_docs: result.knowledge_docs,
        },
      },
    ],
  };
  return `${jsonForTerminal(JSON.stringify(sarif, null, 2))}\n`;
}
