/**
 * Whether an SQL statement on an added line is built from data: it sits in an interpolated
 * literal or is joined with a non-literal. Line-level heuristics, kept quiet on parameterized
 * statements and tagged templates.
 */
import type { LineContext } from '../rules.js';
import { findStringLiterals, isJavaScript, usesHashComments, type StringLiteral } from '../mask.js';

/** The literal containing `at`, if any. */
function literalAt(literals: readonly StringLiteral[], at: number): StringLiteral | undefined {
  return literals.find((l) => l.start < at && at < l.end);
}

/** An operand that is not itself a string literal follows `+` (or `%`, `.`) after `index`. */
function concatenatedAfter(text: string, index: number, php: boolean): boolean {
  const rest = text.slice(index);
  if (/^\s*\+\s*[^\s'"`]/.test(rest)) return true; // "…" + id
  if (/^\s*%\s*[\w(]/.test(rest)) return true; // "… %s" % (id,)   (Python)
  if (/^\.format\(/.test(rest)) return true; // "… {}".format(id) (Python)
  return php && /^\s*\.\s*\$/.test(rest); // "…" . $id          (PHP)
}

function concatenatedBefore(text: string, index: number, php: boolean): boolean {
  const before = text.slice(0, index);
  if (/[^\s'"`]\s*\+\s*$/.test(before)) return true; // id + "…"
  return php && /\$\w+\s*\.\s*$/.test(before);
}

/**
 * SQL built from pieces of data: the statement sits in an interpolated literal (template with
 * `${…}` that is not a tagged `sql\`…\``, f-string, `#{…}`), or a literal joined with a
 * non-literal by `+` (or Python `%`/`.format`, PHP `.`), or a format string (`Sprintf`,
 * `String.format`) with `%s`. Parameterized statements (`?`, `$1`, `:name`) stay quiet.
 */
/** The added lines that follow `context.index` without a gap in the file, up to `max`. */
function following(context: LineContext, max: number): string[] {
  const out: string[] = [];
  const { added, index } = context;
  for (let k = index + 1; k < added.length && k <= index + max && added[k]!.line === added[index]!.line + (k - index); k++) out.push(added[k]!.text);
  return out;
}

function preceding(context: LineContext, max: number): string[] {
  const out: string[] = [];
  const { added, index } = context;
  for (let k = index - 1; k >= 0 && k >= index - max && added[k]!.line === added[index]!.line - (index - k); k--) out.push(added[k]!.text);
  return out;
}

/**
 * A statement line inside a multi-line template literal: built when the template (opened by
 * the nearest backtick above, not a tagged one) interpolates before it closes.
 */
function interpolatedTemplate(text: string, context: LineContext): boolean {
  const opener = preceding(context, 200).find((t) => t.includes('`'));
  if (opener === undefined) return /\$\{/.test(text);
  if (/[\w$.)\]]$/.test(opener.slice(0, opener.lastIndexOf('`')))) return false; // tagged: parameterized
  for (const t of [text, ...following(context, 20)]) {
    const tick = t.indexOf('`');
    if ((tick === -1 ? t : t.slice(0, tick)).includes('${')) return true;
    if (tick !== -1) return false;
  }
  return false;
}

/** `"SELECT … " +` continued on the next lines with a non-literal operand (`"… = " + id`). */
function concatenatedOnNextLines(context: LineContext): boolean {
  for (const t of following(context, 5)) {
    if (/[^\s'"`+]\s*\+\s*['"`]|['"`]\s*\+\s*[^\s'"`+]|^\s*\+?\s*[A-Za-z_$][\w$.]*\s*(?:\+|[;,)]|$)/.test(t)) return true;
    if (!/\+\s*$/.test(t)) return false;
  }
  return false;
}

export function notBuiltSql(match: RegExpExecArray, text: string, context: LineContext): boolean {
  // A line inside a multi-line template (known when the file is seen from its top, else guessed).
  if (context.view().inTemplate) return !interpolatedTemplate(text, context);
  const php = context.path.endsWith('.php');
  const literals = findStringLiterals(text, usesHashComments(context.path));
  const literal = literalAt(literals, match.index);
  if (!literal) return !interpolatedTemplate(text, context);
  const body = text.slice(literal.start + 1, literal.end);
  const before = text.slice(0, literal.start);
  if (literal.quote === '`') {
    if (/[\w$.)\]]$/.test(before)) return true; // tagged template: the tag parameterizes it
    if (body.includes('${')) return false;
    if (literal.end < text.length) return true; // closed on this line, nothing interpolated
    for (const t of following(context, 20)) {
      const tick = t.indexOf('`');
      if ((tick === -1 ? t : t.slice(0, tick)).includes('${')) return false;
      if (tick !== -1) return true;
    }
    return true;
  }
  if (/(?:^|[^\w])[rRbB]?[fF][rRbB]?$/.test(before) && /\{[^}]*\}/.test(body)) return false; // f-string
  if (!isJavaScript(context.path) && /\$\{|#\{/.test(body)) return false; // Kotlin/Groovy/Dart/Ruby/PHP interpolation
  if (/\$@?$/.test(before) && /\{[^}]*\}/.test(body)) return false; // C# $"…{x}"
  if (/(?:Sprintf|format|formatted|printf)\s*\(\s*$/.test(before) && /%[sdv]/.test(body)) return false;
  if (concatenatedAfter(text, literal.end + 1, php) || concatenatedBefore(text, literal.start, php)) return false;
  return !(/^\s*\+\s*$/.test(text.slice(literal.end + 1)) && concatenatedOnNextLines(context));
}


// Upper-case keywords in any shape; lower-case only in a strictly SQL shape, so UI text such
// as "Select a file from the list" or "Delete from cart" does not count.
export const SQL_STATEMENT = new RegExp(
  [
    '\\bSELECT\\s[^\'"`]*?\\bFROM\\s',
    '\\bINSERT\\s+INTO\\s',
    '\\bUPDATE\\s+[\\w."`\\[\\]]+\\s+SET\\s',
    '\\bDELETE\\s+FROM\\s',
    '\\bselect\\s+(?:distinct\\s+)?(?:\\*|[\\w.]+(?:\\s*,\\s*[\\w.]+)*)\\s+from\\s+[\\w."\\[]',
    '\\binsert\\s+into\\s+[\\w."\\[\\]]+\\s*(?:\\(|values\\b|select\\b)',
    '\\bupdate\\s+[\\w."\\[\\]]+\\s+set\\s+[\\w."\\[\\]]+\\s*=',
    '\\bdelete\\s+from\\s+[\\w."\\[\\]]+\\s+where\\b',
  ].join('|'),
  'g',
);

