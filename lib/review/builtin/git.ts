/** Merge-conflict markers left in a file. */
import type { LineContext } from '../rules.js';
import type { BuiltinFamily } from './define.js';

/**
 * `<<<<<<<`, `|||||||` (diff3 base) and `>>>>>>>` at the start of a line, followed by a space
 * or nothing. `=======` alone is not flagged: it is also a Markdown/reST heading underline, and
 * every conflict has a start or end marker. A marker after a start marker in the same piece is
 * the same conflict: one finding per problem.
 */
function sameConflict(match: RegExpExecArray, _text: string, context: LineContext): boolean {
  if (match[0].startsWith('<')) return false;
  for (let k = context.index - 1; k >= 0 && k >= context.index - 2000; k--) {
    const t = context.added[k]!.text;
    if (/^<{7}(?: |$)/.test(t)) return true;
    if (/^>{7}(?: |$)/.test(t)) return false;
  }
  return false;
}

export const family: BuiltinFamily = {
  section: 'git',
  specs: () => [
    {
      id: 'conflict-marker',
      regex: /^(?:<{7}|\|{7}|>{7})(?= |$)/,
      severity: 'bug',
      category: 'correctness',
      title: 'Merge conflict marker left in the file',
      message: 'A merge conflict marker is added: the conflict was not resolved. Keep the intended side and remove the markers.',
      confidence: 0.95,
      reject: sameConflict,
    },
  ],
};
