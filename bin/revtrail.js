#!/usr/bin/env node
// Thin wrapper: all behaviour lives in the bundled CLI. CommonJS (bin/package.json) and, for the
// hooks that run on every commit, a single-file bundle: neither starts Node's ES module loader
// (docs/hooks.md, "Start-up").
'use strict';
const argv = process.argv.slice(2);
if (argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h')) {
  require('../dist/cli/hook-start.cjs').startHook(argv.slice(1));
} else {
  import('../dist/cli/revtrail.js').then(async ({ main }) => {
    process.exitCode = await main(argv);
  });
}
