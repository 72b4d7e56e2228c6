/**
 * A linter's own disable comments, read as the team's stated intent for a rule that names that
 * linter rule as `equivalent` (docs/review.md "Allow comments and excludes"): where a line
 * already says `eslint-disable-next-line no-console`, the decision it turns off is the same one.
 * Each linter's syntax is read as that linter reads it: where the comment stands (the line, or
 * the line above) and how it lists rules. A directive that names no rule turns every rule off.
 */

/** A linter directive found, as the review lists it under `allowed`. */
export interface LinterDirective {
  /** The line the directive is on. */
  line: number;
  /** The directive as written (`eslint-disable-next-line no-console`), for the output. */
  said: string;
  /** The equivalent it matched (`eslint:no-console`). */
  equivalent: string;
}

interface Syntax {
  /** The linters whose equivalents this syntax answers (`eslint:…`, `oxlint:…`). */
  linters: readonly string[];
  /** A directive on the flagged line (`same`) or on the line above (`above`), with its rules (empty: every rule). */
  read(text: string, where: 'same' | 'above'): { said: string; rules: string[] } | null;
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((r) => r.trim())
    .filter(Boolean);

/** ESLint (and oxlint, which reads its comments): `eslint-disable-line` here, `eslint-disable-next-line` above; `-- why` ends the list. */
function eslintLike(prefix: string): Syntax['read'] {
  const same = new RegExp(`${prefix}-disable-line\\b([^\\n]*)`);
  const above = new RegExp(`${prefix}-disable-next-line\\b([^\\n]*)`);
  return (text, where) => {
    const match = (where === 'same' ? same : above).exec(text);
    if (!match) return null;
    const rules = list(match[1]!.split('--')[0]!.replace(/\*\/.*$/, ''));
    return { said: match[0].replace(/\s*(?:\*\/|-->).*$/, '').trim(), rules };
  };
}

const SYNTAXES: readonly Syntax[] = [
  { linters: ['eslint'], read: eslintLike('eslint') },
  { linters: ['oxlint'], read: eslintLike('(?:oxlint|eslint)') },
  {
    // Ruff, flake8 and pycodestyle: `# noqa` or `# noqa: T201, E501` on the line itself.
    linters: ['ruff', 'flake8', 'pycodestyle', 'pyflakes'],
    read(text, where) {
      if (where !== 'same') return null;
      const match = /#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?/i.exec(text);
      return match ? { said: match[0].trim(), rules: list(match[1]) } : null;
    },
  },
  {
    // Pylint: `# pylint: disable=print-statement` on the line, `# pylint: disable-next=…` above.
    linters: ['pylint'],
    read(text, where) {
      const re = where === 'same' ? /#\s*pylint:\s*disable=([\w\-, ]+)/ : /#\s*pylint:\s*disable-next=([\w\-, ]+)/;
      const match = re.exec(text);
      return match ? { said: match[0].trim(), rules: list(match[1]) } : null;
    },
  },
  {
    // golangci-lint: `//nolint` or `//nolint:forbidigo,gocritic` on the line, or alone on the line above (a statement's own line).
    linters: ['golangci', 'golangci-lint'],
    read(text, where) {
      const match = /\/\/\s*nolint(?::([\w\-,]+))?/.exec(text);
      if (!match || (where === 'above' && !/^\s*\/\//.test(text))) return null;
      return { said: match[0].trim(), rules: list(match[1]) };
    },
  },
  {
    // RuboCop: `# rubocop:disable RSpec/Focus` (or `todo`) on the line.
    linters: ['rubocop'],
    read(text, where) {
      if (where !== 'same') return null;
      const match = /#\s*rubocop:(?:disable|todo)\s+([\w/, ]+)/.exec(text);
      return match ? { said: match[0].trim(), rules: list(match[1]) } : null;
    },
  },
  {
    // Biome: `// biome-ignore lint/suspicious/noConsole: why` on the line above.
    linters: ['biome'],
    read(text, where) {
      if (where !== 'above') return null;
      const match = /biome-ignore\s+(lint(?:\/[\w]+)*)/.exec(text);
      return match ? { said: match[0].trim(), rules: [match[1]!] } : null;
    },
  },
];

/** Whether a directive's rule is the equivalent's (`vitest/no-disabled-tests`; biome by its last segment too). */
function sameRule(listed: string, wanted: string): boolean {
  if (listed === wanted) return true;
  const last = (r: string) => r.slice(r.lastIndexOf('/') + 1);
  return listed.startsWith('lint') && last(listed) === last(wanted);
}

/**
 * The directive on `line` (or the line above) that turns off one of `equivalents`, or null.
 * `textOf`: a line's text in the file's new version, undefined where it is not known.
 */
export function linterDirectiveFor(
  equivalents: readonly string[],
  line: number,
  textOf: (line: number) => string | undefined,
): LinterDirective | null {
  if (!equivalents.length) return null;
  for (const [where, at] of [
    ['same', line],
    ['above', line - 1],
  ] as const) {
    const text = textOf(at);
    if (text === undefined) continue;
    for (const equivalent of equivalents) {
      const colon = equivalent.indexOf(':');
      const linter = equivalent.slice(0, colon);
      const rule = equivalent.slice(colon + 1);
      for (const syntax of SYNTAXES) {
        if (!syntax.linters.includes(linter)) continue;
        const found = syntax.read(text, where);
        if (found && (found.rules.length === 0 || found.rules.some((r) => sameRule(r, rule))))
          return { line: at, said: found.said, equivalent };
      }
    }
  }
  return null;
}
