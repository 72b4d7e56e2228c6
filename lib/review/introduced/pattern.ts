/**
 * A `pattern` rule's violations in one version of a file (docs/review.md "Code, not prose"):
 * the rule's regex on each line as the rule reads it — code only by default, where revtrail
 * parses the file; comments, strings or everything where the rule says so — every match a
 * violation known by its own text (./match.ts). Where the file does not parse (a language
 * revtrail has no parser for, a syntax error), the rule reads the text, as the rule runner does.
 */
import type { ReviewRule } from '../engine/types.js';
import { planRegex } from '../engine/regex-guard.js';
import { MAX_LINE_LENGTH } from '../engine/time.js';
import { maskedLines, type ReadMode, type TextView } from '../structural/view.js';
import { violationKey, type Violation } from './match.js';

/** Matches taken from one line at most (a line of a hundred calls is one problem many times). */
const MATCHES_PER_LINE = 32;

/**
 * What of a parsed file the rule reads. A pattern that spells a quote mark is about code that
 * holds a string (`from 'moment'`, `env['KEY']`): for it strings are code, comments still prose.
 */
export function readMode(rule: Pick<ReviewRule, 'in' | 'pattern'>): ReadMode {
  if (rule.in !== 'code') return rule.in;
  return /['"`]/.test(rule.pattern) ? 'code+strings' : 'code';
}

const globals = new WeakMap<RegExp, RegExp | null>();

/** The rule's regex made global for exec, or null where it may only run in the sandbox (not here). */
function globalOf(rule: ReviewRule): RegExp | null {
  let found = globals.get(rule.regex);
  if (found === undefined) {
    const plan = rule.trusted ? { kind: 'linear' as const, regex: rule.regex } : planRegex(rule.regex);
    found = plan.kind === 'sandbox' ? null : new RegExp(plan.regex.source, `${plan.regex.flags.replace('g', '')}g`);
    globals.set(rule.regex, found);
  }
  return found;
}

/**
 * The violations of `rule` in `text` (`view`: its parse, null where it has none or it does not parse),
 * or null where they cannot be known here: the regex needs the sandbox, or `deadline`
 * (performance.now()) passed.
 */
export function patternViolations(
  rule: ReviewRule,
  text: string,
  view: TextView | null,
  deadline: number,
): Violation[] | null {
  const regex = globalOf(rule);
  if (!regex) return null;
  const raw = text.split('\n');
  const mode = readMode(rule);
  const subjects = view ? maskedLines(text, view, mode) : raw;
  const out: Violation[] = [];
  for (let k = 0; k < subjects.length; k++) {
    const subject = subjects[k];
    const line = raw[k]!;
    if (subject === undefined || line.length > MAX_LINE_LENGTH || subject.trim() === '') continue;
    if ((k & 63) === 0 && performance.now() > deadline) return null;
    regex.lastIndex = 0;
    let taken = 0;
    for (let match = regex.exec(subject); match && taken < MATCHES_PER_LINE; match = regex.exec(subject)) {
      taken++;
      out.push({
        line: k + 1,
        // The original text at the match's place: the masked one has blanks where strings were.
        key: violationKey(line.slice(match.index, match.index + match[0].length)) || match[0],
        declaration: view?.declarations[k] ?? null,
        lineKey: violationKey(line),
      });
      if (match[0] === '') regex.lastIndex++;
    }
  }
  return out;
}
