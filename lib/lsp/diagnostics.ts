/**
 * A finding as an editor diagnostic (docs/editor.md "Diagnostics"): the severity from the
 * finding contract's, the rule source as `source`, the finding's lines as the range, the
 * finding's id as `code` and the cited document as its link. What the code actions need rides
 * in `data`, so an action never has to find the finding again.
 */
import type { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { BLOCKING_SEVERITIES, type Severity } from '../core/vocabulary.js';
import type { Finding } from '../review/types.js';
import { lspMessages as m } from '../messages/lsp.js';

/** LSP's severities (the protocol's numbers, so this module loads no protocol code). */
export const SEVERITY = { error: 1, warning: 2, information: 3, hint: 4 } as const satisfies Record<
  string,
  DiagnosticSeverity
>;

/**
 * What blocks a commit is an error, what only comments is a warning or less: the blocking
 * severities, and `test` unless soft, are errors; a finding calibration demoted counts as a
 * comment, so it is a warning; nits are hints, suggestions and questions information.
 */
export function severityOf(finding: Pick<Finding, 'severity' | 'calibration'>, softTests = false): DiagnosticSeverity {
  const blocking = (BLOCKING_SEVERITIES as readonly Severity[]).includes(finding.severity);
  if (blocking || (finding.severity === 'test' && !softTests))
    return finding.calibration ? SEVERITY.warning : SEVERITY.error;
  if (finding.severity === 'test') return SEVERITY.warning;
  if (finding.severity === 'nit') return SEVERITY.hint;
  return SEVERITY.information;
}

/** What a diagnostic carries for hover, definition and the code actions. */
export interface DiagnosticData {
  id: string;
  ruleSource: string;
  /** The repository-relative path the finding names. */
  path: string;
  /** 1-based first line of the finding. */
  startLine: number;
  /** Whether the rule is a credential rule (allow comments and answers follow the gate's policy). */
  credential: boolean;
  /** The cited document's file URI and 0-based rule line, when it cites one. */
  document?: { id: string; uri: string; line: number };
}

/**
 * The diagnostic of `finding` in a buffer whose lines are `lines`: from the start of its first
 * line to the end of its last (a line past the buffer's end is clamped to it).
 */
export function toDiagnostic(
  finding: Finding,
  lines: readonly string[],
  extra: { credential: boolean; softTests?: boolean; document?: DiagnosticData['document'] },
): Diagnostic {
  const last = Math.max(0, lines.length - 1);
  const start = Math.min(Math.max(finding.start_line, 1) - 1, last);
  const end = Math.min(Math.max(finding.line, finding.start_line, 1) - 1, last);
  const data: DiagnosticData = {
    id: finding.id,
    ruleSource: finding.rule_source,
    path: finding.path,
    startLine: finding.start_line,
    credential: extra.credential,
    ...(extra.document ? { document: extra.document } : {}),
  };
  return {
    range: { start: { line: start, character: 0 }, end: { line: end, character: lines[end]?.length ?? 0 } },
    severity: severityOf(finding, extra.softTests),
    source: finding.rule_source,
    code: finding.id,
    ...(extra.document ? { codeDescription: { href: extra.document.uri } } : {}),
    message: m.diagnostic(finding.title, finding.body),
    data,
  };
}

/** Whether `position` is inside `range` (both ends included: a cursor after the last character is on it). */
export function rangeHolds(range: Diagnostic['range'], position: { line: number; character: number }): boolean {
  const after = (a: typeof position, b: typeof position) =>
    a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}
