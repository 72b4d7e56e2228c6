/** pre-receive, on a server: rejects a push while a blocking finding has no committed verdict (docs/server.md). */
import { defineHook } from '../record.js';
import { lazyHandler } from '../handlers.js';

export default defineHook({
  name: 'pre-receive',
  side: 'server',
  cached: false,
  stdin: true,
  usage: '< ref-lines',
  missing: 'fail',
  script: 'server-pre-receive',
  run: lazyHandler('pre-receive'),
});
