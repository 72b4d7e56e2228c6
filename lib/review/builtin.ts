/**
 * The built-in baseline (SPEC §4): checks every repository wants, whatever its knowledge
 * bundle says. rule_source `builtin/<section>:<id>`; each id can be disabled in the config
 * (`builtinRules: false` or a list of ids).
 *
 * Noise matters as much as recall, so each rule carries guards (rules.ts RuleGuards): code
 * rules look only at code (strings, regex literals and comments blanked out), only in the
 * languages they understand; credential rules skip documented example keys; SQL and shell
 * rules need real interpolation or concatenation next to the statement.
 */
import type { Category, Severity } from '../core/vocabulary.js';
import type { LineContext, ReviewRule, RuleGuards } from './rules.js';
import { CODE_FILES, JS_FILES, findStringLiterals, isJavaScript, usesHashComments, type StringLiteral } from './mask.js';

interface BuiltinSpec extends RuleGuards {
  section: string;
  id: string;
  regex: RegExp;
  severity: Severity;
  category: Category;
  title: string;
  message: string;
  confidence: number;
  paths?: string[];
  exclude?: string[];
}

function rule(spec: BuiltinSpec): ReviewRule {
  const { section, id, regex, paths = [], exclude = [], ...rest } = spec;
  return {
    ...rest,
    id,
    pattern: regex.source,
    flags: regex.flags,
    paths,
    exclude,
    ruleSource: `builtin/${section}:${id}`,
    documentId: null,
    regex,
    trusted: true,
  };
}

// ---------------------------------------------------------------------------------------------
// Credentials

/** Words and shapes of documented or made-up keys (AKIAIOSFODNN7EXAMPLE, ghp_xxxx…, 000000…). */
const PLACEHOLDER = /example|sample|dummy|fake|placeholder|redacted|your_?|changeme|x{4}|\*{4}|\.\.\.|<[^>]*>|(.)\1{7}|0123456789|123456789|abcdefgh/i;

const placeholder = (group = 0) => (match: RegExpExecArray) => PLACEHOLDER.test(match[group] ?? match[0]);

/** For key material: real key bodies hold runs of `A` (zero bytes), so only words and elisions count. */
const PLACEHOLDER_BODY = /example|sample|dummy|fake|placeholder|redacted|your|x{4}|\.\.\.|…|<[^>]*>/i;

const KEY_MATERIAL = /^[A-Za-z0-9+/=]{16,}$/;

/**
 * A private key block, not code that only names the header (`pem.startsWith('-----BEGIN …')`):
 * the header is the whole line and key material follows on the next added lines (a PEM file),
 * or key material follows an escaped newline on the same line (a key inside a JSON/JS string).
 */
function notAPrivateKey(match: RegExpExecArray, text: string, context: LineContext): boolean {
  const after = text.slice(match.index + match[0].length);
  const inline = /^(?:\\r)?\\n([A-Za-z0-9+/=]{16,})/.exec(after);
  if (inline) return PLACEHOLDER_BODY.test(inline[1]!);
  const bare = text.trim().replace(/^["'`]|["'`,;]+$/g, '');
  if (bare !== match[0]) return true;
  const next = context.added.slice(context.index + 1, context.index + 4).map((a) => a.text.trim().replace(/^["'`]|["'`,;]+$/g, ''));
  const body = next.filter((t) => !/^[\w-]+:/.test(t) && t !== '');
  if (body.some((t) => PLACEHOLDER_BODY.test(t))) return true;
  return !body.some((t) => KEY_MATERIAL.test(t));
}

const secret = (spec: Omit<BuiltinSpec, 'section' | 'severity' | 'category' | 'longLines'>): ReviewRule =>
  rule({ section: 'secrets', severity: 'security', category: 'security', longLines: true, ...spec });

const SECRET_MESSAGE =
  'Anything pushed stays in the history even after a later commit removes it. Revoke or rotate the credential, ' +
  'then load it from the environment or a secret store instead of the source.';

function secretRules(): ReviewRule[] {
  return [
    secret({
      id: 'private-key',
      needles: ['-----BEGIN '],
      regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
      title: 'Private key committed',
      message: `A private key block is added to the repository. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: notAPrivateKey,
    }),
    secret({
      id: 'aws-access-key',
      needles: ['AKIA', 'ASIA'],
      regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
      title: 'AWS access key ID committed',
      message: `An AWS access key ID (AKIA…/ASIA…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'aws-secret-key',
      needles: ['secret'],
      regex: /\baws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
      title: 'AWS secret access key committed',
      message: `An AWS secret access key is assigned in the source. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(1),
    }),
    secret({
      id: 'github-token',
      needles: ['gh', 'github_pat_'],
      regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b/g,
      title: 'GitHub token committed',
      message: `A GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_) is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
    secret({
      id: 'slack-token',
      needles: ['xox'],
      regex: /\bxox[baprs]-[0-9A-Za-z]{6,}-[0-9A-Za-z-]{6,}/g,
      title: 'Slack token committed',
      message: `A Slack token (xoxb-/xoxp-/…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'stripe-key',
      needles: ['k_live_'],
      regex: /\b[sr]k_live_[0-9A-Za-z]{20,}\b/g,
      title: 'Stripe live secret key committed',
      message: `A Stripe live secret or restricted key is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
    secret({
      id: 'google-api-key',
      needles: ['AIza'],
      regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
      title: 'Google API key committed',
      message: `A Google API key (AIza…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.9,
      reject: placeholder(),
    }),
    secret({
      id: 'npm-token',
      needles: ['npm_'],
      regex: /\bnpm_[A-Za-z0-9]{36}\b/g,
      title: 'npm access token committed',
      message: `An npm access token (npm_…) is added. ${SECRET_MESSAGE}`,
      confidence: 0.95,
      reject: placeholder(),
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Merge conflicts

/**
 * `<<<<<<<`, `|||||||` (diff3 base) and `>>>>>>>` at the start of a line, followed by a space
 * or nothing. `=======` alone is not flagged: it is also a Markdown/reST heading underline, and
 * every conflict has a start or end marker. A marker after a start marker in the same piece is
 * the same conflict: one finding per problem.
 */
function sameConflict(match: RegExpExecArray, _text: string, context: LineContext): boolean {
  if (match[0].startsWith('<')) return false;
  for (let k = context.index - 1; k >= 0 && k >= context.index - 2000; k--) {
    const t = context.added[k]!.text;
    if (/^<{7}(?: |$)/.test(t)) return true;
    if (/^>{7}(?: |$)/.test(t)) return false;
  }
  return false;
}

function conflictRules(): ReviewRule[] {
  return [
    rule({
      section: 'git',
      id: 'conflict-marker',
      needles: ['<<<<<<<', '|||||||', '>>>>>>>'],
      regex: /^(?:<{7}|\|{7}|>{7})(?= |$)/,
      severity: 'bug',
      category: 'correctness',
      title: 'Merge conflict marker left in the file',
      message: 'A merge conflict marker is added: the conflict was not resolved. Keep the intended side and remove the markers.',
      confidence: 0.95,
      reject: sameConflict,
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Tests, debugger

const TEST_RECEIVER = '(?:it|describe|test|context|suite|specify)(?:\\.describe)?';

function codeRules(): ReviewRule[] {
  return [
    rule({
      section: 'tests',
      id: 'focused-test',
      needles: ['fit', '.only', 'fcontext', 'fdescribe'],
      // Bare fit/fdescribe need a string title, so a function merely called `fit` stays quiet.
      regex: new RegExp(`(?<![\\w$.])(?:${TEST_RECEIVER}\\.only(?:\\.each)?\\s*\\(|f(?:it|describe|context)\\s*\\(\\s*['"\`])`),
      severity: 'test',
      category: 'testing',
      title: 'Focused test (.only / fit / fdescribe) left in',
      message: 'A focused test makes the runner skip every other test in the file or suite. Remove the focus before committing.',
      confidence: 0.95,
      paths: JS_FILES,
      scope: 'code',
      skipComments: true,
    }),
    rule({
      section: 'tests',
      id: 'skipped-test',
      needles: ['xit', '.skip', 'xtest', 'xcontext', 'xdescribe'],
      // Playwright's conditional `test.skip(condition, reason)` has no string title first: not flagged.
      regex: new RegExp(`(?<![\\w$.])(?:${TEST_RECEIVER}\\.skip\\s*\\(\\s*['"\`]|x(?:it|describe|context|test)\\s*\\(\\s*['"\`])`),
      severity: 'test',
      category: 'testing',
      title: 'Skipped test (.skip / xit / xdescribe) added',
      message: 'A skipped test no longer guards anything. Fix it, delete it, or record why it is skipped (a tracker issue).',
      confidence: 0.85,
      paths: JS_FILES,
      scope: 'code',
      skipComments: true,
    }),
    rule({
      section: 'debug',
      id: 'debugger',
      needles: ['debugger'],
      regex: /(?<![\w$.])debugger\s*(?:;|\}|$)/,
      // bug, not nit: like ESLint's recommended no-debugger (an error), it halts execution
      // wherever developer tools are open and is never meant to be committed.
      severity: 'bug',
      category: 'correctness',
      title: '`debugger` statement left in',
      message: 'A debugger statement pauses execution wherever developer tools are attached. Remove it.',
      confidence: 0.9,
      paths: JS_FILES,
      scope: 'code',
      skipComments: true,
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Injection

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

function notBuiltSql(match: RegExpExecArray, text: string, context: LineContext): boolean {
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

/** Shell commands built from data: exec/execSync/spawn whose first argument interpolates or concatenates. */
const SHELL_EXEC =
  /(?<![\w$.])(?:(?:child_process|childProcess|cp|shell)\s*\.\s*)?(?:exec|execSync|spawn|spawnSync)\s*\(\s*(?:`[^`]*\$\{|(?:'[^']*'|"[^"]*"|[\w$.]+(?:\([^()]*\))?)\s*\+)/;

// Upper-case keywords in any shape; lower-case only in a strictly SQL shape, so UI text such
// as "Select a file from the list" or "Delete from cart" does not count.
const SQL_STATEMENT = new RegExp(
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

function injectionRules(): ReviewRule[] {
  return [
    rule({
      section: 'injection',
      id: 'shell-exec',
      needles: ['exec', 'spawn'],
      regex: SHELL_EXEC,
      severity: 'security',
      category: 'security',
      title: 'Shell command built from an interpolated string',
      message:
        'exec/execSync (and spawn with a shell) hand the string to a shell, so data inside it can run commands. ' +
        'Use execFile/spawn with an argument array and no shell.',
      confidence: 0.85,
      paths: JS_FILES,
      skipComments: true,
      // The call itself must be code, not text inside a string, template or comment.
      reject: (match, text, context) => context.view().code[match.index] !== text[match.index],
    }),
    rule({
      section: 'injection',
      id: 'sql-concat',
      needles: ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'select', 'insert', 'update', 'delete'],
      regex: SQL_STATEMENT,
      severity: 'security',
      category: 'security',
      title: 'SQL built by concatenation or interpolation',
      message:
        'Data joined into SQL text can change the statement (SQL injection). Pass values as parameters ' +
        '(?, $1, :name) or use a tagged template that parameterizes them.',
      confidence: 0.85,
      paths: CODE_FILES,
      skipComments: true,
      reject: notBuiltSql,
    }),
  ];
}

// ---------------------------------------------------------------------------------------------

let all: ReviewRule[] | undefined;

/** Every built-in rule, compiled once per process. */
export function allBuiltinRules(): readonly ReviewRule[] {
  all ??= [...conflictRules(), ...secretRules(), ...codeRules(), ...injectionRules()];
  return all;
}

/** rule_source of the credential rules (private keys, cloud keys, tokens): pre-push checks these per commit. */
export { CREDENTIAL_RULE_SOURCES } from '../core/vocabulary.js';

/** Whether a config entry names this rule: its id, its rule_source, or its section (`secrets`, `builtin/secrets`). */
function names(entry: string, r: ReviewRule): boolean {
  const section = r.ruleSource.slice('builtin/'.length, r.ruleSource.indexOf(':'));
  return entry === r.id || entry === r.ruleSource || entry === section || entry === `builtin/${section}`;
}

/**
 * The baseline for a config value `builtinRules`: true = every rule, false = none, a list =
 * every rule except those it names (id, rule_source or section).
 */
export function builtinRules(disabled: string[] | boolean): ReviewRule[] {
  if (disabled === false) return [];
  const rules = allBuiltinRules();
  if (disabled === true) return [...rules];
  return rules.filter((r) => !disabled.some((entry) => names(entry, r)));
}

/** Entries of a `builtinRules` list that name no built-in rule (a typo would silently disable nothing). */
export function unknownBuiltinIds(list: readonly string[]): string[] {
  return list.filter((entry) => !allBuiltinRules().some((r) => names(entry, r)));
}
