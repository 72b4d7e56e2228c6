/**
 * A secret assigned under a telling name (`DB_PASSWORD = "…"`, `apiKey: '…'`, `client_secret=…`)
 * whose value looks random enough to be one. No format to lean on, so the guards are many: the
 * name must end in the keyword (not `tokenizer`, `passwordMinLength`), the value must be a
 * literal (in code, quoted), not a reference, a placeholder, a word, a path or a sentence, and
 * mixed or random enough. Test, fixture, example and documentation files are left out: made-up
 * passwords live there. Not a credential format: it does not run on generated files, and it
 * does not block (docs/review.md gives its measured precision).
 */
import type { LineContext, RuleDrop } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { characterClasses, entropy, placeholderDrop } from './secret-shape.js';
import { quotedTextLines } from '../engine/text-blocks.js';
import {
  CONFIG_FILE,
  SHELL_FILE,
  bareInCode,
  elementValue,
  separatorEnd,
  valueAt,
  valueInString,
} from './assignment.js';

const KEYWORD =
  /(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|auth(?:orization|[_-]?key)?|private[_-]?key|(?:signing|encryption|master)[_-]?key|credentials?)/gi;

/** The name, with separators removed and lower-cased, ends in one of these (a digit or `value` may follow). */
const NAME_END =
  /(?:password|passwd|passphrase|pass|pwd|secret|token|apikey|accesskey|auth|authorization|authkey|secretkey|secretkeybase|privatekey|signingkey|encryptionkey|masterkey|clientsecret|credentials?)(?:\d+|value|str)?$/;
/** Names that hold a secret's kind, location or rules, not the secret. */
const NOT_SECRET_NAME =
  /(?:^|[^a-z])(?:csrf|xsrf|next|page|pagination|cursor|continuation|sync|lexer|parser|cancel|cancellation|type|public|session_?id)/;
const TOKEN_LIKE = /(?:token|key|keybase|secret|auth|authorization|credentials?)(?:\d+|value|str)?$/;

/** Values that are words of the program, not secrets. */
const WORDS =
  /^(?:none|null|nil|true|false|undefined|required|optional|string|text|password|secret|token|hidden|bearer|basic|oauth2?|jwt|sha\d+|md5|bcrypt|argon2i?d?|hs\d+|rs\d+|es\d+|utf-?8|base64|hex)$/i;

/** Longest name read around a keyword: the rule reads it for every match on the line. */
const MAX_NAME = 120;

/** The identifier the keyword is part of (a dotted path included): where it starts and ends. */
function nameAround(text: string, start: number, end: number): { from: number; to: number } {
  let from = start;
  while (from > 0 && start - from < MAX_NAME && /[\w$.-]/.test(text[from - 1]!)) from--;
  let to = end;
  while (to < text.length && to - end < MAX_NAME && /\w/.test(text[to]!)) to++;
  return { from, to };
}

function notASecret(match: RegExpExecArray, text: string, context: LineContext): boolean | RuleDrop {
  const { from, to } = nameAround(text, match.index, match.index + match[0].length);
  const full = text.slice(from, to);
  const name = full
    .slice(full.lastIndexOf('.') + 1)
    .toLowerCase()
    .replace(/[_$-]/g, '');
  if (!NAME_END.test(name) || NOT_SECRET_NAME.test(full.toLowerCase())) return true;
  const nameEnd = to;
  // An XML element: <password>…</password>, on one line or over three.
  // The element's next lines only where they are the file's next lines, added too.
  const here = context.added[context.index]!.line;
  const nextLine = (n: number) => {
    const a = context.added[context.index + n];
    return a && a.line === here + n ? a.text : undefined;
  };
  const element = elementValue(text, from, nameEnd, full, nextLine);
  if (element !== null) {
    if (!looksSecret(element, TOKEN_LIKE.test(name))) return true;
    return placeholderDrop(element);
  }
  const inString = valueInString(text, from, nameEnd);
  if (inString !== null) {
    if (!looksSecret(inString, TOKEN_LIKE.test(name))) return true;
    return placeholderDrop(inString);
  }
  const before = text.slice(Math.max(0, from - 200), from);
  if (/[!<>=]\s*$/.test(before) || /\b(?:if|while|case|assert\w*|expect)\b[^=]*$/.test(before)) return true;
  const start = separatorEnd(text, from, nameEnd);
  if (start === null) return true;
  const mode = CONFIG_FILE.test(context.path) ? 'config' : SHELL_FILE.test(context.path) ? 'shell' : 'code';
  const value =
    valueAt(text.slice(start), mode) ??
    (mode === 'code' ? bareInCode(text.slice(start), (v) => entropy(v) >= 4.2) : null);
  if (value === null) return true;
  // Python docstrings show example calls (`login(passwd='…')`): text, not the program's values.
  if (
    context.path.endsWith('.py') &&
    quotedTextLines(context.path, context.chunk.file).has(context.added[context.index]!.line)
  )
    return true;
  if (!looksSecret(value, TOKEN_LIKE.test(name))) return true;
  return placeholderDrop(value);
}

function looksSecret(value: string, tokenLike: boolean): boolean {
  // An HTTP Authorization value: the scheme, then the credential.
  const scheme = /^(?:Bearer|Token|Basic)\s+(\S+)$/i.exec(value);
  if (scheme) value = scheme[1]!;
  if (value.length < 8 || /\s/.test(value) || WORDS.test(value)) return false;
  // References and templates: $VAR, %(name)s, {{ x }}, ${x}, env lookups, paths, URLs, file names.
  if (/^[$%{<]|\$\{|\{\{|%\(|\benv\b|^\.{0,2}\/|:\/\/|\.(?:pem|key|json|ya?ml|txt|crt|p12|pfx|jks|env)$/i.test(value))
    return false;
  // An identifier, a dotted name or a kebab-case word: the name of a secret, not a secret.
  if (
    /^[a-z][a-z._-]*$/.test(value) ||
    /^[A-Z][A-Z0-9_]*$/.test(value) ||
    /^[a-z]+(?:[A-Z][a-z]+)+$/.test(value) ||
    /^(?:[A-Z][a-z]+)+$/.test(value)
  )
    return false;
  const classes = characterClasses(value);
  const bits = entropy(value);
  if (tokenLike) return value.length >= 16 && classes >= 2 && bits >= 3.2;
  return (classes >= 3 && bits >= 2.5) || (value.length >= 12 && classes >= 2 && bits >= 3.2);
}

/** `scheme://user:password@host`: the user, the password and the host (docs/review.md "The generic rule"). */
const URL_CREDENTIAL =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:/@"'`<>{}$%]{1,64}):([^\s@/"'`<>]{1,128})@([A-Za-z0-9.-]{1,253})/g;
/** Hosts of examples and of the machine itself: a URL with a password there is a sample. */
const EXAMPLE_HOST =
  /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|(?:[\w-]+\.)*example(?:\.(?:com|org|net))?|[\w.-]+\.(?:test|invalid|example|localhost))$/i;

function notAUrlSecret(match: RegExpExecArray): boolean | RuleDrop {
  const [, user, password, host] = match as unknown as [string, string, string, string];
  if (EXAMPLE_HOST.test(host) || password === user || /\$\{|\{\{|^\*+$/.test(password)) return true;
  if (!looksSecret(password, false)) return true;
  return placeholderDrop(password);
}

const EXCLUDED = [
  '**/{test,tests,__tests__,__mocks__,spec,specs,fixtures,fixture,testdata,mocks,examples,example,docs,doc,e2e}/**',
  '**/*.{test,spec}.*',
  '**/*_test.{go,py,rb}',
  '**/test_*.py',
  '**/*.{md,mdx,rst,adoc,txt,html,htm,lock}',
  '**/{package-lock,npm-shrinkwrap,composer.lock}.json',
];

export const family: BuiltinFamily = {
  section: 'secrets',
  specs: () => [
    {
      id: 'generic-secret',
      regex: KEYWORD,
      // Non-blocking: a heuristic asks, a format tells.
      severity: 'question',
      category: 'security',
      title: 'Possible secret assigned in the source',
      message:
        'A value under a name such as password, secret, token or api key looks random enough to be a real secret. ' +
        'If it is one, rotate it and load it from the environment or a secret store; if not, an ACKNOWLEDGE verdict records that.',
      confidence: 0.8,
      secondary: true,
      exclude: EXCLUDED,
      reject: notASecret,
    },
    {
      id: 'url-password',
      regex: URL_CREDENTIAL,
      severity: 'question',
      category: 'security',
      title: 'Possible password in a URL',
      message:
        'A URL carries a user and a password (scheme://user:password@host) that looks random enough to be real. ' +
        'If it is one, rotate it and pass it from the environment or a secret store; if not, an ACKNOWLEDGE verdict records that.',
      confidence: 0.8,
      secondary: true,
      exclude: EXCLUDED,
      reject: notAUrlSecret,
    },
  ],
};
