/** post-merge: as post-commit, for the merge commit just made (docs/record.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'post-merge',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '[SQUASH]',
  missing: 'fail',
  script: 'post-commit',
  run: lazyHandler('post-merge'),
});
