/** Injection: shell commands and SQL text built from data (the heuristics: ./shell.ts, ./sql.ts). */
import type { BuiltinFamily } from './define.js';
import { CODE_FILES, JS_FILES } from '../engine/mask.js';
import { notBuiltSql, SQL_KEYWORD } from './sql.js';
import { notBuiltShell } from './shell.js';
import { shellAliases } from './shell-aliases.js';

export const family: BuiltinFamily = {
  section: 'injection',
  specs: () => [
    {
      id: 'shell-exec',
      regex:
        /(?<![\w$.])(?:(?:child_process|childProcess|cp|shell)\s*\.\s*|require\(\s*['"](?:node:)?child_process['"]\s*\)\s*\.\s*)?(?:exec|execSync|spawn|spawnSync)\s*\(|\b(?:os\s*\.\s*(?:system|popen)|subprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(/g,
      severity: 'security',
      category: 'security',
      title: 'Shell command built from an interpolated string',
      message:
        'exec/execSync, os.system (and spawn or subprocess with a shell) hand the string to a shell, so data inside it can run commands. ' +
        'Pass the program and its arguments as an array, without a shell (execFile/spawn, subprocess.run([...])).',
      confidence: 0.85,
      paths: [...JS_FILES, '**/*.py'],
      skipComments: true,
      reject: notBuiltShell,
      fileCalls: (file, path) => shellAliases(file, path).pattern,
    },
    {
      id: 'sql-concat',
      // A copy: the runner moves lastIndex of its rule's regex.
      regex: new RegExp(SQL_KEYWORD.source, 'g'),
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
