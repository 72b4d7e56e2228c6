/** prepare-commit-msg: folds the records of squashed commits in, takes copied rows out (docs/record.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'prepare-commit-msg',
  side: 'client',
  cached: true,
  stdin: false,
  usage: 'FILE [SOURCE [COMMIT]]',
  missing: 'fail',
  script: 'prepare-commit-msg',
  run: lazyHandler('prepare-commit-msg'),
});
