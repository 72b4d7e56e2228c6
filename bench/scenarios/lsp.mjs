// `revtrail lsp` (docs/editor.md): diagnostics for a 300-line edit of one file in a repository
// with the bench's 1,000-concept bundle, through a real LSP client over stdio. Warm: one server,
// the buffer changed and the diagnostics awaited (no debounce), each run; cold: a new server
// process from spawn to the first diagnostics of the opened file, beside 2x `node -e 0` plus one
// warm review (the goal). And the cold start on a real project: vue core's checkout (its 6,000
// commits, no bundle), a `debugger;` added to a file of runtime-core, when its mirror is here
// (bench/real.mjs); the history is what that start waits for longest (docs/editor.md "Start-up").
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { benchEnv, cli, median, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { borrowCached, missing, mirrorOf } from '../real.mjs';
import { generateBundle } from '../gen-bundle.mjs';
import { generateChange } from '../gen-change.mjs';

export const name = 'lsp';

async function startServer(dir) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, 'lsp'], { cwd: dir, env: benchEnv, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiting = [];
  connection.onNotification('textDocument/publishDiagnostics', (p) => {
    for (const w of waiting.splice(0)) w(p);
  });
  connection.onNotification('window/logMessage', () => {});
  connection.listen();
  const rootUri = pathToFileURL(dir).href;
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri,
    capabilities: {},
    initializationOptions: { debounceMs: 0 },
  });
  await connection.sendNotification('initialized', {});
  const initialized = ms(started);
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    await exited;
    connection.dispose();
  };
  return { connection, next, stop, started, initialized };
}

const ms = (from) => Number(process.hrtime.bigint() - from) / 1e6;

/** The editor opens `uri`, its buffer `text`. */
const openBuffer = (server, uri, text) =>
  server.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text },
  });

/**
 * Cold starts of `dir` with `text` opened as `uri`, each beside a `node -e 0` of the same moment
 * (the machine's load weighs on both alike); the first start fills the caches and is not counted.
 */
async function coldStarts(dir, uri, text, runs) {
  const coldTimes = [];
  const nodeTimes = [];
  for (let i = 0; i <= runs; i++) {
    const node0 = timeOnce(process.execPath, ['-e', '0']);
    const cold = await startServer(dir);
    const diagnostics = cold.next();
    await openBuffer(cold, uri, text);
    await diagnostics;
    const took = ms(cold.started);
    if (process.env.LSP_BENCH_DEBUG)
      console.error(`initialized ${cold.initialized.toFixed(0)} ms, diagnostics ${took.toFixed(0)} ms`);
    await cold.stop();
    if (i > 0) {
      coldTimes.push(took);
      nodeTimes.push(node0);
    }
  }
  return { cold: median(coldTimes), node0: median(nodeTimes) };
}

/** The cold start on vue core's checkout, a `debugger;` added to a file of runtime-core (a finding). */
async function realProject(runs) {
  const slug = 'vuejs/core';
  const scenario = 'lsp cold start, vue core (6,000 commits, no bundle), a finding in runtime-core';
  const mirror = mirrorOf(slug);
  if (!mirror) return [row({ scenario, value: null, kind: 'info', note: missing(slug) })];
  // A checkout of its own: real-commits moves vue-core's between commits.
  const dir = borrowCached('vue-core-lsp', mirror, 'HEAD');
  const file = join(dir, 'packages', 'runtime-core', 'src', 'component.ts');
  const text = `${readFileSync(file, 'utf8')}debugger;\n`;
  const { cold, node0 } = await coldStarts(dir, pathToFileURL(file).href, text, runs);
  return [row({ scenario, value: cold, floorName: 'node -e 0', floor: node0, kind: 'info' })];
}

export async function run({ runs }) {
  const dir = tmp('revtrail-bench-lsp-');
  try {
    const [path] = generateChange(dir, { files: 1, lines: 300 });
    generateBundle(join(dir, '.okfw'), { concepts: 1000, rulesPer: 2 });
    const file = join(dir, path);
    const uri = pathToFileURL(file).href;
    // A file written in the last two seconds is not known by its stat() signature (git's racy
    // case, docs/bundle.md "Cache"), so no load would keep the bundle's snapshot; an editor
    // restarts its server long after the bundle was written, not within two seconds of it.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    // A call concept 0's rule forbids, in the folder it governs: the edit has a finding to show.
    const text = `${readFileSync(file, 'utf8')}forbidden0_0(value);\n`;

    // Warm: one server; each run is a change of the buffer until its diagnostics arrive.
    const server = await startServer(dir);
    let diagnostics = server.next();
    await openBuffer(server, uri, text);
    const first = await diagnostics;
    let version = 1;
    const warmTimes = [];
    for (let i = 0; i <= runs; i++) {
      version++;
      diagnostics = server.next();
      const from = process.hrtime.bigint();
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text: `${text}// edit ${i}\n` }],
      });
      await diagnostics;
      if (i > 0) warmTimes.push(ms(from)); // the first change is the warm-up
    }
    await server.stop();
    const warm = median(warmTimes);

    // Cold: spawn, initialize, open, first diagnostics; the bundle cache of the runs before it
    // is there, as it is when an editor restarts the server.
    const { cold, node0 } = await coldStarts(dir, uri, text, runs);
    // One review of the same edit by the CLI, process and bundle cache included, for comparison.
    const patch = join(dir, 'edit.diff');
    writeFileSync(file, text);
    writeFileSync(patch, execFileSync('git', ['diff', 'HEAD', '--', path], { cwd: dir, env: benchEnv }));
    const cliReview = timeMedian(runs, () =>
      timeOnce(process.execPath, [cli, 'review', '--diff', patch, '--format', 'json'], { cwd: dir, okCodes: [0, 1] }),
    );
    const note = `${first.diagnostics.length} diagnostics on the 300-line edit`;
    return [
      ...(await realProject(runs)),
      row({
        scenario: 'lsp warm: diagnostics for a 300-line edit, 1k concepts',
        value: warm,
        floorName: 'none',
        floor: null,
        target: 150,
        kind: 'ms',
        note,
      }),
      row({
        scenario: 'lsp cold start to the first diagnostics',
        value: cold,
        floorName: 'node -e 0',
        floor: node0,
        target: Math.round(2 * node0 + warm),
        kind: 'ms',
        note: `goal: 2x node -e 0 + one warm review = ${Math.round(2 * node0 + warm)} ms`,
      }),
      row({
        scenario: 'revtrail review --diff of the same edit (CLI, for comparison)',
        value: cliReview,
        floorName: 'node -e 0',
        floor: node0,
        kind: 'info',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
