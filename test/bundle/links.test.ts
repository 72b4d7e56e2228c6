/** Link resolution through symlinked folders: the real path decides, whichever way it is found. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle, formatDiagnostic } from '../../lib/bundle/load.js';
import { tempDir, writeFiles } from '../kit/repo.js';

const concept = (front: string) => `---\n${front}\n---\n# Heading\n`;

test('a link through a symlinked folder inside the bundle reaches the same file once; one leaving the bundle is reported', async () => {
  const dir = tempDir();
  writeFiles(join(dir, 'kb'), {
    'index.md': '[a](sub/a.md) [alias](alias/a.md) [deep](alias/deeper/b.md) [out](away/x.md) [outdir](away/)\n',
    'sub/a.md': concept('type: Note\nid: a'),
    'sub/deeper/b.md': concept('type: Note\nid: b'),
  });
  writeFiles(join(dir, 'elsewhere'), { 'x.md': concept('type: Note\nid: x'), 'index.md': '[x](x.md)\n' });
  symlinkSync(join(dir, 'kb', 'sub'), join(dir, 'kb', 'alias'));
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'kb', 'away'));
  mkdirSync(join(dir, 'kb', 'empty'));
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(
    b.concepts.map((c) => [c.id, c.file]),
    [
      ['a', 'sub/a.md'],
      ['b', 'sub/deeper/b.md'],
    ],
  );
  assert.deepEqual(b.diagnostics.map(formatDiagnostic), [
    `kb/index.md:1: warning: link to away/x.md resolves (through a symlink) to ${join(dir, 'elsewhere', 'x.md')}, outside the bundle; ignored`,
    `kb/index.md:1: warning: link to away/ resolves (through a symlink) to ${join(dir, 'elsewhere')}, outside the bundle; ignored`,
  ]);
});

test('a bundle reached through a symlink shows the path the user gave', async () => {
  const dir = tempDir();
  writeFiles(join(dir, 'real-kb'), { 'index.md': '[a](a.md) [gone](gone.md)\n', 'a.md': concept('type: Note') });
  symlinkSync(join(dir, 'real-kb'), join(dir, 'kb'));
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(
    b.concepts.map((c) => c.id),
    ['a'],
  );
  assert.deepEqual(b.diagnostics.map(formatDiagnostic), ['kb/index.md:1: warning: link to gone.md: no such file']);
});
