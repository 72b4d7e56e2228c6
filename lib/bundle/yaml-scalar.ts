/**
 * Scalars for ./yaml-lite.ts: quoted ones on one line, and plain ones as YAML 1.2's core schema
 * resolves them. `bail()` means "not for yaml-lite": js-yaml reads the text instead.
 */

export class Unsupported extends Error {}
export const bail = (): never => {
  throw new Unsupported();
};

const SURELY_TEXT = /^[A-Za-z_/$^(=;<\\]/;
const DQ_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
  N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/** A single- or double-quoted scalar on one line starting at `at`. */
export function quoted(text: string, at: number): { value: string; end: number } {
  const q = text[at];
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (q === "'") {
      if (c !== "'") out += c;
      else if (text[i + 1] === "'") {
        out += "'";
        i++;
      } else return { value: out, end: i + 1 };
    } else if (c === '"') return { value: out, end: i + 1 };
    else if (c === '\\') {
      const e = text[++i];
      if (e === undefined) bail();
      if (e! in DQ_ESCAPES) out += DQ_ESCAPES[e!];
      else {
        const length = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        const hex = text.slice(i + 1, i + 1 + length);
        if (!length || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== length) bail();
        const code = parseInt(hex, 16);
        if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) bail();
        out += String.fromCodePoint(code);
        i += length;
      }
    } else out += c;
  }
  return bail();
}

/** A plain scalar as YAML 1.2's core schema reads it. */
export function resolvePlain(text: string): unknown {
  if (text === '') return bail();
  if (SURELY_TEXT.test(text)) {
    if (/^(?:null|Null|NULL)$/.test(text)) return null;
    if (/^(?:true|True|TRUE)$/.test(text)) return true;
    if (/^(?:false|False|FALSE)$/.test(text)) return false;
    return text;
  }
  if (text === '~') return null;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9A-Fa-f]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return parseFloat(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
