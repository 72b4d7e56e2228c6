/**
 * The command registry (lib/cli/commands/index.ts) is the only list of commands: every command
 * file is in it, --help and the README's table name every command in it, and a command file
 * loads at start-up only what --help loads anyway (docs/cli.md "Commands").
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, projectRoot, runCli } from '../kit/repo.js';
import { commands } from '../../lib/cli/commands/index.js';
import { commandName, type CommandModule } from '../../lib/cli/command.js';

const folder = join(projectRoot, 'lib', 'cli', 'commands');
const files = readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
const repo = makeRepo();
after(() => repo.cleanup());

test('every command file is in the registry, as the command its file is named after, and nothing else is', async () => {
  assert.ok(files.length >= 15, files.join(' '));
  const missing: string[] = [];
  for (const file of files) {
    const record = (
      (await import(`../../lib/cli/commands/${file.replace(/\.ts$/, '.js')}`)) as { default: CommandModule<any> }
    ).default;
    assert.equal(commandName(record), file.replace(/\.ts$/, ''), `${file} holds the command it is named after`);
    if (!commands.includes(record)) missing.push(file);
  }
  assert.deepEqual(missing, [], 'command files that are not in lib/cli/commands/index.ts');
  assert.equal(commands.length, files.length, 'the registry lists only the command files');
  assert.equal(new Set(commands.map(commandName)).size, commands.length, 'names are unique');
});

test('each command and subcommand has its one description, one line', () => {
  const all = commands.flatMap((c) => [c, ...(c.subcommands ?? [])]);
  for (const c of all) assert.match(c.describe, /^\S[^\n]*\S$/, c.command);
  for (const c of commands) assert.equal(Boolean(c.run), !c.subcommands, `${c.command}: a handler, or subcommands`);
});

test('revtrail --help lists every command of the registry with its description', async () => {
  const r = await runCli(['--help'], { cwd: repo.dir, env: { COLUMNS: '400' } });
  assert.equal(r.code, 0, r.stderr);
  for (const c of commands)
    assert.match(
      r.stdout,
      new RegExp(
        `^ {2}revtrail ${commandName(c)} +${c.describe.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        'm',
      ),
      commandName(c),
    );
});

test("the README's command table names every command of the registry", () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('\n## Commands\n'));
  const rows = table
    .slice(0, table.indexOf('\n## ', 5))
    .split('\n')
    .filter((l) => l.startsWith('| `revtrail '));
  const named = new Set(
    rows.flatMap((row) => [...row.split(' | ')[0]!.matchAll(/`(?:revtrail )?([a-z][\w-]*)/g)].map((m) => m[1]!)),
  );
  const unnamed = commands.map(commandName).filter((name) => !named.has(name));
  assert.deepEqual(unnamed, [], 'commands missing from the README table');
});

test('a command file imports at load time only what --help loads anyway (stages load in its handler)', () => {
  // --help loads every command record; the work a handler does is in its handler module
  // (lib/cli/run/), which the registry's lazy half (lib/cli/handlers.ts) loads when it runs.
  const allowed = new Set([
    '../command.js',
    '../handlers.js',
    '../options.js',
    '../../core/errors.js',
    '../../core/output.js',
    '../../messages/cli.js',
    '../../report/formats.js',
    // The hook records (names, lazy handlers) are `revtrail hook`'s choices.
    '../../hooks/registry.js',
  ]);
  const offending: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(folder, file), 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
      if (!m[1]!.startsWith('node:') && !allowed.has(m[1]!)) offending.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(offending, []);
  // The lazy half itself loads nothing at load time: its imports are types, its modules are loaded by import().
  const lazy = readFileSync(join(folder, '..', 'handlers.ts'), 'utf8');
  assert.deepEqual([...lazy.matchAll(/^import\s+(?!type\b)/gm)], []);
});
