/** Debugger statements left in. */
import type { BuiltinFamily } from './define.js';
import { JS_FILES } from '../mask.js';

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
      paths: JS_FILES,
      scope: 'code',
      skipComments: true,
    },
  ],
};
