/**
 * `--format text`: findings grouped by file, one line each `path:line severity title
 * (rule_source) id` with the rule's message indented under it (the ID is what `revtrail
 * verdict` takes), then the summary and the event. Colour only when the caller says so (TTY
 * and no NO_COLOR, decided once in lib/core/output.ts).
 */
import type { Paint } from '../core/output.js';
import { escapeControl as esc, paint as makePaint } from '../core/output.js';
import type { AllowedFinding, Finding, ReviewResult } from '../review/types.js';
import { BLOCKING_SEVERITIES } from '../core/vocabulary.js';
import { reviewMessages as m } from '../messages/review.js';

/** `path:line` exactly as docs/review.md writes it (`line` is the last line of a span). */
function location(f: Finding): string {
  return `${esc(f.path)}:${f.line}`;
}

function findingLine(f: Finding, p: Paint): string {
  const severity = f.calibration
    ? f.severity
    : BLOCKING_SEVERITIES.includes(f.severity)
      ? p.red(f.severity)
      : f.severity === 'test'
        ? p.yellow(f.severity)
        : f.severity;
  const head = `${location(f)} ${severity} ${esc(f.title)} ${p.dim(`(${esc(f.rule_source)})`)} ${f.id}`;
  // A demoted rule's finding says why it does not block, and where to see the answers.
  const why = f.calibration
    ? [
        `    ${p.dim(m.notBlocking(f.calibration.rejected, f.calibration.verdicts, esc(f.rule_source), f.calibration.repositories))}`,
      ]
    : [];
  return [head, ...message(f, '    ').map((l) => p.dim(l)), ...why].join('\n');
}

/** The rule's message under its finding, indented; nothing when it only repeats the title. */
function message(f: Finding, indent: string): string[] {
  const body = f.body.trim();
  if (!body || body === f.title) return [];
  // Blank lines (between folded bodies) would read as the gap between files.
  return body
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => `${indent}${esc(l.trimEnd())}`);
}

/** Findings by file (files in path order, findings in line order), a blank line between files. */
function grouped<F extends Finding>(findings: readonly F[], line: (f: F) => string): string[] {
  const out: string[] = [];
  let last: string | null = null;
  for (const f of [...findings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))) {
    if (last !== null && f.path !== last) out.push('');
    out.push(line(f));
    last = f.path;
  }
  return out;
}

function allowNote(a: AllowedFinding['allowed']): string {
  const said = a.reason ? `: ${esc(a.reason)}` : '';
  // A linter's own disable comment: which equivalent it stands for.
  const marker = a.marker === 'linter' && a.rule ? `linter ${esc(a.rule)}` : a.marker;
  return `${marker}${said}, line ${a.line}`;
}

export function formatText(result: ReviewResult, options: { color?: boolean } = {}): string {
  const p = makePaint(options.color ?? false);
  const lines: string[] = grouped(result.findings, (f) => findingLine(f, p));
  if (result.suppressed.length) {
    if (lines.length) lines.push('');
    lines.push(m.suppressedHeading(result.suppressed.length));
    lines.push(
      ...grouped(
        result.suppressed,
        (f) =>
          `  ${p.dim(`${location(f)} ${f.severity} ${esc(f.title)} (${esc(f.rule_source)}) ${f.id} [${f.verdict}]`)}`,
      ),
    );
  }
  if (result.allowed?.length) {
    if (lines.length) lines.push('');
    lines.push(m.allowedHeading(result.allowed.length));
    lines.push(
      ...grouped(
        result.allowed,
        (f) =>
          `  ${p.dim(`${location(f)} ${f.severity} ${esc(f.title)} (${esc(f.rule_source)}) ${f.id} [${allowNote(f.allowed)}]`)}`,
      ),
    );
  }
  const d = result.dropped;
  if (lines.length) lines.push('');
  lines.push(...result.summary.split('\n').map((l) => esc(l)));
  if (Object.values(d).some((n) => n > 0)) lines.push(p.dim(m.droppedLine(d)));
  const colour = result.event === 'REQUEST_CHANGES' ? p.red : result.event === 'COMMENT' ? p.yellow : p.green;
  lines.push(p.bold(colour(m.eventLine(result.event))));
  return `${lines.join('\n')}\n`;
}

/** Warnings for stderr (text and SARIF output keep stdout for the report). */
export function formatWarnings(result: ReviewResult, options: { color?: boolean } = {}): string {
  const p = makePaint(options.color ?? false);
  return result.warnings.map((w) => `${p.yellow(m.warningLine(esc(w)))}\n`).join('');
}
