/**
 * The model reviewer against a real HTTP server on 127.0.0.1 speaking the chat completions API
 * (docs/model.md): every answer goes through the finding contract, every
 * failure is bounded, named and counted, and the baseline still blocks a key in the same change.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { addRemote, AWS_KEY, installedRepo, type HookRepo } from '../kit/hooks.js';
import { gitEnv } from '../kit/repo.js';
import { CONTROLLER, controllerFinding } from '../kit/model.js';

type Handler = (body: ChatBody, res: ServerResponse) => void;
interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { schema?: unknown } };
}

let handler: Handler = () => {};
const requests: ChatBody[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const parts: Buffer[] = [];
  req.on('data', (b: Buffer) => parts.push(b));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatBody;
    requests.push(body);
    if (req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    handler(body, res);
  });
});
let port = 0;
let repo: HookRepo;

const chunkOf = (body: ChatBody) =>
  /^Chunk: (\S+)/m.exec(body.messages.find((m) => m.role === 'user')?.content ?? '')?.[1];

/** Answers `content` about the controller's chunk and "no findings" about any other chunk (the config file). */
const answer =
  (content: unknown): Handler =>
  (body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const about = chunkOf(body) === 'src/controllers/orders.ts' ? content : { summary: '', findings: [] };
    res.end(
      JSON.stringify({
        choices: [
          { message: { role: 'assistant', content: typeof about === 'string' ? about : JSON.stringify(about) } },
        ],
      }),
    );
  };
/** The requests about the controller's chunk. */
const asked = () => requests.filter((b) => chunkOf(b) === 'src/controllers/orders.ts');

const finding = controllerFinding;

function config(model: Record<string, unknown> = {}): void {
  const endpoint = `http://127.0.0.1:${port}/v1`;
  writeFileSync(
    `${repo.dir}/revtrail.config.json`,
    JSON.stringify({
      reviewer: {
        model: { endpoint, model: 'qwen2.5-coder:7b', timeoutMs: 3000, hooks: ['commit-msg', 'pre-push'], ...model },
      },
    }),
  );
}

async function reviewJson(): Promise<{
  code: number;
  result: {
    event: string;
    findings: Array<Record<string, unknown>>;
    dropped: Record<string, number>;
    warnings: string[];
  };
  stderr: string;
}> {
  const run = await repo.cli(['review', '--format', 'json']);
  return { code: run.code, result: JSON.parse(run.stdout), stderr: run.stderr };
}

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  repo = await installedRepo();
  repo.write('src/controllers/orders.ts', CONTROLLER);
});
after(() => {
  server.closeAllConnections();
  server.close();
});

test('a valid answer: findings with rule_source <doc-id>:<rule>; the request carries the schema, the numbered chunk and the documents; a second review asks nothing', async () => {
  config();
  handler = answer({ summary: 'one problem', findings: [finding()] });
  requests.length = 0;
  const { code, result } = await reviewJson();
  assert.equal(code, 1);
  const found = result.findings.find((f) => f.rule_source === 'adr-0001:no-sql-in-controllers');
  assert.ok(found, JSON.stringify(result.findings));
  assert.deepEqual([found.line, found.citations, found.severity], [2, ['adr-0001'], 'bug']);
  assert.equal(asked().length, 1);
  const [sent] = asked();
  assert.equal(sent!.model, 'qwen2.5-coder:7b');
  assert.equal(sent!.response_format?.type, 'json_schema');
  const user = sent!.messages.find((m) => m.role === 'user')!.content;
  assert.match(user, /\n {4}2 \+ {2}const sql = "SELECT \* FROM orders";/);
  assert.match(user, /### adr-0001: Controllers do not talk to the database/);
  assert.match(user, /allowed citations: adr-0001/);
  // The same chunk, documents, model and prompt: the cached answer.
  const before = requests.length;
  const again = await reviewJson();
  assert.equal(requests.length, before);
  assert.ok(again.result.findings.some((f) => f.rule_source === 'adr-0001:no-sql-in-controllers'));
  // --no-model: not asked, not even from the cache.
  const skipped = await repo.cli(['review', '--format', 'json', '--no-model']);
  assert.ok(
    !JSON.parse(skipped.stdout).findings.some((f: { rule_source: string }) =>
      f.rule_source.startsWith('adr-0001:no-sql'),
    ),
  );
  assert.equal(requests.length, before);
});

test('an uncited finding is reviewer/<model>:<rule>; a streamed answer is read like a plain one', async () => {
  config({ model: 'stream-model' });
  handler = (_body, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const content = JSON.stringify({
      summary: '',
      findings: [finding({ category: 'correctness', citations: [], rule: 'Unbounded Query!' })],
    });
    for (const piece of [content.slice(0, 20), content.slice(20)])
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  };
  const { result } = await reviewJson();
  assert.ok(
    result.findings.some((f) => f.rule_source === 'reviewer/stream-model:unbounded-query'),
    JSON.stringify(result.findings),
  );
});

test('contract breaks are asked again once, then dropped and counted: an unselected citation, a line off the diff, a schema violation', async () => {
  config({ model: 'contract-model' });
  handler = answer({
    summary: '',
    findings: [
      finding({ citations: ['adr-9999'] }),
      finding({ line: 40, start_line: 40, rule: 'off' }),
      finding({ severity: 'critical', rule: 'bad' }),
    ],
  });
  requests.length = 0;
  const { result } = await reviewJson();
  assert.equal(asked().length, 2, 'one re-ask');
  const reask = asked()[1]!.messages.at(-1)!.content;
  assert.match(reask, /finding 0: .*adr-9999/);
  assert.match(reask, /Allowed citations: adr-0001/);
  assert.deepEqual([result.dropped.bad_citation, result.dropped.off_diff, result.dropped.invalid], [1, 1, 1]);
  assert.equal(
    result.findings.filter(
      (f) => String(f.rule_source).includes('contract-model') || String(f.rule_source).startsWith('adr-0001:'),
    ).length,
    0,
  );
});

test('a server that fails costs one warning and the baseline still blocks a key in the same change', async () => {
  repo.write('src/settings.ts', `export const key = "${AWS_KEY}";\n`);
  try {
    const cases: Array<[string, Record<string, unknown>, Handler, RegExp]> = [
      [
        'garbage',
        { model: 'm-garbage' },
        answer('I think it looks fine!'),
        /model reviewer m-garbage answered something that is not \{summary, findings\}.*not JSON/,
      ],
      [
        '500',
        { model: 'm-500' },
        (_b, res) => res.writeHead(500).end('boom'),
        /model reviewer m-500 failed .*HTTP 500: boom/,
      ],
      ['slow', { model: 'm-slow', timeoutMs: 400 }, () => {}, /model reviewer m-slow timed out/],
      [
        'huge',
        { model: 'm-huge' },
        (_b, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          const piece = Buffer.alloc(1024 * 1024, 'x');
          let sent = 0;
          const more = () => {
            while (sent < 50 && res.write(piece)) sent++;
            if (sent < 50 && !res.destroyed)
              res.once('drain', () => {
                sent++;
                more();
              });
            else res.end();
          };
          res.on('error', () => {});
          more();
        },
        /model reviewer m-huge wrote more output than allowed/,
      ],
    ];
    for (const [name, model, h, warning] of cases) {
      config(model);
      handler = h;
      const started = Date.now();
      const { code, result } = await reviewJson();
      assert.ok(Date.now() - started < 15_000, `${name}: bounded`);
      assert.equal(code, 1, name);
      assert.ok(
        result.findings.some((f) => String(f.rule_source).startsWith('builtin/') && f.path === 'src/settings.ts'),
        `${name}: the key is found`,
      );
      assert.equal(
        result.warnings.filter((w) => /model reviewer/.test(w) && !/not asked again/.test(w)).length,
        1,
        `${name}: ${result.warnings.join(' | ')}`,
      );
      assert.ok(
        result.warnings.some((w) => warning.test(w)),
        `${name}: ${result.warnings.join(' | ')}`,
      );
    }
    // Nothing listens: refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    writeFileSync(
      `${repo.dir}/revtrail.config.json`,
      JSON.stringify({ reviewer: { model: { endpoint: `http://127.0.0.1:${deadPort}/v1`, model: 'm-down' } } }),
    );
    const { code, result } = await reviewJson();
    assert.equal(code, 1);
    assert.ok(
      result.warnings.some((w) => /model reviewer m-down could not be reached .*ECONNREFUSED/.test(w)),
      result.warnings.join(' | '),
    );
  } finally {
    rmSync(`${repo.dir}/src/settings.ts`);
  }
});

test('an endpoint off loopback is not sent anything until the person trusts that exact endpoint', async () => {
  // 0.0.0.0 is not a loopback address, so it needs trust; on Linux it reaches this machine's server.
  const endpoint = `http://0.0.0.0:${port}/v1`;
  writeFileSync(
    `${repo.dir}/revtrail.config.json`,
    JSON.stringify({ reviewer: { model: { endpoint, model: 'remote-model' } } }),
  );
  handler = answer({ summary: '', findings: [finding({ rule: 'remote' })] });
  requests.length = 0;
  const untrusted = await reviewJson();
  assert.equal(requests.length, 0);
  assert.ok(
    untrusted.result.warnings.some((w) => w.includes(`${endpoint} is not on this machine and not trusted`)),
    untrusted.result.warnings.join(' | '),
  );
  const trusted = await repo.cli(['trust']);
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.match(trusted.stdout, /sending code to http:\/\/0\.0\.0\.0:/);
  assert.equal(
    JSON.parse(readFileSync(gitEnv.REVTRAIL_TRUST_FILE!, 'utf8')).clones[
      Object.keys(JSON.parse(readFileSync(gitEnv.REVTRAIL_TRUST_FILE!, 'utf8')).clones)[0]!
    ].endpoint,
    endpoint,
  );
  const after = await reviewJson();
  assert.equal(asked().length, 1);
  assert.ok(after.result.findings.some((f) => f.rule_source === 'adr-0001:remote'));
  assert.equal((await repo.cli(['trust', '--revoke'])).code, 0);
});

test('a name is on this machine only once it resolves to loopback: localhost is asked, a *.localhost name that does not is not', async () => {
  // localhost resolves (through /etc/hosts) to a loopback address: asked at that address, no trust.
  config({ endpoint: `http://localhost:${port}/v1`, model: 'by-name' }); // a model of its own: nothing cached
  handler = answer({ summary: '', findings: [finding({ rule: 'by-name' })] });
  requests.length = 0;
  const named = await reviewJson();
  assert.equal(asked().length, 1, named.result.warnings.join(' | '));
  assert.ok(named.result.findings.some((f) => f.rule_source === 'adr-0001:by-name'));
  // A *.localhost name counts by what it resolves to (issue 35: `10.255.255.1 evil.localhost` in
  // /etc/hosts reached that host): this one resolves to nothing, so it needs trust.
  const elsewhere = `http://revtrail-nowhere.localhost:${port}/v1`;
  config({ endpoint: elsewhere });
  requests.length = 0;
  const refused = await reviewJson();
  assert.equal(requests.length, 0);
  assert.ok(
    refused.result.warnings.some((w) => w.includes(`${elsewhere} is not on this machine and not trusted`)),
    refused.result.warnings.join(' | '),
  );
});

test('hooks: commit-msg records the model finding as a trailer; the push after it asks nothing again', async () => {
  // The history so far is on the remote before the model is configured: the push below sends one commit.
  rmSync(`${repo.dir}/revtrail.config.json`);
  addRemote(repo);
  assert.equal((await repo.run(['push', '-q', 'origin', 'main'])).code, 0);
  config({ model: 'hook-model' });
  handler = answer({ summary: '', findings: [finding({ severity: 'suggestion', rule: 'hooked' })] });
  repo.git(['add', '-A']);
  requests.length = 0;
  const committed = await repo.run(['commit', '-q', '-m', 'feat: orders']);
  assert.equal(committed.code, 0, committed.stderr);
  assert.equal(asked().length, 1);
  const beforePush = requests.length;
  assert.ok(
    repo
      .trailers()
      .some((t) =>
        /,src\/controllers\/orders\.ts,2,adr-0001:hooked,architecture,suggestion,Controller builds its own SQL,OPEN,$/.test(
          t,
        ),
      ),
    repo.trailers().join('\n'),
  );
  const pushed = await repo.run(['push', '-q', 'origin', 'main']);
  assert.equal(pushed.code, 0, pushed.stderr);
  assert.equal(requests.length, beforePush, 'the push review was served from the cache');
});
