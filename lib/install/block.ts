/**
 * The marked revtrail block inside a hook file: a user's own hook keeps every line and gains
 * the block; uninstall takes out exactly the block.
 */
export const BLOCK_BEGIN = '# >>> revtrail >>>';
export const BLOCK_END = '# <<< revtrail <<<';

/** The begin and end marker lines of one kind of block. */
export interface Marks {
  begin: string;
  end: string;
}
export const REVTRAIL_MARKS: Marks = { begin: BLOCK_BEGIN, end: BLOCK_END };
/** The block that runs the hook a clone had before install (docs/hooks.md, "Hooks already there"). */
export const CHAIN_MARKS: Marks = { begin: '# >>> revtrail chain >>>', end: '# <<< revtrail chain <<<' };

export interface BlockSpan {
  /** Index of the begin marker line and of the end marker line. */
  begin: number;
  end: number;
}

const lines = (text: string) => text.split('\n');

export function findBlock(text: string, marks: Marks = REVTRAIL_MARKS): BlockSpan | null {
  const all = lines(text);
  const begin = all.findIndex((l) => l.trim() === marks.begin);
  if (begin === -1) return null;
  const end = all.findIndex((l, i) => i > begin && l.trim() === marks.end);
  return end === -1 ? null : { begin, end };
}

/** Replaces an existing block with `block`; returns null when the text has none. */
export function replaceBlock(text: string, block: string, marks: Marks = REVTRAIL_MARKS): string | null {
  const span = findBlock(text, marks);
  if (!span) return null;
  const all = lines(text);
  all.splice(span.begin, span.end - span.begin + 1, ...lines(block.replace(/\n$/, '')));
  return all.join('\n');
}

const SHEBANG = /^#!/;
// A last top-level `exit` / `exit 0` ends the script: a block after it would never run.
const FINAL_EXIT = /^exit(\s+0)?\s*(#.*)?$/;

/**
 * Adds the block to a user's hook. `end` (commit-msg): after the user's lines, so that their
 * checks (commitlint) see the message before revtrail adds trailers; placed before a final
 * `exit`. `top` (pre-push): before the user's lines, right after a shebang, because the block
 * must read the ref lines on stdin before anything else consumes them (it replays them).
 */
export function insertBlock(text: string, block: string, where: 'top' | 'end'): string {
  const body = block.endsWith('\n') ? block : `${block}\n`;
  if (where === 'top') {
    const all = lines(text);
    const at = all.length && SHEBANG.test(all[0]!) ? 1 : 0;
    const head = all.slice(0, at).join('\n');
    const rest = all.slice(at).join('\n');
    return (head ? `${head}\n` : '') + body + (rest.trim() ? `\n${rest}` : rest.replace(/^\n+/, ''));
  }
  const all = lines(text.replace(/\n+$/, ''));
  let last = all.length - 1;
  while (last >= 0 && !all[last]!.trim()) last--;
  if (last >= 0 && FINAL_EXIT.test(all[last]!)) {
    const before = all.slice(0, last).join('\n').replace(/\n+$/, '');
    return `${before ? `${before}\n\n` : ''}${body}${all.slice(last).join('\n')}\n`;
  }
  const before = all.join('\n');
  return `${before.trim() ? `${before}\n\n` : ''}${body}`;
}

/** The text without the block (and without the blank line that separated it). */
export function removeBlock(text: string, marks: Marks = REVTRAIL_MARKS): string | null {
  const span = findBlock(text, marks);
  if (!span) return null;
  const all = lines(text);
  let { begin, end } = span;
  // Take one separating blank line with it: the one before, else the one after.
  if (begin > 0 && !all[begin - 1]!.trim()) begin--;
  else if (end + 1 < all.length - 1 && !all[end + 1]!.trim()) end++;
  all.splice(begin, end - begin + 1);
  return all.join('\n');
}

/** Whether a hook file holds nothing but a shebang, comments and blank lines. */
export function isBlankScript(text: string): boolean {
  return text.split('\n').every((l) => !l.trim() || l.trim().startsWith('#'));
}

/** A value for a POSIX sh word, in single quotes. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
