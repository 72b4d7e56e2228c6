/**
 * The demo's stand-in for a local model (docs/model.md): NOT a model. A tiny
 * deterministic server on 127.0.0.1 that speaks the same chat completions API as llama-server or
 * Ollama, so the demo can show the whole loop (model finding → trailer → verdict → candidate)
 * on any machine. It flags money formatted from floating-point cents, a rule no built-in and no
 * document holds: what a model adds to the knowledge loop.
 *
 * It runs as its own process (the demo drives git synchronously) and prints its port.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export const STAND_IN_MODEL = 'demo-stand-in';

// Plain JavaScript for `node -e`: no files to install beside the CLI bundle.
const SERVER = String.raw`
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (b) => (body += b));
  req.on('end', () => {
    let findings = [];
    let path = '';
    try {
      const user = JSON.parse(body).messages.find((m) => m.role === 'user').content;
      path = (/^Chunk: (\S+)/m.exec(user) || [])[1] || '';
      for (const line of user.split('\n')) {
        const m = /^ *(\d+) \+.*\/ ?100\)\.toFixed\(2\)/.exec(line);
        if (m) findings.push({
          path, start_line: Number(m[1]), line: Number(m[1]), severity: 'bug', category: 'correctness',
          title: 'Money formatted from floating-point cents',
          body: 'cents / 100 is a binary fraction: 1.005 rounds down. Format integer cents (Intl.NumberFormat with the currency, or integer division and padding).',
          citations: [], suggestion_code: null, confidence: 0.9, rule: 'money-as-float',
        });
      }
    } catch {}
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ summary: findings.length ? 'money as float' : '', findings }) } }] }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

export interface StandIn {
  endpoint: string;
  stop(): void;
}

/** Starts the stand-in; it ends when stopped or when this process's end closes its stdin. */
export function startStandIn(): Promise<StandIn> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (port) resolve({ endpoint: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`the stand-in model server exited (${code})`)));
  });
}
