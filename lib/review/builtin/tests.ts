/** Focused and skipped tests left in. */
import type { BuiltinFamily } from './define.js';
import { JS_FILES } from '../mask.js';

const TEST_RECEIVER = '(?:it|describe|test|context|suite|specify)(?:\\.describe)?';

export const family: BuiltinFamily = {
  section: 'tests',
  specs: () => [
    {
      id: 'focused-test',
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
    },
    {
      id: 'skipped-test',
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
    },
  ],
};
