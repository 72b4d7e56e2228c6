/**
 * Git's C-style path quoting (core.quotePath): a path holding a quote, a backslash, a control
 * character or (by default) any non-ASCII byte is written in double quotes with backslash
 * escapes, non-ASCII as octal escapes of its UTF-8 bytes (`"\303\274.txt"`).
 */

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
const ESCAPE_OF: Record<number, string> = {
  7: 'a',
  8: 'b',
  9: 't',
  10: 'n',
  11: 'v',
  12: 'f',
  13: 'r',
  34: '"',
  92: '\\',
};

/**
 * Reads a quoted path starting at `text[start] === '"'`. Returns the decoded path and the index
 * after the closing quote, or null when the quoted string is not terminated or has a bad escape.
 */
export function readQuoted(text: string, start: number): { value: string; end: number } | null {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined) return null;
      if (next in ESCAPES) {
        bytes.push(ESCAPES[next]!);
        i += 2;
        continue;
      }
      const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4));
      if (!octal) return null;
      bytes.push(parseInt(octal[0], 8));
      i += 4;
      continue;
    }
    // An unescaped character (core.quotePath=false leaves UTF-8 as it is): keep its bytes.
    const codePoint = text.codePointAt(i)!;
    const char = String.fromCodePoint(codePoint);
    for (const b of Buffer.from(char, 'utf8')) bytes.push(b);
    i += char.length;
  }
  return null;
}

/** Decodes a whole quoted string (`"a\tb"`), or returns the text unchanged when it is not quoted. */
export function unquotePath(text: string): string {
  if (!text.startsWith('"')) return text;
  const read = readQuoted(text, 0);
  return read && read.end === text.length ? read.value : text;
}

/** Quotes a path the way git does with core.quotePath=true; paths that need nothing stay bare. */
export function quotePath(path: string): string {
  if (!/[\x00-\x1f"\\\x7f-\uffff]/.test(path)) return path;
  let out = '"';
  for (const b of Buffer.from(path, 'utf8')) {
    if (ESCAPE_OF[b] !== undefined) out += `\\${ESCAPE_OF[b]}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}
