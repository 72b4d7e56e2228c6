/**
 * How each format writes "this name holds this value", for the generic secret rule
 * (./generic-secret.ts, docs/review.md "The generic rule"). Each reader is one format's unit with
 * its own cases (test/fixtures/quality/generic-formats.json); the decision whether the value is
 * a secret (entropy, placeholders) stays in the rule, shared by all.
 *
 * - the separator after the name: `=`, `:`, `=>`, `:=`, make's `::=`, `:::=` and `?=`, PHP's
 *   `.=`, after a map key's closing quote and bracket (`$config["api_key"] =`) or a type
 *   annotation (`apiToken: string =`, `API_KEY: &str =`, Go's `apiToken string =`); a quoted
 *   name and its value as two arguments (`setProperty("API_TOKEN", "…")`);
 * - the value: quoted in code; also bare in config files, and in shell and make files up to the
 *   next blank (`export API_TOKEN=…`, `TOKEN=… ./run`);
 * - a value inside a string: a connection string's `Password=…;`, an escaped env file in JSON
 *   (`"TOKEN=…\nNEXT=…"`), a header `"Authorization: Bearer …"`;
 * - an XML element, on one line or over three (`<apiToken>`, the value, `</apiToken>`).
 */

/** Files whose values are written bare (no quotes): config formats. */
export const CONFIG_FILE = /(?:^|\/)(?:\.env(?:\.[\w.-]+)?|[^/]*\.(?:env|ini|properties|ya?ml|toml|conf|cfg))$/i;
/** Files where a bare value ends at the next blank: shells and make. */
export const SHELL_FILE = /(?:^|\/)(?:[^/]*\.(?:sh|bash|zsh|ksh|mk)|Makefile|GNUmakefile|Dockerfile|\.envrc)$/i;

/** `"]`, `']` or `]` closing a map key, a type annotation, then the operator. */
const SEPARATOR =
  /^["']?\]?(?:\s*:\s*&?(?:'\w+\s+)?[A-Za-z_][\w.<>[\], ]{0,40}?(?=\s*=[^=>~])|\s+(?:string|\[\]byte)(?=\s*=[^=]))?\s*(?:=>|:{1,3}=|[?.]=|=(?![=~])|:(?!:))\s*/;
/** Inside a string only `=` (a connection string, an env file) or a header's `: ` separates. */
const IN_STRING_SEPARATOR = /^(?:=(?![=~])|:\s+)/;

export type ValueMode = 'code' | 'config' | 'shell';

/**
 * Where the value after a name starts (null: no separator follows, so no assignment). A quoted
 * name followed by a comma is a key and its value passed together: `setProperty("JWT_TOKEN", "…")`,
 * `getenv("API_TOKEN", "<default>")`.
 */
export function separatorEnd(text: string, from: number, nameEnd: number): number | null {
  const quote = text[from - 1];
  // Only as a call's first two arguments: a list of names (`['a', 'b']`, `__all__`) is no pair.
  if (
    (quote === '"' || quote === "'") &&
    text[nameEnd] === quote &&
    /\(\s*$/.test(text.slice(Math.max(0, from - 21), from - 1))
  ) {
    const pair = /^["']\s*,\s*(?=["'])/.exec(text.slice(nameEnd, nameEnd + 20));
    if (pair) return nameEnd + pair[0].length;
  }
  const sep = SEPARATOR.exec(text.slice(nameEnd, nameEnd + 80));
  return sep ? nameEnd + sep[0].length : null;
}

/** The value written at the start of `rest`, as the file's format writes values. */
export function valueAt(rest: string, mode: ValueMode): string | null {
  const quoted = /^(["'`])((?:(?!\1)[^\\]|\\.){1,200})\1/.exec(rest);
  if (quoted) return quoted[1] === '`' && quoted[2]!.includes('${') ? null : quoted[2]!;
  if (mode === 'code') return null;
  const bare =
    mode === 'shell'
      ? /^([^\s#;,'"`|&<>()]{1,200})(?=[\s;|&)]|$)/.exec(rest)
      : /^([^\s#;,'"`]{1,200})(?=\s*(?:#|$))/.exec(rest);
  return bare ? bare[1]! : null;
}

/**
 * A value written bare in code (`passwd = fxg5k_6MTK…`): no program reads it as a literal, yet a
 * pasted key looks like this when its quotes were lost. Only a run that no identifier looks like:
 * 20 or more characters ending the statement, upper and lower case and at least two digits, no
 * dot or call, and random (`isRandom`, the rule's entropy test).
 */
export function bareInCode(rest: string, isRandom: (value: string) => boolean): string | null {
  const bare = /^([A-Za-z0-9_+/=-]{20,200})\s*[;,]?\s*(?:(?:\/\/|#).*)?$/.exec(rest);
  if (!bare) return null;
  const value = bare[1]!;
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || (value.match(/\d/g) ?? []).length < 2) return null;
  return isRandom(value) ? value : null;
}

/**
 * A name inside a quoted string (`"…;Password=…;"`, `"TOKEN=…\nNEXT=…"`, `"Authorization: Bearer …"`):
 * the value up to the string's next delimiter, or null when the name is not written that way.
 */
export function valueInString(text: string, from: number, nameEnd: number): string | null {
  const before = text[from - 1];
  const escapedNewline = before === 'n' && text[from - 2] === '\\';
  if (before !== '"' && before !== "'" && before !== ';' && before !== ' ' && !escapedNewline) return null;
  // A blank before the name counts only inside a string already open on the line.
  if (before === ' ' && !/["'][^"']*$/.test(text.slice(0, from))) return null;
  const sep = IN_STRING_SEPARATOR.exec(text.slice(nameEnd));
  if (!sep) return null;
  const rest = text.slice(nameEnd + sep[0].length);
  const header = /^(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{1,200})(?=["'\\\s;]|$)/i.exec(rest);
  if (header) return header[1]!;
  const value = /^([^\s"'`;&\\]{1,200})(?=["'`;&\\]|$)/.exec(rest);
  return value ? value[1]! : null;
}

/**
 * An XML element holding the value: `<name>value</name>` on the line, or `<name>` alone with the
 * value on the next added line and `</name>` on the one after (`next(1)`, `next(2)`). Null: not
 * an element; '' : an element whose value cannot be read (no secret).
 */
export function elementValue(
  text: string,
  from: number,
  nameEnd: number,
  name: string,
  next: (n: number) => string | undefined,
): string | null {
  if (text[from - 1] !== '<' || text[nameEnd] !== '>') return null;
  const close = text.indexOf('</', nameEnd);
  if (close !== -1) return close - nameEnd > 201 ? '' : text.slice(nameEnd + 1, close);
  if (text.slice(nameEnd + 1).trim() !== '') return '';
  const value = next(1)?.trim() ?? '';
  const end = next(2)?.trim() ?? '';
  // A value of a known format is reported by its own rule, on its own line.
  if (KNOWN_FORMAT.test(value)) return '';
  return end === `</${name}>` && value && !value.includes('<') ? value : '';
}

/** The starts of the token formats the credential rules read (a JWT, cloud and forge keys). */
const KNOWN_FORMAT =
  /^(?:eyJ[\w-]*\.|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|sk_(?:live|test)_|AIzaSy|npm_|glpat-)/;
