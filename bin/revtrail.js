#!/usr/bin/env node
// Thin wrapper: all behaviour lives in the bundled CLI. CommonJS (bin/package.json) and, for the
// hooks that run on every commit, a single-file bundle: neither starts Node's ES module loader
// (docs/hooks.md, "Start-up").
'use strict';
const argv = process.argv.slice(2);
if (argv[0] === 'hook' && !argv.includes('--help') && !argv.includes('-h')) {
  let start;
  try {
    start = require('../dist/cli/hook-start.cjs').startHook;
  } catch (error) {
    // Exit 1 would tell the hook script "blocked": a broken install is exit 3, a warning.
    process.stderr.write(
      `revtrail: the hook could not start (${String(error.message).split('\n')[0]}); reinstall revtrail (npm install)\n`,
    );
    process.exitCode = 3;
  }
  start?.(argv.slice(1));
} else if (argv[0] === 'lsp' && lspStart(argv.slice(1))) {
  // An editor's start: the server from its own bundle and code cache (lib/start/lsp.ts).
} else if (argv[0] === 'mine' && argv.slice(1).every((a) => a === '--all' || (a !== '' && !a.startsWith('-')))) {
  // A cached re-run is answered from one CommonJS file (lib/start/mine.ts); anything else,
  // or any doubt, is the full CLI.
  let fast = null;
  try {
    fast = require('../dist/cli/mine-fast.cjs').fastMine;
  } catch {
    // not built: the full CLI
  }
  Promise.resolve(fast ? fast(argv.slice(1)) : null).then(
    (code) => (code === null ? full() : (process.exitCode = code)),
    full,
  );
} else {
  full();
}

function full() {
  import('../dist/cli/revtrail.js').then(async ({ main }) => {
    process.exitCode = await main(argv);
  });
}

/** Starts the language server from its own start-up when it takes these arguments; false: the full CLI (--help). */
function lspStart(args) {
  let start;
  try {
    start = require('../dist/cli/hook-start.cjs');
  } catch {
    return false; // not built: the full CLI says why
  }
  if (!start.plainLspArgs(args)) return false;
  start.startLsp();
  return true;
}
