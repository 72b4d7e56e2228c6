/**
 * Small frictions of the command line (docs/cli.md), through the real CLI: typo suggestions for
 * commands, options and config keys; revtrail.schema.json generated from the zod schema and named
 * by the starter config; init ignoring .revtrail/ and naming `revtrail install`; FORCE_COLOR (and
 * NO_COLOR winning); `mine --format csv` escaping control characters on a terminal only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { makeRepo, projectRoot, runCli, runProcess, cliPath } from '../kit/repo.js';
import { configJsonSchemaText } from '../../lib/config/json-schema.js';

const require = createRequire(import.meta.url);

test('a mistyped command, option or config key names the nearest known one', async () => {
  const r = makeRepo();
  r.commit('chore: start');
  const command = await runCli(['reviw'], { cwd: r.dir });
  assert.equal(command.code, 2);
  assert.match(command.stderr, /unknown command "reviw": did you mean review\?/);
  const option = await runCli(['review', '--stagd'], { cwd: r.dir });
  assert.equal(option.code, 2);
  assert.match(option.stderr, /Unknown argument: stagd \(did you mean --staged\?\)/);
  r.write('revtrail.config.json', JSON.stringify({ minConfidense: 0.5, gate: { minRecurence: 3 } }));
  const check = await runCli(['knowledge', 'check', '.'], { cwd: r.dir });
  assert.match(check.stdout + check.stderr, /"minConfidense": did you mean "minConfidence"\?/);
  assert.match(check.stdout + check.stderr, /"gate\.minRecurence": did you mean "gate\.minRecurrence"\?/);
});

test("revtrail.schema.json is the zod schema's JSON Schema; the starter config names it and validates against it", async () => {
  const committed = readFileSync(join(projectRoot, 'revtrail.schema.json'), 'utf8');
  assert.equal(
    committed,
    configJsonSchemaText(),
    'revtrail.schema.json is stale: run node scripts/build.mjs && node scripts/schema.mjs',
  );
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { files: string[] };
  assert.ok(pkg.files.includes('revtrail.schema.json'), 'the package ships it');

  const r = makeRepo();
  r.write('.gitignore', 'node_modules/\n');
  r.commit('chore: start');
  const init = await runCli(['init'], { cwd: r.dir });
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /added \.revtrail\/ to \.gitignore/);
  assert.match(init.stdout, /revtrail install +installs the commit-msg and pre-push hooks/);
  assert.equal(readFileSync(join(r.dir, '.gitignore'), 'utf8'), 'node_modules/\n.revtrail/\n');
  const config = JSON.parse(readFileSync(join(r.dir, 'revtrail.config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(config.$schema, './node_modules/revtrail/revtrail.schema.json');

  const Ajv2020 = require('ajv/dist/2020') as new (
    o?: object,
  ) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(committed) as object);
  assert.ok(validate(config), JSON.stringify(validate.errors));
  assert.equal(validate({ ...config, minConfidense: 0.5 }), false, 'an unknown key is an error, as for revtrail');
  assert.equal(validate({ ...config, trailers: { foldAt: -1 } }), false);
  // revtrail itself reads the starter config (with its $schema) without a complaint.
  const check = await runCli(['knowledge', 'check'], { cwd: r.dir });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  // A second init adds no second line.
  await runCli(['init'], { cwd: r.dir });
  assert.equal(readFileSync(join(r.dir, '.gitignore'), 'utf8'), 'node_modules/\n.revtrail/\n');
});

test('FORCE_COLOR colours output that is not a terminal; NO_COLOR wins over it', async () => {
  const r = makeRepo();
  r.commit('chore: start');
  r.write('a.js', 'debugger;\n');
  const forced = await runCli(['review'], { cwd: r.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
  assert.match(forced.stdout, /\x1b\[/);
  const both = await runCli(['review'], { cwd: r.dir, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
  assert.doesNotMatch(both.stdout + both.stderr, /\x1b\[/);
  const off = await runCli(['review'], { cwd: r.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '0' } });
  assert.doesNotMatch(off.stdout, /\x1b\[/);
});

test("mine --format csv: a trailer's ESC is escaped on a terminal, exact in a pipe", async () => {
  const r = makeRepo();
  r.commit('chore: start');
  const row = 'rf-0123456789,a.js,1,builtin/debug:debugger,correctness,bug,evil \x1b[2J title,REJECT,see `git show`';
  r.git(['commit', '-q', '--allow-empty', '-m', `chore: x\n\nReview-Finding: ${row}\n`]);
  const piped = await runCli(['mine', '--format', 'csv', '--no-cache'], { cwd: r.dir });
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(piped.stdout.includes('evil \x1b[2J title'), piped.stdout);
  // A real terminal: script(1) gives the CLI a pseudo-terminal as stdout.
  const command = `'${process.execPath}' '${cliPath}' mine --format csv --no-cache`;
  const tty = await runProcess('script', ['-qec', command, '/dev/null'], { cwd: r.dir });
  assert.equal(tty.code, 0, tty.stderr);
  assert.ok(tty.stdout.includes('evil \\e[2J title'), JSON.stringify(tty.stdout));
  assert.ok(!tty.stdout.includes('\x1b[2J'));
});

test("the demo's shown commands paste: each word shell-quoted reads back exactly through bash", async () => {
  const { shellQuote } = await import('../../lib/core/output.js');
  const words = [
    'plain',
    'feat: order lookup',
    "it's",
    'false positive: `const T = [\'a\']` $(id) $HOME "x"',
    '%(trailers:key=Review-Finding)',
    '',
  ];
  const line = `printf '%s\\n' ${words.map(shellQuote).join(' ')}`;
  const run = await runProcess('bash', ['-c', line], { cwd: projectRoot });
  assert.equal(run.stdout, words.map((w) => `${w}\n`).join(''));
});
