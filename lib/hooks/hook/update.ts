/** update, on a server that runs only that: the server gate for one ref (docs/server.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'update',
  side: 'server',
  cached: false,
  stdin: false,
  usage: 'REF OLD NEW',
  missing: 'fail',
  script: 'server-pre-receive',
  run: lazyHandler('update'),
});
