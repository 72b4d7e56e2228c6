/**
 * The model reviewer in the editor (docs/editor.md "Trust"): the server asks a model on this
 * machine only where `reviewer.model.hooks` names the editor, and never runs a reviewer program.
 * A real LSP client over stdio, a stand-in chat completions server on loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedRepo, type HookRepo } from '../kit/hooks.js';
import { startClient } from './client.js';
import { CONTROLLER, CONTROLLER_PATH, controllerFinding } from '../kit/model.js';

const CHUNK = CONTROLLER_PATH;

const asked: string[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const parts: Buffer[] = [];
  req.on('data', (b: Buffer) => parts.push(b));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { messages: Array<{ content: string }> };
    const chunk = /^Chunk: (\S+)/m.exec(body.messages.map((m) => m.content).join('\n'))?.[1] ?? '';
    asked.push(chunk);
    const finding = controllerFinding();
    const content = JSON.stringify({ summary: '', findings: chunk === CHUNK ? [finding] : [] });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  });
});

let port = 0;
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

/** A repository whose config names a loopback model for `hooks` and a reviewer program that leaves a mark. */
async function repoAskingIn(hooks: string[]): Promise<{ repo: HookRepo; mark: string }> {
  const repo = await installedRepo();
  const mark = join(repo.dir, '.git', 'program-ran');
  const program = join(repo.dir, '.git', 'program.sh');
  writeFileSync(program, `#!/bin/sh\ntouch "${mark}"\necho '{"summary":"","findings":[]}'\n`, { mode: 0o755 });
  repo.write(
    'revtrail.config.json',
    JSON.stringify({
      reviewer: {
        command: [program],
        model: { endpoint: `http://127.0.0.1:${port}/v1`, model: 'stand-in', timeoutMs: 5000, hooks },
      },
    }),
  );
  repo.commit('config');
  // The person trusts the program for this clone: the editor still does not run it.
  const trusted = await repo.cli(['trust']);
  assert.equal(trusted.code, 0, trusted.stderr);
  return { repo, mark };
}

test('a config naming the editor: the model is asked about the buffer and its finding is a diagnostic; no program runs', async () => {
  const { repo, mark } = await repoAskingIn(['editor']);
  const client = await startClient(repo.dir);
  try {
    const file = join(repo.dir, CHUNK);
    const uri = client.uri(file);
    const next = client.diagnostics(uri, (d) => d.some((x) => x.source === 'adr-0001:no-sql-in-controllers'));
    await client.open(file, CONTROLLER, 'typescript');
    const [d] = (await next).filter((x) => x.source === 'adr-0001:no-sql-in-controllers');
    assert.equal(d!.range.start.line, 1);
    assert.ok(asked.includes(CHUNK), 'the model was asked about the buffer');
    assert.equal(existsSync(mark), false, 'a trusted reviewer program is not run by the editor');
  } finally {
    assert.equal(await client.stop(), 0);
  }
});

test('a config naming only the hooks: the editor asks no model', async () => {
  const { repo, mark } = await repoAskingIn(['commit-msg', 'pre-push']);
  const before = asked.length;
  const client = await startClient(repo.dir);
  try {
    const file = join(repo.dir, CHUNK);
    const uri = client.uri(file);
    const next = client.diagnostics(uri);
    await client.open(file, CONTROLLER, 'typescript');
    const diagnostics = await next;
    assert.equal(
      diagnostics.some((x) => x.source?.startsWith('adr-0001:no-sql-in-controllers')),
      false,
      JSON.stringify(diagnostics),
    );
    assert.equal(asked.length, before, 'no request reached the model');
    assert.equal(existsSync(mark), false);
  } finally {
    assert.equal(await client.stop(), 0);
  }
});
