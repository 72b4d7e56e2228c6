/**
 * The one path module (lib/core/fs/path.ts): contains(folder, path) is true for the folder and
 * everything under it, false for a sibling that only shares a prefix and for anything above;
 * toPosix gives `/` separators.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { contains, toPosix } from '../../lib/core/fs/path.js';

const part = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/).filter((p) => p !== '.' && p !== '..');

test('contains: the folder and every path joined under it; never a prefix sibling or the parent', () => {
  fc.assert(
    fc.property(
      fc.array(part, { minLength: 1, maxLength: 4 }),
      fc.array(part, { maxLength: 4 }),
      part,
      (base, under, extra) => {
        const folder = join('/', ...base);
        assert.equal(contains(folder, join(folder, ...under)), true);
        assert.equal(contains(folder, `${folder}${extra}`), false); // /a/b and /a/bX
        assert.equal(contains(join(folder, extra), folder), false); // the folder is not inside its child
      },
    ),
  );
});

test('contains: the root holds everything; a trailing separator on the folder changes nothing', () => {
  assert.equal(contains('/', '/etc/passwd'), true);
  assert.equal(contains('/repo/', '/repo/a'), true);
  assert.equal(contains('/repo', '/repository'), false);
});

test('toPosix: already-posix paths are unchanged', () => {
  assert.equal(toPosix('docs/adr/0001.md'), 'docs/adr/0001.md');
});
