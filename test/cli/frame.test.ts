import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo, runCli } from '../kit/repo.js';

const repo = makeRepo();
after(() => repo.cleanup());

test('--help lists the commands and exits 0', async () => {
  const r = await runCli(['--help'], { cwd: repo.dir });
  assert.equal(r.code, 0);
  for (const name of ['init', 'knowledge', 'review', 'mine', 'demo'])
    assert.match(r.stdout, new RegExp(`revtrail ${name} `));
});

test('an unknown command is a usage error: exit 2, one line and the remedy, no stack', async () => {
  const r = await runCli(['nope'], { cwd: repo.dir });
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'revtrail: unknown command "nope"\n  Run revtrail --help for the usage.\n');
});

test("yargs' own argument errors are usage errors too, naming the command's help", async () => {
  const r = await runCli(['knowledge', 'select', '--diff'], { cwd: repo.dir });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^revtrail: Not enough arguments following: diff\n {2}Run revtrail knowledge --help for its usage\.\n$/,
  );
});

test('outside a git work tree: a clear error, and REVTRAIL_DEBUG=1 adds the stack', async () => {
  const outside = (await import('node:os')).tmpdir();
  const r = await runCli(['review'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: outside } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not inside a git work tree/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const debug = await runCli(['review'], {
    cwd: outside,
    env: { GIT_CEILING_DIRECTORIES: outside, REVTRAIL_DEBUG: '1' },
  });
  assert.match(debug.stderr, /\n\s+at /);
});

test('help examples: each command whole on its own line, under a "# what it does" line, short enough for 80 columns', async () => {
  const { commands } = await import('../../lib/cli/commands/index.js');
  const { commandName } = await import('../../lib/cli/command.js');
  let seen = 0;
  const calls = commands.flatMap((c) => {
    const name = commandName(c);
    return (c.subcommands?.map(commandName) ?? [undefined]).map((sub) => ({
      name,
      args: sub ? [name, sub, '--help'] : [name, '--help'],
    }));
  });
  for (const { name, args } of calls) {
    {
      const r = await runCli(args, { cwd: repo.dir });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      const at = r.stdout.indexOf('\nExamples:\n');
      if (at === -1) continue;
      const lines = r.stdout
        .slice(at + '\nExamples:\n'.length)
        .split('\n\n')[0]!
        .trimEnd()
        .split('\n');
      assert.equal(lines.length % 2, 0, lines.join('\n'));
      for (let i = 0; i < lines.length; i += 2) {
        assert.match(lines[i]!, /^ {2}# \S/, `${name}: the description line`);
        const command = lines[i + 1]!;
        assert.match(command, /^ {2}(?:\S.*\| )?revtrail \S/, `${name}: the command line`);
        for (const quote of ['"', '`', "'"])
          assert.equal(command.split(quote).length % 2, 1, `${name}: quotes close on the line: ${command}`);
        assert.ok(command.length <= 80, `${name}: fits 80 columns: ${command}`);
        seen++;
      }
    }
  }
  assert.ok(seen >= 10, `examples checked: ${seen}`);
});
