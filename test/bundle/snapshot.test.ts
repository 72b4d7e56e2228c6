/**
 * The bundle snapshot (lib/bundle/snapshot.ts): a load taken from it is the load the indexes
 * would give, it is used only while every file it read keeps its stat() signature, and a
 * bundle that said anything, a damaged file or an overrun remembered since leave it unused.
 * Signatures need files older than two seconds (the racy case), so the clock is moved on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadBundle, formatDiagnostic } from '../../lib/bundle/load.js';
import type { Bundle } from '../../lib/bundle/types.js';
import { tempDir, writeFiles } from '../kit/repo.js';
import { bundleView, concept } from '../kit/bundle.js';

const realNow = Date.now;
before(() => {
  Date.now = () => realNow() + 5000;
});
after(() => {
  Date.now = realNow;
});

const rule = (id: string, pattern: string) =>
  `  - id: ${id}\n    pattern: "${pattern}"\n    severity: bug\n    title: Rule ${id}`;
const FILES: Record<string, string> = {
  'index.md': '[a](a.md) [sub](sub/)\n',
  'a.md': concept(`type: Decision\nid: adr-a\npaths: ["src/**"]\nrules:\n${rule('r1', 'forbidden\\\\(')}`),
  'sub/index.md': '[b](b.md)\n',
  'sub/b.md': concept('type: Guide\nid: guide-b\ndomain: shop', '# B\n\nThe body of b.\n'),
};

function setup(files = FILES) {
  const dir = tempDir();
  const kb = join(dir, 'kb');
  writeFiles(kb, files);
  const cacheFile = join(dir, 'git', 'revtrail', 'bundle-cache-v1.json');
  const snapshotFile = join(dir, 'git', 'revtrail', 'bundle-snapshot-v1.json');
  const load = () => loadBundle(kb, { base: dir, cacheFile, snapshotFile });
  return { dir, kb, cacheFile, snapshotFile, load };
}

/** What a caller sees of a bundle, and the files it was read from. */
const seen = (b: Bundle): unknown => ({ ...(bundleView(b) as object), sources: b.sources });

test('a snapshot is written by a full load and gives the same bundle without walking the indexes', async () => {
  const { dir, kb, cacheFile, snapshotFile, load } = setup();
  const plain = seen(await loadBundle(kb, { base: dir }));
  assert.deepEqual(seen(await load()), plain);
  assert.ok(existsSync(snapshotFile), 'written by the full load');
  // Without the concept cache, a walk would write it again: taken from the snapshot, nothing is written.
  rmSync(cacheFile);
  const kept = await load();
  assert.deepEqual(seen(kept), plain);
  assert.equal(existsSync(cacheFile), false, 'the snapshot answered, no walk');
  assert.equal(kept.concepts.find((c) => c.id === 'adr-a')!.rules[0]!.regex.test('forbidden('), true);
});

test('an edited concept, a new link and a removed file each make the next load a full one, which writes a new snapshot', async () => {
  const { kb, snapshotFile, load } = setup();
  await load();
  const first = readFileSync(snapshotFile, 'utf8');
  writeFileSync(join(kb, 'sub', 'b.md'), concept('type: Guide\nid: guide-b\ndomain: shop', '# B\n\nEdited.\n'));
  assert.equal((await load()).concepts.find((c) => c.id === 'guide-b')!.body.includes('Edited.'), true);
  assert.notEqual(readFileSync(snapshotFile, 'utf8'), first);

  writeFiles(kb, { 'c.md': concept('type: Note\nid: note-c'), 'index.md': '[a](a.md) [sub](sub/) [c](c.md)\n' });
  assert.deepEqual(
    (await load()).concepts.map((c) => c.id),
    ['adr-a', 'guide-b', 'note-c'],
  );
  rmSync(join(kb, 'c.md'));
  const gone = await load();
  assert.deepEqual(
    gone.concepts.map((c) => c.id),
    ['adr-a', 'guide-b'],
  );
  assert.equal(gone.diagnostics.length, 1, 'the dangling link is named');
});

test('a bundle that says anything keeps no snapshot; a damaged snapshot is a full load', async () => {
  const warned = setup({ ...FILES, 'index.md': '[a](a.md) [sub](sub/) [gone](gone.md)\n' });
  const loaded = await warned.load();
  assert.equal(loaded.diagnostics.length, 1);
  assert.equal(existsSync(warned.snapshotFile), false);
  assert.deepEqual((await warned.load()).diagnostics.map(formatDiagnostic), loaded.diagnostics.map(formatDiagnostic));

  const { dir, kb, snapshotFile, load } = setup();
  const plain = seen(await loadBundle(kb, { base: dir }));
  await load();
  for (const damage of ['{"format":1', `${readFileSync(snapshotFile, 'utf8').split('\n')[0]}\n[{"id":`, '']) {
    writeFileSync(snapshotFile, damage);
    assert.deepEqual(seen(await load()), plain, `damaged: ${JSON.stringify(damage.slice(0, 20))}`);
  }
});

test('a snapshot is taken only for the folder it was made of (a policy copy of the same files gets the full load of its own)', async () => {
  const { dir, kb, cacheFile, snapshotFile, load } = setup();
  await load();
  // The same files in another folder, as a policy copied out of a commit would be: the snapshot
  // names its folder and every file by its path, so it answers for none of these.
  const copy = join(dir, 'copy');
  writeFiles(copy, FILES);
  writeFileSync(join(copy, 'a.md'), concept('type: Decision\nid: adr-a\npaths: ["lib/**"]'));
  const other = await loadBundle(copy, { base: dir, cacheFile, snapshotFile });
  assert.equal(other.root, copy);
  assert.deepEqual(other.concepts.find((c) => c.id === 'adr-a')!.paths, ['lib/**']);
  assert.deepEqual(seen(await load()), seen(await loadBundle(kb, { base: dir })));
});

test('an overrun remembered by a bundle from the snapshot reaches the next load', async () => {
  const { snapshotFile, load } = setup();
  await load();
  const kept = await load();
  assert.ok(existsSync(snapshotFile));
  kept.rememberOverrun!('adr-a:r1\0forbidden\\(');
  assert.equal(existsSync(snapshotFile), false, 'the snapshot no longer holds every overrun');
  assert.deepEqual([...(await load()).overran!], ['adr-a:r1\0forbidden\\(']);
  // Written again by that full load, with the overrun in it.
  assert.deepEqual([...(await load()).overran!], ['adr-a:r1\0forbidden\\(']);
});

test('property: whatever is edited between loads, a load with the snapshot is the load without it', async () => {
  const { dir, kb, load } = setup();
  const edit = fc.oneof(
    // Bodies are kept as slices of the snapshot's text: any text, new lines and astral characters
    // included, comes back as it was.
    fc.record({
      kind: fc.constant('body' as const),
      text: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('a\nb\r\n', '😀 ünï\n---\n')),
    }),
    fc.record({ kind: fc.constant('link' as const), on: fc.boolean() }),
    fc.record({ kind: fc.constant('domain' as const), name: fc.constantFrom('shop', 'store', 'a.b') }),
    fc.constant({ kind: 'none' as const }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { maxLength: 4 }), async (edits) => {
      for (const e of edits) {
        if (e.kind === 'body') writeFileSync(join(kb, 'a.md'), `${readFileSync(join(kb, 'a.md'), 'utf8')}${e.text}\n`);
        else if (e.kind === 'link')
          writeFiles(kb, {
            'd.md': concept('type: Note\nid: note-d'),
            'index.md': e.on ? '[a](a.md) [sub](sub/) [d](d.md)\n' : '[a](a.md) [sub](sub/)\n',
          });
        else if (e.kind === 'domain')
          writeFileSync(join(kb, 'sub', 'b.md'), concept(`type: Guide\nid: guide-b\ndomain: ${e.name}`));
        assert.deepEqual(seen(await load()), seen(await loadBundle(kb, { base: dir })));
      }
      assert.deepEqual(seen(await load()), seen(await loadBundle(kb, { base: dir })));
    }),
    { numRuns: 25 },
  );
});
