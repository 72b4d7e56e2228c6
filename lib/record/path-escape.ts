/**
 * Paths a row cannot hold as they are (docs/record.md "Names"). git can hold a name with a
 * newline or another control character; a row is one line of text, so such a path is written
 * escaped: a leading `/` (which no row's path can otherwise start with: a repo path is relative)
 * and every control character and `%` as `%XX`. Every other path is written as it is, so no row
 * written before reads differently, and decoding gives back the exact path.
 */

// C0 controls and DEL: what can break the line or hide in it.
const CONTROL = /[\x00-\x1f\x7f]/;
const ESCAPED = /^\/(?:[^%\x00-\x1f\x7f]|%[0-9A-F]{2})+$/;

/** Whether `path` needs the escaped form. */
export const needsEscape = (path: string) => CONTROL.test(path);

/** The path as a row writes it: unchanged unless it holds a control character. */
export function encodePath(path: string): string {
  if (!needsEscape(path)) return path;
  return (
    '/' + path.replace(/[%\x00-\x1f\x7f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))
  );
}

/**
 * The path a row's `file` field names. Only the canonical escaped form of a path that needs it
 * decodes; anything else comes back as it is (and a leading `/` then fails the path check).
 */
export function decodePath(field: string): string {
  if (field.charCodeAt(0) !== 47 || !ESCAPED.test(field)) return field;
  const path = field.slice(1).replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return encodePath(path) === field ? path : field;
}
