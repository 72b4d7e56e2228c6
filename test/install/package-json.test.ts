/** The package.json text edits install and uninstall make: only the script changes, and undoing gives back every byte. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { addScript, removeScript, replaceScript } from '../../lib/install/package-json.js';
import { appendedScript, SETUP_SCRIPT } from '../../lib/install/package-manager.js';
import { tempDir } from '../kit/repo.js';

const dir = tempDir();
const file = join(dir, 'package.json');

const layout = fc.record({
  indent: fc.constantFrom(0, 2, 4, '\t'),
  crlf: fc.boolean(),
  scripts: fc.dictionary(fc.constantFrom('build', 'test', 'lint', 'start'), fc.string({ maxLength: 20 }), {
    maxKeys: 3,
  }),
  withScripts: fc.boolean(),
  prepare: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
});

test('any layout: add then remove, or append then restore, gives back the same bytes and only the script differs in between', async () => {
  await fc.assert(
    fc.asyncProperty(layout, async ({ indent, crlf, scripts, withScripts, prepare }) => {
      const json: Record<string, unknown> = { name: 'app', version: '1.0.0' };
      if (withScripts || prepare !== undefined)
        json.scripts = { ...scripts, ...(prepare !== undefined ? { prepare } : {}) };
      let text = JSON.stringify(json, null, indent) + '\n';
      if (crlf) text = text.replace(/\n/g, '\r\n');
      writeFileSync(file, text);
      if (prepare === undefined) {
        const added = await addScript(file, 'prepare', SETUP_SCRIPT);
        assert.equal(added.kind, 'added');
        const after = JSON.parse(readFileSync(file, 'utf8'));
        assert.deepEqual(after, { ...json, scripts: { ...(json.scripts as object), prepare: SETUP_SCRIPT } });
        assert.ok(await removeScript(file, 'prepare', SETUP_SCRIPT, added.kind === 'added' && added.scriptsCreated));
      } else {
        const previous = await replaceScript(file, 'prepare', prepare, { value: appendedScript(prepare) });
        assert.notEqual(previous, null);
        assert.equal(JSON.parse(readFileSync(file, 'utf8')).scripts.prepare, `${prepare} && (${SETUP_SCRIPT})`);
        assert.notEqual(await replaceScript(file, 'prepare', appendedScript(prepare), { literal: previous! }), null);
      }
      assert.equal(readFileSync(file, 'utf8'), text);
    }),
    { numRuns: 200 },
  );
});
