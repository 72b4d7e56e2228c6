/**
 * The `i` flag written out: `/ab[c-e]/i` becomes `/[aA][bB][c-eC-E]/`. V8's linear-time engine
 * does not take `i`; the same pattern without it, it does (./regex-guard.ts). Only for what is
 * exactly equivalent: patterns without `u`/`v` whose characters are all ASCII. Without `u`,
 * case-insensitive matching maps a character to its upper case and never maps a non-ASCII
 * character onto an ASCII one, so an ASCII letter matches exactly itself and its other case,
 * and `\w`, `\d`, `\s` and their negations are unchanged. Anything this reader is not sure of
 * (a backreference, `\k`, an identity escape of a letter, a non-ASCII character) gives null.
 */

const HEX2 = /^[0-9A-Fa-f]{2}$/;
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const CLASS_ESCAPES = 'dDwWsS';
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const otherCase = (c: number) => (c <= 0x5a ? c + 0x20 : c - 0x20);

class NotFoldable extends Error {}

/** The pattern with its case-insensitivity spelt out, or null when that is not exact. */
export function foldCase(source: string): string | null {
  try {
    return new Folder(source).run();
  } catch (error) {
    if (error instanceof NotFoldable) return null;
    throw error;
  }
}

class Folder {
  private i = 0;
  constructor(private readonly s: string) {}

  run(): string {
    const { s } = this;
    if (/[^\x00-\x7f]/.test(s)) throw new NotFoldable();
    let out = '';
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '\\') out += this.escape(false).text;
      else if (c === '[') out += this.charClass();
      else if (c === '(') out += this.groupStart();
      else if (c === '{') out += this.brace();
      else {
        this.i++;
        out += isLetter(c.charCodeAt(0)) ? `[${c}${String.fromCharCode(otherCase(c.charCodeAt(0)))}]` : c;
      }
    }
    return out;
  }

  /** `(`, `(?:`, lookarounds and `(?<name>` copied as they are (a group name is not text). */
  private groupStart(): string {
    const { s } = this;
    const rest = s.slice(this.i, this.i + 4);
    let prefix = '(';
    if (rest.startsWith('(?<') && !rest.startsWith('(?<=') && !rest.startsWith('(?<!')) {
      const close = s.indexOf('>', this.i);
      if (close === -1) throw new NotFoldable();
      prefix = s.slice(this.i, close + 1);
    } else if (/^\(\?(?:[:=!]|<[=!])/.test(rest)) {
      prefix = rest.startsWith('(?<') ? rest.slice(0, 4) : rest.slice(0, 3);
    }
    this.i += prefix.length;
    return prefix;
  }

  /** A quantifier `{n}`, `{n,}`, `{n,m}` as it is; a `{` that starts none is a literal. */
  private brace(): string {
    const m = /^\{\d+(?:,\d*)?\}/.exec(this.s.slice(this.i, this.i + 24));
    const text = m ? m[0] : '{';
    this.i += text.length;
    return text;
  }

  /**
   * One escape at this.i. `value` is the character it stands for (null for a class like `\d`
   * or an assertion like `\b`); `text` is what to write outside a class.
   */
  private escape(inClass: boolean): { text: string; value: number | null } {
    const { s } = this;
    const d = s[this.i + 1];
    if (d === undefined) throw new NotFoldable();
    const start = this.i;
    const single = (value: number, length: number) => {
      this.i = start + length;
      const raw = s.slice(start, this.i);
      return {
        text: isLetter(value) ? `[${String.fromCharCode(value)}${String.fromCharCode(otherCase(value))}]` : raw,
        value,
      };
    };
    if (CLASS_ESCAPES.includes(d) || (!inClass && (d === 'b' || d === 'B'))) {
      this.i += 2;
      return { text: `\\${d}`, value: null };
    }
    if (inClass && d === 'b') return single(8, 2);
    if (d in CONTROL_ESCAPES) return single(CONTROL_ESCAPES[d]!, 2);
    if (d === '0' && !/[0-9]/.test(s[this.i + 2] ?? '')) return single(0, 2);
    if (d === 'c' && isLetter((s[this.i + 2] ?? '').charCodeAt(0))) return single(s.charCodeAt(this.i + 2) % 32, 3);
    if (d === 'x' && HEX2.test(s.slice(this.i + 2, this.i + 4)))
      return single(parseInt(s.slice(this.i + 2, this.i + 4), 16), 4);
    if (d === 'u' && HEX4.test(s.slice(this.i + 2, this.i + 6))) {
      const value = parseInt(s.slice(this.i + 2, this.i + 6), 16);
      if (value > 0x7f) throw new NotFoldable();
      return single(value, 6);
    }
    // Digits (backreferences, octal) and letters (\k, \p and identity escapes) are not followed.
    if (/[0-9A-Za-z]/.test(d)) throw new NotFoldable();
    return single(d.charCodeAt(0), 2);
  }

  /**
   * A class written anew from what it holds, plus the other case of every letter in it. Every
   * character is written as an escape (`\\x61`), so that nothing added can turn into a range
   * with a neighbour (`[a-]` plus `A` must not become `[a-A]`).
   */
  private charClass(): string {
    const { s } = this;
    this.i++;
    const negated = s[this.i] === '^';
    if (negated) this.i++;
    // Atoms first (`dash`: an unescaped `-`, which may form a range), then the ranges.
    const atoms: Array<{ value: number | null; text: string; dash: boolean }> = [];
    while (s[this.i] !== ']') {
      if (this.i >= s.length) throw new NotFoldable();
      if (s[this.i] === '\\') {
        const { text, value } = this.escape(true);
        atoms.push({ value, text, dash: false });
      } else {
        atoms.push({ value: s.charCodeAt(this.i), text: s[this.i]!, dash: s[this.i] === '-' });
        this.i++;
      }
    }
    this.i++; // the `]`
    const ranges: Array<[number, number]> = [];
    let sets = '';
    for (let k = 0; k < atoms.length; k++) {
      const a = atoms[k]!.value;
      const b = atoms[k + 2]?.value;
      if (a !== null && atoms[k + 1]?.dash && b !== null && b !== undefined) {
        if (b < a) throw new NotFoldable();
        ranges.push([a, b]);
        k += 2;
      } else if (a !== null) ranges.push([a, a]);
      else sets += atoms[k]!.text;
    }
    const has = (c: number) => ranges.some(([a, b]) => a <= c && c <= b);
    const extra: Array<[number, number]> = [];
    for (const [a, b] of ranges) {
      for (let c = Math.max(a, 0x41); c <= Math.min(b, 0x7a); c++) {
        if (isLetter(c) && !has(otherCase(c))) extra.push([otherCase(c), otherCase(c)]);
      }
    }
    const hex = (c: number) => `\\x${c.toString(16).padStart(2, '0')}`;
    const written = [...ranges, ...extra].map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
    return `[${negated ? '^' : ''}${written}${sets}]`;
  }
}
