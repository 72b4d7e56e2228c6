/**
 * `debugger` statements left in JavaScript, TypeScript and the `<script>` parts of HTML, Vue
 * and Svelte files. Only in statement position (the start of a line, or after `;`, `{`, `}`,
 * `)`, `:`, `else`, `do`): prose that names the debugger (JSX text, a string continued with a
 * backslash, a template literal opened further up) is not code. An ESLint directive that turns
 * `no-debugger` off for the line is a documented intent: honoured, counted and said with --verbose.
 */
import type { LineContext, RuleDrop } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { JS_FILES } from '../engine/mask.js';
import { lineText } from '../engine/file-lines.js';
import { reviewMessages as m } from '../../messages/review.js';

const STATEMENT_START = /(?:^|[;{}):]|\belse|\bdo)\s*$/;

/** `// eslint-disable-next-line no-debugger` above, `// eslint-disable-line no-debugger` on the line. */
function directive(text: string, previous: string | undefined): string | null {
  const turnsOff = (t: string, kind: string) => {
    const at = t.search(new RegExp(`eslint-disable-${kind}\\b`));
    if (at === -1) return false;
    const rules = t
      .slice(at)
      .replace(/^eslint-disable-[\w-]+/, '')
      .replace(/\*\/.*$|--.*$/, '')
      .trim();
    return rules === '' || /(?:^|[\s,])no-debugger\b/.test(rules);
  };
  if (turnsOff(text, 'line')) return 'eslint-disable-line no-debugger';
  if (previous !== undefined && turnsOff(previous, 'next-line')) return 'eslint-disable-next-line no-debugger';
  return null;
}

/** JSX text: the line sits between tags (`<p>` above, no semicolon), e.g. a paragraph about the debugger. */
function jsxText(text: string, previous: string | undefined, path: string): boolean {
  if (!/\.[jt]sx$/.test(path) || text.includes(';')) return false;
  return previous !== undefined && /[^=-]>\s*$/.test(previous);
}

function notAStatement(match: RegExpExecArray, text: string, context: LineContext): boolean | RuleDrop {
  const code = context.view().code;
  if (!STATEMENT_START.test(code.slice(0, match.index))) return true;
  const line = context.added[context.index]!.line;
  const previous = lineText(context.chunk.file, line - 1);
  if (jsxText(text, previous, context.path)) return true;
  const said = directive(text, previous);
  return said ? { reason: 'disabled_inline', why: m.disabledInline(said) } : false;
}

export const family: BuiltinFamily = {
  section: 'debug',
  specs: () => [
    {
      id: 'debugger',
      regex: /(?<![\w$.])debugger\s*(?:;|\}|$)/,
      // bug, not nit: like ESLint's recommended no-debugger (an error), it halts execution
      // wherever developer tools are open and is never meant to be committed.
      severity: 'bug',
      category: 'correctness',
      title: '`debugger` statement left in',
      message: 'A debugger statement pauses execution wherever developer tools are attached. Remove it.',
      confidence: 0.9,
      paths: [...JS_FILES, '**/*.{html,htm,xhtml}'],
      equivalent: ['eslint:no-debugger'],
      scope: 'code',
      skipComments: true,
      reject: notAStatement,
    },
  ],
};
