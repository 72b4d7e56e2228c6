/**
 * The second Review-Finding grammar, written by other tools (docs/trailers.md):
 * `<reviewer> <SEVERITY> — <text>`, reviewer code-review|code|security|adversarial, SEVERITY
 * CRITICAL|HIGH|MEDIUM|LOW, then space, em dash (U+2014), space.
 *
 * Mapping onto revtrail's record (documented in the README's mining section):
 * - `id`: `rf-` + 10 hex of sha256 of reviewer and text, so the same finding written again
 *   joins the same thread whatever severity it is given;
 * - `file`/`line`: the first `path:N` or `path:N-M` in the text, else null;
 * - `rule_source`: `adr-0029/<reviewer>:<severity in lower case>`;
 * - `severity`: the `security` reviewer gives `security`; otherwise CRITICAL and HIGH give `bug`,
 *   MEDIUM `suggestion`, LOW `nit`; the raw severity stays in `raw_severity`;
 * - `category`: `security` for the security reviewer, else `correctness`;
 * - `issue`: the text; `verdict` OPEN; `rationale` empty.
 */
import { createHash } from 'node:crypto';
import type { AdrSeverity } from '../core/vocabulary.js';
import { mineMessages as m } from '../messages/mine.js';

// `s`: the text is anything after the dash, U+2028 and other line separators included.
const FULL = /^(code-review|code|security|adversarial) (CRITICAL|HIGH|MEDIUM|LOW) \u2014 (.*)$/s;
// Looks like an attempt at this grammar (so it is explained as such when it does not fit).
const PREFIX = /^(code-review|code|security|adversarial)[ \t]+(CRITICAL|HIGH|MEDIUM|LOW)(?=[\s\-\u2013\u2014:]|$)/i;
// Near misses, so the reason names the real problem: a known severity after an unknown reviewer,
// or an unknown severity after a known reviewer, then a dash. A CSV row never fits (its first
// word runs into a comma). Linear: neighbouring classes are disjoint.
const OTHER_REVIEWER = /^([A-Za-z][\w.-]*)[ \t]+(CRITICAL|HIGH|MEDIUM|LOW)[ \t]*(?:[\u2014\u2013]|--?)(?:[ \t]|$)/i;
const OTHER_SEVERITY =
  /^(code-review|code|security|adversarial)[ \t]+([A-Za-z]+)[ \t]*(?:[\u2014\u2013]|--?)(?:[ \t]|$)/i;
const LOCATION = /(?:^|[\s([`'"])((?:[\w.@+-]+\/)*[\w.@+-]*[\w@+-]\.[A-Za-z0-9]+):(\d+)(?:-(\d+))?(?=$|[\s),.;:\]`'"])/;

export interface AdrFinding {
  reviewer: string;
  rawSeverity: AdrSeverity;
  text: string;
  id: string;
  file: string | null;
  line: string | null;
  ruleSource: string;
  severity: string;
  category: string;
}

export type AdrResult = { ok: true; finding: AdrFinding } | { ok: false; reason: string } | null;

/** null: the value does not look like this grammar at all (try the CSV row). */
export function parseAdr0029(value: string): AdrResult {
  const full = FULL.exec(value);
  if (!full) {
    const prefix = PREFIX.exec(value);
    if (!prefix) {
      const reviewer = OTHER_REVIEWER.exec(value);
      if (reviewer) return { ok: false, reason: m.adrReviewer(reviewer[1]!) };
      const severity = OTHER_SEVERITY.exec(value);
      if (severity) return { ok: false, reason: m.adrSeverity(severity[2]!) };
      return null;
    }
    const exactCase = prefix[1] === prefix[1]!.toLowerCase() && prefix[2] === prefix[2]!.toUpperCase();
    return { ok: false, reason: exactCase ? m.adrSeparator : m.adrCase };
  }
  const reviewer = full[1]!;
  const rawSeverity = full[2] as AdrSeverity;
  const text = full[3]!.trim();
  if (!text) return { ok: false, reason: m.adrText };
  const id = 'rf-' + createHash('sha256').update(`adr-0029\0${reviewer}\0${text}`).digest('hex').slice(0, 10);
  const at = LOCATION.exec(text);
  let file: string | null = null;
  let line: string | null = null;
  if (at && Number(at[2]) >= 1) {
    file = at[1]!;
    const end = at[3] !== undefined && Number(at[3]) >= Number(at[2]) ? Number(at[3]) : null;
    line = end !== null && end !== Number(at[2]) ? `${Number(at[2])}-${end}` : String(Number(at[2]));
  }
  const security = reviewer === 'security';
  const severity = security
    ? 'security'
    : rawSeverity === 'MEDIUM'
      ? 'suggestion'
      : rawSeverity === 'LOW'
        ? 'nit'
        : 'bug';
  return {
    ok: true,
    finding: {
      reviewer,
      rawSeverity,
      text,
      id,
      file,
      line,
      ruleSource: `adr-0029/${reviewer}:${rawSeverity.toLowerCase()}`,
      severity,
      category: security ? 'security' : 'correctness',
    },
  };
}
