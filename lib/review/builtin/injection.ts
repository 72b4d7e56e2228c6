/** Injection: shell commands and SQL text built from data. */
import type { BuiltinFamily } from './define.js';
import { CODE_FILES, JS_FILES } from '../mask.js';
import { notBuiltSql, SQL_STATEMENT } from './sql.js';

/** Shell commands built from data: exec/execSync/spawn whose first argument interpolates or concatenates. */
const SHELL_EXEC =
  /(?<![\w$.])(?:(?:child_process|childProcess|cp|shell)\s*\.\s*)?(?:exec|execSync|spawn|spawnSync)\s*\(\s*(?:`[^`]*\$\{|(?:'[^']*'|"[^"]*"|[\w$.]+(?:\([^()]*\))?)\s*\+)/;


export const family: BuiltinFamily = {
  section: 'injection',
  specs: () => [
    {
      id: 'shell-exec',
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
    },
    {
      id: 'sql-concat',
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
    },
  ],
};
