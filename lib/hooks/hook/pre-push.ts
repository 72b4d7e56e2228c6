/** pre-push: reviews what the push adds and blocks it while a blocking finding has no verdict (docs/hooks.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'pre-push',
  side: 'client',
  cached: true,
  stdin: true,
  usage: 'REMOTE URL < ref-lines',
  missing: 'fail',
  script: 'pre-push',
  run: lazyHandler('pre-push'),
});
