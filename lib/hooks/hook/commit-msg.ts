/** commit-msg: lints Review-Finding trailers, reviews what the commit adds, records its findings (docs/record.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'commit-msg',
  side: 'client',
  cached: true,
  stdin: false,
  usage: 'FILE',
  missing: 'fail',
  run: lazyHandler('commit-msg'),
});
