/**
 * The README stays true: every `revtrail …` command it shows exists, and every option it
 * shows is one that command takes (its --help lists it). The flows themselves are exercised
 * by the demo, hooks and mining tests.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, projectRoot, runCli } from '../kit/repo.js';
import { commands } from '../../lib/cli/commands/index.js';
import { commandName } from '../../lib/cli/command.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const repo = makeRepo();
after(() => repo.cleanup());

/** `revtrail` invocations in code blocks and inline code, split into words. */
function invocations(): string[][] {
  const found: string[][] = [];
  const code = [...readme.matchAll(/```[a-z]*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]!).join('\n');
  for (const match of code.matchAll(/(?:npx )?revtrail ((?:[a-z][\w-]*)(?: [^\s`|#<>"]+)*)/g)) {
    found.push(match[1]!.split(' ').filter((w) => w && !w.startsWith('…')));
  }
  return found;
}

test('the README shows the commands of docs/cli.md and each exists with --help', async () => {
  const calls = invocations();
  const named = new Set(calls.map((c) => c[0]!));
  // Every command of the registry (lib/cli/commands/index.ts), the only list of them.
  for (const command of commands.map(commandName)) assert.ok(named.has(command), `README shows revtrail ${command}`);
  const withSubcommands = commands.filter((c) => c.subcommands).map(commandName);
  const checked = new Map<string, string>();
  for (const call of calls) {
    const sub =
      withSubcommands.includes(call[0]!) && call[1] && !call[1].startsWith('-') ? [call[0]!, call[1]] : [call[0]!];
    const key = sub.join(' ');
    if (!checked.has(key)) {
      const help = await runCli([...sub, '--help'], { cwd: repo.dir });
      assert.equal(help.code, 0, `revtrail ${key} --help: ${help.stderr}`);
      checked.set(key, help.stdout);
    }
    for (const word of call.slice(sub.length)) {
      const option = /^--[a-z][\w-]*/.exec(word)?.[0];
      if (option)
        assert.match(
          checked.get(key)!,
          new RegExp(`${option}\\b`),
          `README's revtrail ${key} ${option} is in its --help`,
        );
    }
  }
});

test("the README's two commands for working on revtrail are the package's scripts", () => {
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.match(readme, /^npm install\b/m);
  assert.match(readme, /^npm test\b/m);
  for (const script of ['test', 'start', 'bench']) assert.ok(pkg.scripts[script], script);
  assert.equal(pkg.scripts.start, 'node bin/revtrail.js demo');
});
