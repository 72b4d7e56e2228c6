/**
 * Cross-line views of a changed file: each visible line as code (./mask.ts maskLines), lexed
 * over the whole hunk rather than line by line, so a line inside a template literal or a block
 * comment that opened further up (in an earlier piece of the same file too) is known as such.
 *
 * JavaScript-family files are lexed from the top of the file when the diff shows it (a new file,
 * a hunk at line 1). In HTML-like files (.html, .vue, .svelte) only the `<script>` parts are
 * code; a hunk further down starts inside a script when its first script tag is a closing one.
 */
import type { Hunk } from '../../diff/types.js';
import { maskLines, type MaskedLine } from './mask.js';

const LEXED = new Set(['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'snap']);
const HTML_LIKE = new Set(['html', 'htm', 'xhtml', 'vue', 'svelte']);

function extension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** New-file line number → the line as code, for the lines this module can place. */
export function fileViews(path: string, hunks: readonly Hunk[], maxLineLength: number): Map<number, MaskedLine> {
  const views = new Map<number, MaskedLine>();
  const ext = extension(path);
  const html = HTML_LIKE.has(ext);
  if (!html && !LEXED.has(ext)) return views;
  for (const hunk of hunks) {
    if (!html && hunk.newStart !== 1) continue;
    const lines = hunk.lines.filter((l) => l.kind !== 'del' && l.newLine !== null);
    if (lines.some((l) => l.text.length > maxLineLength)) continue; // minified: not worth lexing
    const texts = lines.map((l) => l.text);
    const masked = html ? maskScripts(texts, hunk.newStart === 1) : maskLines(texts);
    lines.forEach((l, k) => {
      views.set(l.newLine!, masked[k]!);
    });
  }
  return views;
}

const OPEN = /<script\b([^>]*)>/i;
const CLOSE = /<\/script\s*>/i;
/** A script element without a type, or with a JavaScript one, holds code (not JSON, not a template). */
const JS_TYPE = /\btype\s*=\s*["']?(?:module|text\/javascript|application\/javascript|text\/babel|text\/jsx)\b/i;

/**
 * The lines with everything outside `<script>` elements blanked, then lexed as JavaScript; what
 * is outside a script comes out as spaces.
 */
function maskScripts(texts: readonly string[], fromTop: boolean): MaskedLine[] {
  let inside = !fromTop && startsInsideScript(texts);
  const scriptOnly = texts.map((text) => {
    let out = '';
    let at = 0;
    while (at < text.length) {
      if (inside) {
        const close = CLOSE.exec(text.slice(at));
        const end = close ? at + close.index : text.length;
        out += text.slice(at, end);
        if (!close) break;
        out += ' '.repeat(close[0].length);
        at = end + close[0].length;
        inside = false;
      } else {
        const open = OPEN.exec(text.slice(at));
        if (!open) {
          out += ' '.repeat(text.length - at);
          break;
        }
        const end = at + open.index + open[0].length;
        out += ' '.repeat(end - at);
        at = end;
        const type = open[1] ?? '';
        inside = !/\bsrc\s*=/.test(type) && (!/\btype\s*=/.test(type) || JS_TYPE.test(type));
        if (!inside) {
          // Not code: skip to the element's end as text.
          const close = CLOSE.exec(text.slice(at));
          if (!close) {
            out += ' '.repeat(text.length - at);
            break;
          }
          out += ' '.repeat(close.index + close[0].length);
          at += close.index + close[0].length;
        }
      }
    }
    return out;
  });
  return maskLines(scriptOnly);
}

/** A hunk that shows a `</script>` before any `<script>` began inside one. */
function startsInsideScript(texts: readonly string[]): boolean {
  for (const text of texts) {
    const open = OPEN.exec(text);
    const close = CLOSE.exec(text);
    if (close && (!open || close.index < open.index)) return true;
    if (open) return false;
  }
  return false;
}
