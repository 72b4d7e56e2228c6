/**
 * Where an exception goes (lib/candidates/refine.ts folderGroups, docs/gate.md "Refinements"):
 * each group's globs hold every file of the group, its folder is the deepest that does, and no
 * group covers the rule's whole scope (the scope's own folder), whatever the files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileGlobs } from '../../lib/bundle/globs.js';
import { folderGroups } from '../../lib/candidates/refine.js';

const segment = fc.constantFrom('packages', 'web', 'api', 'test', 'src', 'unit', 'a.ts', 'b.ts');
const file = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
const scope = fc.constantFrom<string[]>([], ['packages/**'], ['packages/web/**', 'src/**'], ['**/*.ts']);

test('exception groups: each holds its files at the deepest folder, and none is the whole scope', () => {
  fc.assert(
    fc.property(fc.array(file, { minLength: 1, maxLength: 8 }), scope, (files, declared) => {
      const groups = folderGroups(files, (f) => f, declared);
      assert.equal(
        groups.reduce((n, g) => n + g.items.length, 0),
        files.length,
      );
      const bases = declared.length ? declared.map((g) => g.slice(0, Math.max(0, g.indexOf('*') - 1))) : [''];
      for (const g of groups) {
        const holds = compileGlobs(g.globs);
        for (const f of g.items) assert.ok(holds(f), `${g.globs.join(', ')} holds ${f}`);
        for (const glob of g.globs) {
          // Never the scope's folder itself (nor the top): that would switch the rule off.
          assert.ok(
            !bases.some((b) => glob === (b ? `${b}/**` : '**')),
            `${glob} covers the scope ${declared.join(', ')}`,
          );
        }
        if (g.globs.length === 1 && g.globs[0]!.endsWith('/**')) {
          // The deepest: some file sits directly in the folder, or two files part below it.
          const rests = g.items.map((f) => f.slice(g.folder.length + 1));
          const firsts = new Set(rests.map((r) => (r.includes('/') ? r.slice(0, r.indexOf('/')) : `file:${r}`)));
          assert.ok(
            rests.some((r) => !r.includes('/')) || firsts.size > 1,
            `${g.folder} is not the deepest folder of ${g.items.join(', ')}`,
          );
        } else for (const glob of g.globs) assert.ok(g.items.includes(glob), `${glob} is one of the files`);
      }
    }),
  );
});

test('exception groups: a monorepo test folder, not packages/**; files in the scope folder itself stay files', () => {
  const groups = folderGroups(
    ['packages/web/test/a.test.ts', 'packages/web/test/unit/b.test.ts', 'packages/api/src/db.ts'],
    (f) => f,
    ['packages/**'],
  );
  assert.deepEqual(
    groups.map((g) => g.globs),
    [['packages/web/test/**'], ['packages/api/src/**']],
  );
  const loose = folderGroups(['src/a.ts', 'src/b.ts'], (f) => f, ['src/**']);
  assert.deepEqual(loose, [{ folder: 'src', globs: ['src/a.ts', 'src/b.ts'], items: ['src/a.ts', 'src/b.ts'] }]);
});
