/**
 * `revtrail lsp` through a real LSP client over stdio (docs/editor.md): one server process for
 * the whole file, three repositories (a bundle rule, a broken configuration, a hostile bundle).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodeAction, Hover, Location } from 'vscode-languageserver-protocol';
import { runCli, throwawayRepos, type TestRepo } from '../kit/repo.js';
import { startClient, type TestClient } from './client.js';

const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
const RULE = 'adr-0007:no-console-log';
const ADR = `---
type: Architecture Decision
id: adr-0007
title: Services log through the logger
paths: ["src/**"]
rules:
  - id: no-console-log
    pattern: 'console\\.log\\('
    severity: bug
    category: patterns
    title: console.log in a service
    message: Log through src/log.ts.
  - id: no-db-query
    ast: db.query($$$)
    language: typescript
    severity: bug
    title: A service queries the database
---
# Services log through the logger

## Context

Output on stdout is lost in production.

## Decision

Every service logs through \`src/log.ts\`, which adds the request id and goes to the collector.

## Consequences

None worth a paragraph.
`;
const APP = 'export function run() {\n  return 1;\n}\n';
const APP_LOGGING = 'export function run() {\n  console.log("ran");\n  return 1;\n}\n';

/** The markdown of a hover (the server always answers with one MarkupContent). */
function hoverText(hover: Hover | null): string {
  assert.ok(hover, 'a hover');
  return (hover.contents as { value: string }).value;
}

const repos = throwawayRepos();
let client: TestClient;
let repo: TestRepo;

before(async () => {
  repo = repos();
  repo.commit('Bundle and app', {
    '.okfw/index.md': '- [Logging](decisions/adr-0007.md)\n',
    '.okfw/decisions/adr-0007.md': ADR,
    'src/app.ts': APP,
  });
  client = await startClient(repo.dir);
});
after(async () => {
  assert.equal(await client?.stop(), 0, 'shutdown then exit ends the server with 0');
});

describe('diagnostics', () => {
  test('a bundle rule: range of the finding, the rule source, the cited document; an edit takes it away', async () => {
    const file = join(repo.dir, 'src/app.ts');
    const uri = client.uri(file);
    let next = client.diagnostics(uri, (d) => d.length > 0);
    await client.open(file, APP_LOGGING, 'typescript');
    const [d, ...rest] = await next;
    assert.equal(rest.length, 0);
    assert.equal(d!.source, RULE);
    assert.deepEqual(d!.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 21 } });
    assert.equal(d!.severity, 1);
    assert.match(String(d!.message), /console\.log in a service\nLog through src\/log\.ts\./);
    assert.match(String(d!.code), /^rf-[0-9a-f]{10}$/);
    assert.equal(d!.codeDescription?.href, client.uri(join(repo.dir, '.okfw/decisions/adr-0007.md')));

    next = client.diagnostics(uri);
    await client.change(file, APP);
    assert.deepEqual(await next, []);
    next = client.diagnostics(uri, (ds) => ds.length === 1);
    await client.change(file, APP_LOGGING);
    await next;
  });

  test('a key in a new file: a credential diagnostic on its line, and in a file HEAD has too', async () => {
    const file = join(repo.dir, 'src/keys.ts');
    const uri = client.uri(file);
    const next = client.diagnostics(uri, (d) => d.length > 0);
    await client.open(file, `// config\nexport const id = '${AWS}';\n`, 'typescript');
    const diagnostics = await next;
    const key = diagnostics.find((d) => d.source === 'builtin/secrets:aws-access-key');
    assert.ok(key, JSON.stringify(diagnostics));
    assert.equal(key.range.start.line, 1);
    assert.equal(key.range.end.line, 1);
    assert.equal(key.severity, 1);
    assert.equal(key.codeDescription, undefined, 'the baseline cites no document');
  });

  test('a syntax-tree rule reads the unsaved buffer, not the file on disk', async () => {
    const file = join(repo.dir, 'src/store.ts');
    repo.write('src/store.ts', 'export const x = 1;\n');
    const uri = client.uri(file);
    const next = client.diagnostics(uri, (d) => d.length > 0);
    await client.open(
      file,
      'export const x = 1;\n// db.query(a) in a comment is no call\nexport const rows = db.query(sql);\n',
      'typescript',
    );
    const [d, ...rest] = await next;
    assert.equal(rest.length, 0, JSON.stringify(rest));
    assert.equal(d!.source, 'adr-0007:no-db-query');
    assert.equal(d!.range.start.line, 2);
    await client.close(file);
  });
});

describe('hover and definition', () => {
  test('hover shows the cited document title and its Decision paragraph', async () => {
    const uri = client.uri(join(repo.dir, 'src/app.ts'));
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    const value = hoverText(hover);
    assert.match(value, /\*\*Services log through the logger\*\*/);
    assert.match(
      value,
      /Every service logs through `src\/log\.ts`, which adds the request id and goes to the collector\./,
    );
    assert.doesNotMatch(value, /Output on stdout is lost/);
    const none = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 0 },
    });
    assert.equal(none, null);
  });

  test('go-to-definition opens the document at its rule', async () => {
    const uri = client.uri(join(repo.dir, 'src/app.ts'));
    const locations = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri },
      position: { line: 1, character: 3 },
    });
    assert.equal(locations.length, 1);
    const file = fileURLToPath(locations[0]!.uri);
    assert.equal(file, join(repo.dir, '.okfw/decisions/adr-0007.md'));
    const line = readFileSync(file, 'utf8').split('\n')[locations[0]!.range.start.line]!;
    assert.match(line, /pattern: 'console/);
  });
});

describe('code actions', () => {
  const actionsAt = (uri: string, line: number) =>
    client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      context: { diagnostics: [] },
    });

  test('a bundle finding offers an allow comment, three verdicts and its decision', async () => {
    const uri = client.uri(join(repo.dir, 'src/app.ts'));
    const titles = (await actionsAt(uri, 1)).map((a) => a.title);
    assert.equal(titles.length, 5, titles.join('\n'));
    assert.match(titles[0]!, /allow adr-0007:no-console-log here/);
    assert.match(titles.join('\n'), /queue REJECT for rf-/);
    assert.match(titles.join('\n'), /queue ACKNOWLEDGE for rf-/);
    assert.match(titles.join('\n'), /queue DEFER for rf-/);
    assert.match(titles[4]!, /open the decision adr-0007/);
    assert.deepEqual(await actionsAt(uri, 0), []);
  });

  test('open the decision: the server asks the client to show the document at the rule', async () => {
    const uri = client.uri(join(repo.dir, 'src/app.ts'));
    const open = (await actionsAt(uri, 1)).find((a) => /open the decision/.test(a.title))!;
    const result = await client.request<{ success: boolean }>('workspace/executeCommand', open.command);
    assert.deepEqual(result, { success: true });
    const shown = client.showDocuments.at(-1)!;
    assert.equal(shown.uri, client.uri(join(repo.dir, '.okfw/decisions/adr-0007.md')));
    assert.equal(shown.takeFocus, true);
    assert.ok(shown.selection!.start.line > 0);
  });

  test('allow: the comment goes above the line in the file’s syntax with the reason, and the finding goes', async () => {
    const file = join(repo.dir, 'src/app.ts');
    const uri = client.uri(file);
    const allow = (await actionsAt(uri, 1)).find((a) => /allow/.test(a.title))!;
    const next = client.diagnostics(uri);
    const args = { ...(allow.command!.arguments![0] as object), reason: 'the CLI entry prints its result' };
    const applied = await client.request<{ applied: boolean }>('workspace/executeCommand', {
      command: allow.command!.command,
      arguments: [args],
    });
    assert.deepEqual(applied, { applied: true });
    assert.equal(
      client.text(file),
      'export function run() {\n  // revtrail-allow adr-0007:no-console-log the CLI entry prints its result\n  console.log("ran");\n  return 1;\n}\n',
    );
    assert.deepEqual(await next, []);
  });

  test('a verdict: queued where revtrail verdict queues it, and the answered finding goes', async () => {
    const file = join(repo.dir, 'src/keys.ts');
    const uri = client.uri(file);
    const actions = await actionsAt(uri, 1);
    // A credential: only the answers the gate takes (REJECT by default), and no allow comment when... the default honours it.
    const titles = actions.map((a) => a.title);
    assert.ok(!titles.some((t) => /ACKNOWLEDGE|DEFER/.test(t)), titles.join('\n'));
    const reject = actions.find((a) => /queue REJECT/.test(a.title))!;
    const id = (reject.command!.arguments![0] as { id: string }).id;
    // The editor's findings are the ones `revtrail verdict` knows, in a terminal too.
    const listed = await runCli(['verdict', '--list'], { cwd: repo.dir });
    assert.match(listed.stdout, new RegExp(`${id} +src/keys\\.ts:2 .*editor review, not committed`));

    // Without a rationale nothing is queued and the server says how.
    assert.equal(await client.request('workspace/executeCommand', reject.command), null);
    assert.match(client.shown.at(-1)!, new RegExp(`revtrail verdict ${id} REJECT`));

    const next = client.diagnostics(uri, (d) => !d.some((x) => x.code === id));
    const args = { ...(reject.command!.arguments![0] as object), rationale: 'a test fixture: `npm test` passes' };
    const queued = await client.request<{ id: string; verdict: string }>('workspace/executeCommand', {
      command: reject.command!.command,
      arguments: [args],
    });
    assert.deepEqual(queued, { id, verdict: 'REJECT' });
    const queue = readFileSync(join(repo.dir, '.git/revtrail/verdicts.jsonl'), 'utf8');
    const entry = JSON.parse(queue.trim().split('\n').at(-1)!);
    assert.equal(entry.id, id);
    assert.equal(entry.verdict, 'REJECT');
    assert.equal(entry.row.file, 'src/keys.ts');
    await next;
  });
});

describe('a bad input leaves the server answering', () => {
  test('a configuration that is not JSON: one diagnostic on it, and the baseline still runs', async () => {
    const bad = repos();
    bad.commit('Broken config', { 'revtrail.config.json': '{\n  "knowledge": ".okfw",\n  oops\n}\n', 'a.txt': 'a\n' });
    const config = client.uri(join(bad.dir, 'revtrail.config.json'));
    const file = join(bad.dir, 'env.sh');
    const onConfig = client.diagnostics(config);
    const onFile = client.diagnostics(client.uri(file), (d) => d.length > 0);
    await client.open(file, `export AWS_ACCESS_KEY_ID=${AWS}\n`, 'shellscript');
    const [problem, ...more] = await onConfig;
    assert.equal(more.length, 0);
    assert.match(String(problem!.message), /revtrail\.config\.json:3:3 is not valid JSON/);
    assert.equal(problem!.range.start.character, 2);
    assert.equal(problem!.range.start.line, 2);
    assert.equal((await onFile)[0]!.source, 'builtin/secrets:aws-access-key');

    // Fixed and saved: the policy is read again and the diagnostic goes; the open buffer is reviewed again.
    const fixed = '{\n  "knowledge": ".okfw"\n}\n';
    bad.write('revtrail.config.json', fixed);
    // Open, the file shows its problem still (the session read it before), beside its own findings.
    const stillThere = client.diagnostics(config);
    await client.open(join(bad.dir, 'revtrail.config.json'), fixed, 'json');
    assert.equal((await stillThere).length, 1);
    const cleared = client.diagnostics(config);
    const again = client.diagnostics(client.uri(file), (d) => d.length > 0);
    await client.save(join(bad.dir, 'revtrail.config.json'));
    assert.deepEqual(await cleared, []);
    await again;
  });

  test('a hostile bundle (backtracking patterns, a broken frontmatter): the key is still found, hover still answers', async () => {
    const hostile = repos();
    hostile.commit('Hostile bundle', {
      '.okfw/index.md': '- [Evil](evil.md)\n- [Broken](broken.md)\n',
      '.okfw/evil.md':
        '---\ntype: Rule\nid: evil\npaths: ["**"]\nrules:\n  - {id: a, pattern: "(?:a{1,16}){2,16}$", flags: i, severity: nit, category: style, title: evil}\n  - {id: b, pattern: "(a+)+$", severity: nit, category: style, title: evil too}\n---\nEvil.\n',
      '.okfw/broken.md': '---\ntype: [unclosed\nid: &a [*a, *a]\n---\nBroken.\n',
    });
    const file = join(hostile.dir, 'src/a.txt');
    const uri = client.uri(file);
    const next = client.diagnostics(uri, (d) => d.some((x) => x.source === 'builtin/secrets:aws-access-key'));
    const started = Date.now();
    await client.open(file, `${'a'.repeat(3990)}!\nkey = ${AWS}\n`);
    // While the backtracking patterns run to their limit (in a worker, docs/review.md "Time"), the server answers.
    await client.request('textDocument/hover', {
      textDocument: { uri: client.uri(join(repo.dir, 'src/app.ts')) },
      position: { line: 0, character: 0 },
    });
    const answered = Date.now() - started;
    const diagnostics = await next;
    const reviewed = Date.now() - started;
    assert.ok(reviewed >= 1000, `the review took ${reviewed} ms: the evil pattern did not run to its limit`);
    assert.ok(answered < reviewed, `a request was answered after ${answered} ms, the review took ${reviewed} ms`);
    assert.ok(
      client.logs.some((l) => /evil:a took over \d+ ms on src\/a\.txt and was skipped/.test(l)),
      client.logs.join('\n'),
    );
    assert.equal(diagnostics.find((d) => d.source === 'builtin/secrets:aws-access-key')!.range.start.line, 1);
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 3 },
    });
    assert.match(hoverText(hover), /builtin\/secrets:aws-access-key/);
  });

  test('a repository inside the workspace one is its own: its configuration, not the outer one, is read', async () => {
    // The server knows the workspace's repository from the start; a buffer in a folder with a
    // `.git` of its own below it is asked of git, not taken for the outer repository.
    const inner = join(repo.dir, 'vendor/inner');
    repo.git(['init', '-q', inner]);
    repo.write('vendor/inner/revtrail.config.json', '{\n  "knowledge": ".okfw",\n  oops\n}\n');
    const config = client.diagnostics(client.uri(join(inner, 'revtrail.config.json')));
    await client.open(join(inner, 'src/b.ts'), 'export const b = 1;\n');
    const [problem] = await config;
    assert.match(String(problem!.message), /revtrail\.config\.json:3:3 is not valid JSON/);
  });
});

test('the server ends with its input: exit 1 without a shutdown, as the protocol says, with the flags clients add', async () => {
  const run = await runCli(['lsp', '--stdio', '--clientProcessId=1'], { cwd: repo.dir, input: '', timeoutMs: 15_000 });
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, '');
});

test('shutdown right after the first diagnostics waits for the record write: no temp file is left in the git dir', async () => {
  const fresh = repos();
  fresh.commit('Bundle and app', {
    '.okfw/index.md': '- [Logging](decisions/adr-0007.md)\n',
    '.okfw/decisions/adr-0007.md': ADR,
    'src/app.ts': APP,
  });
  const state = join(fresh.dir, '.git', 'revtrail');
  const trace = join(fresh.dir, '.git', 'lsp-trace.log');
  for (let i = 0; i < 3; i++) {
    writeFileSync(trace, '');
    const editor = await startClient(fresh.dir, { env: { GIT_TRACE: trace } });
    const file = join(fresh.dir, 'src/app.ts');
    const shown = editor.diagnostics(editor.uri(file), (d) => d.length > 0);
    await editor.open(file, APP_LOGGING, 'typescript');
    await shown;
    // As an editor closing at once: shutdown and exit while the findings are being remembered.
    assert.equal(await editor.stop(), 0);
    // A cold start asks git for the repository once, and the first review takes the history the
    // start-up began to read (docs/editor.md "Start-up"): one `git log`, not a second; a start at
    // the same HEAD takes it from the history cache, without one (docs/record.md "The history cache").
    const commands = [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git (\S+)/g)].map((m) => m[1]!);
    assert.equal(commands.filter((c) => c === 'log').length, i === 0 ? 1 : 0, `round ${i + 1}: ${commands.join(' ')}`);
    assert.equal(commands.filter((c) => c === 'rev-parse').length, 1, commands.join(' '));
    assert.deepEqual(
      readdirSync(state).filter((f) => f.includes('.revtrail-tmp-')),
      [],
      `round ${i + 1}`,
    );
  }
  assert.ok(readdirSync(state).includes('last-review.json'), "the editor's findings were remembered");
});
