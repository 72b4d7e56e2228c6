/**
 * Author redaction (`mine --redact`, config privacy.redactAuthors): the name becomes
 * REDACTED and the address a stable pseudonym, so one person's findings still join up.
 */
import { createHash } from 'node:crypto';

export function pseudonym(email: string): string {
  return 'p-' + createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 8);
}

/** `Name <email>` -> `REDACTED <p-1a2b3c4d>`. */
export function redactAuthor(author: string): string {
  const m = /<([^<>]*)>\s*$/.exec(author);
  return `REDACTED <${pseudonym(m ? m[1]! : author)}>`;
}
