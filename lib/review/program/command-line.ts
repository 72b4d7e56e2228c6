/**
 * `--reviewer CMD` is one string; the program runs without a shell, so it is split here with
 * the simple quoting rules of a POSIX shell: whitespace separates words, '…' is literal, "…"
 * allows \" \\ \$ \` escapes, a backslash outside quotes escapes the next character. No
 * expansion of any kind ($VAR, globs, ~) happens.
 */
import { UsageError } from '../../core/errors.js';
import { reviewMessages as m } from '../../messages/review.js';

export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1)
        throw new UsageError(m.badReviewer(command, m.unterminatedQuote('single')), { remedy: m.badReviewerRemedy });
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length && '"\\$`'.includes(command[j + 1]!)) j++;
        word += command[j];
      }
      if (j >= command.length)
        throw new UsageError(m.badReviewer(command, m.unterminatedQuote('double')), { remedy: m.badReviewerRemedy });
      inWord = true;
      i = j;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new UsageError(m.badReviewer(command, m.emptyCommand), { remedy: m.badReviewerRemedy });
  return words;
}
