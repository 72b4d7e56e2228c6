/**
 * The parts of a commit message file git keeps: it drops comment lines (core.commentChar) and
 * everything from the `git commit -v` scissors line down. Lint and the "empty message" test
 * look at the same lines git will.
 */
import { configValue, run } from '../core/git/commands.js';
import { escapeRegExp } from '../core/regex-escape.js';

export const SCISSORS = '------------------------ >8 ------------------------';
// git 2.39 tries these, in order, for core.commentChar=auto.
const AUTO_CANDIDATES = '#;@!$%^&|:';

export interface MessageLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
}

/** Splits a message into lines (the final newline does not make an extra empty line). */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The lines git keeps: before the scissors line, minus comment lines. */
export function keptLines(text: string, commentChar: string): MessageLine[] {
  const kept: MessageLine[] = [];
  const scissors = `${commentChar} ${SCISSORS}`;
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === scissors) break;
    if (line.startsWith(commentChar)) continue;
    kept.push({ number: i + 1, text: line });
  }
  return kept;
}

/** Only comments and whitespace: git aborts such a commit, and it must stay that way. */
export function isEmptyMessage(text: string, commentChar: string): boolean {
  return keptLines(text, commentChar).every((l) => !l.text.trim());
}

/**
 * The comment character git uses for this message: core.commentChar, else `#`. For `auto`
 * git picked a character the message did not use; the scissors line or the trailing comment
 * block of the file shows which.
 */
export async function commentCharFor(cwd: string, text: string): Promise<string> {
  return commentCharOf(await readCommentConfig(cwd), text);
}

/** core.commentChar as configured ('' when unset). */
export async function readCommentConfig(cwd: string): Promise<string> {
  try {
    return (await run(configValue('core.commentChar'), { cwd })) ?? '';
  } catch {
    return '';
  }
}

export function commentCharOf(configured: string, text: string): string {
  if (configured === 'auto') return detectCommentChar(text);
  return configured ? configured[0]! : '#';
}

export function detectCommentChar(text: string): string {
  const lines = splitLines(text);
  for (const line of lines) {
    if (line.length === SCISSORS.length + 2 && line.endsWith(` ${SCISSORS}`) && AUTO_CANDIDATES.includes(line[0]!))
      return line[0]!;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    return AUTO_CANDIDATES.includes(line[0]!) ? line[0]! : '#';
  }
  return '#';
}

/**
 * The message without the trailers `key: ID,…` of `ids` and the lines folded under each, looked
 * for only in the last paragraph git keeps (where git reads trailers). Every other byte stays,
 * comments included; a trailer paragraph left empty takes its blank line with it.
 */
export function withoutRows(text: string, ids: ReadonlySet<string>, commentChar: string, key: string): string {
  const kept = keptLines(text, commentChar);
  let end = kept.length - 1;
  while (end >= 0 && !kept[end]!.text.trim()) end--;
  let start = end;
  while (start > 0 && kept[start - 1]!.text.trim()) start--;
  if (end < 0) return text;
  const head = new RegExp(`^${escapeRegExp(key)}\\s*:\\s*(rf-[0-9a-f]+),`, 'i');
  const drop = new Set<number>();
  for (let i = start; i <= end; i++) {
    const id = head.exec(kept[i]!.text)?.[1]?.toLowerCase();
    if (!id || !ids.has(id)) continue;
    drop.add(kept[i]!.number);
    while (i + 1 <= end && /^[ \t]/.test(kept[i + 1]!.text)) drop.add(kept[++i]!.number);
  }
  if (!drop.size) return text;
  const paragraph = kept.slice(start, end + 1).map((l) => l.number);
  if (paragraph.every((n) => drop.has(n))) {
    // The blank lines before the paragraph go too, so no trailing blank paragraph is left.
    for (let i = start - 1; i >= 0 && !kept[i]!.text.trim(); i--) drop.add(kept[i]!.number);
  }
  const lines = text.split('\n');
  return lines.filter((_, i) => !drop.has(i + 1)).join('\n');
}
