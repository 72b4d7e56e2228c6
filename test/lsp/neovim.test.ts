/**
 * Neovim, headless, with the configuration docs/editor.md gives (its Lua block, the command
 * pointed at this build): the diagnostics of a file with a key are read back from
 * `vim.diagnostic`. Skipped where nvim is not installed (`apt-get install neovim`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, projectRoot, runProcess, tempDir, throwawayRepos } from '../kit/repo.js';

const repos = throwawayRepos();
const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = nvim.error || nvim.status !== 0 ? 'nvim is not installed here (apt-get install neovim)' : false;

/** The Lua block of docs/editor.md's Neovim section. */
function documentedConfig(): string {
  const page = readFileSync(join(projectRoot, 'docs', 'editor.md'), 'utf8');
  const section = page.slice(page.indexOf('**Neovim**'));
  const block = /```lua\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'docs/editor.md has a Lua block under **Neovim**');
  return block[1]!;
}

test('nvim --headless with the documented configuration shows the key as a diagnostic', { skip: missing }, async () => {
  const repo = repos();
  repo.commit('base', { 'README.md': 'x\n' });
  repo.write('deploy.sh', `#!/bin/sh\nexport AWS_ACCESS_KEY_ID=${AWS}\n`);
  const config = documentedConfig();
  const command = `{ ${JSON.stringify(process.execPath)}, ${JSON.stringify(cliPath)}, 'lsp' }`;
  assert.match(config, /\{ 'npx', 'revtrail', 'lsp' \}/);
  const home = tempDir('revtrail-nvim-');
  const init = join(home, 'init.lua');
  writeFileSync(init, config.replace("{ 'npx', 'revtrail', 'lsp' }", command));
  const out = join(home, 'diagnostics.json');
  const check = join(home, 'check.lua');
  writeFileSync(
    check,
    [
      'vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)',
      'local out = {}',
      'for _, d in ipairs(vim.diagnostic.get(0)) do',
      '  table.insert(out, { lnum = d.lnum, source = d.source, severity = d.severity, message = d.message })',
      'end',
      `vim.fn.writefile({ vim.fn.json_encode(out) }, ${JSON.stringify(out)})`,
      "vim.cmd('qa!')",
    ].join('\n'),
  );
  const xdg = (name: string) => join(home, name);
  const run = await runProcess('nvim', ['--headless', '-u', init, '-c', `luafile ${check}`, 'deploy.sh'], {
    cwd: repo.dir,
    timeoutMs: 40_000,
    env: {
      XDG_CONFIG_HOME: xdg('config'),
      XDG_DATA_HOME: xdg('data'),
      XDG_STATE_HOME: xdg('state'),
      XDG_CACHE_HOME: xdg('cache'),
    },
  });
  assert.equal(run.code, 0, run.stderr);
  const diagnostics = JSON.parse(readFileSync(out, 'utf8')) as Array<{
    lnum: number;
    source: string;
    severity: number;
  }>;
  const key = diagnostics.find((d) => d.source === 'builtin/secrets:aws-access-key');
  assert.ok(key, JSON.stringify(diagnostics));
  assert.equal(key.lnum, 1);
  assert.equal(key.severity, 1);
});
