/**
 * Merge-conflict markers left in a file. The marker length is git's: 7, or the path's
 * `conflict-marker-size` attribute (checked once the attributes are read: standsWith).
 */
import type { LineContext } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { quotedTextLines } from '../engine/text-blocks.js';
import { lineText } from '../engine/file-lines.js';

/**
 * A run of one marker character at the start of a line, then a space or the end. Three or more:
 * a `conflict-marker-size` below 7 gives shorter markers; a run that is not the path's size is
 * dropped once the attributes are known (standsWith).
 */
const MARKER = /^(?:<{3,}|\|{3,}|>{3,})(?= |$)/;

function markerLength(text: string): number {
  return MARKER.exec(text)?.[0].length ?? 0;
}

/** A start marker above, in the same piece, before any end marker: the same conflict (one finding per problem). */
function sameConflict(match: RegExpExecArray, context: LineContext): boolean {
  if (match[0].startsWith('<')) return false;
  for (let k = context.index - 1; k >= 0 && k >= context.index - 2000; k--) {
    const t = context.added[k]!.text;
    if (/^<{3,}(?: |$)/.test(t)) return true;
    if (/^>{3,}(?: |$)/.test(t)) return false;
  }
  return false;
}

/**
 * `>>>>>>> On Monday, Ada wrote:` in a quoted e-mail: the label reads like an attribution, or
 * the lines around are quoted too (`>`), which never happens around a real end marker.
 */
function emailQuote(match: RegExpExecArray, text: string, context: LineContext): boolean {
  if (!match[0].startsWith('>')) return false;
  if (/\bwrote:\s*$/.test(text)) return true;
  const line = context.added[context.index]!.line;
  return [lineText(context.chunk.file, line - 1), lineText(context.chunk.file, line + 1)].some(
    (t) => t !== undefined && /^>/.test(t) && markerLength(t) !== match[0].length,
  );
}

function notAConflict(match: RegExpExecArray, text: string, context: LineContext): boolean {
  if (sameConflict(match, context)) return true;
  if (emailQuote(match, text, context)) return true;
  // Text quoted by the file's own syntax: a fenced or listing block, a heredoc, a triple-quoted
  // or raw string, a JavaScript template literal (a test's fixture, a Jest snapshot).
  if (quotedTextLines(context.path, context.chunk.file).has(context.added[context.index]!.line)) return true;
  // A whole conflict block git wrote, start, middle and end alike, is one even inside a template
  // literal of a source file; a test's or a snapshot's template holds them on purpose.
  if (context.view().inTemplate) return TEST_FILE.test(context.path) || !wholeBlock(match, context);
  return false;
}

const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|spec|specs|__snapshots__|fixtures?|testdata)\/|\.(?:test|spec)\.|\.snap$/;

/** A start marker followed, in the added lines, by `=` and end markers of its own length. */
function wholeBlock(match: RegExpExecArray, context: LineContext): boolean {
  if (!match[0].startsWith('<')) return false;
  const size = match[0].length;
  const middle = '='.repeat(size);
  let seenMiddle = false;
  for (let k = context.index + 1; k < context.added.length && k <= context.index + 2000; k++) {
    const t = context.added[k]!.text;
    if (t === middle) seenMiddle = true;
    else if (seenMiddle && markerLength(t) === size && t.startsWith('>')) return true;
    else if (markerLength(t) === size && t.startsWith('<')) return false;
  }
  return false;
}

export const family: BuiltinFamily = {
  section: 'git',
  specs: () => [
    {
      id: 'conflict-marker',
      // `=======` alone is not flagged: it is also a heading underline, and every conflict has
      // a start or an end marker.
      regex: MARKER,
      severity: 'bug',
      category: 'correctness',
      title: 'Merge conflict marker left in the file',
      message:
        'A merge conflict marker is added: the conflict was not resolved. Keep the intended side and remove the markers.',
      confidence: 0.95,
      // A conflict left in a lock file, a generated or a vendored file breaks the build too.
      everyFile: true,
      reject: notAConflict,
      standsWith: (text, facts) => markerLength(text) === facts.markerSize,
    },
  ],
};
