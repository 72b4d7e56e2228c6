/** post-commit: a queued verdict leaves the queue once the commit just made carries it (docs/record.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'post-commit',
  side: 'client',
  cached: true,
  stdin: false,
  usage: '',
  missing: 'fail',
  script: 'post-commit',
  run: lazyHandler('post-commit'),
});
