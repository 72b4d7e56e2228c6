/**
 * The built-in rule registry: every family file is wired in, ids are unique, and the lists
 * derived from the rules (the credential set, the ids a config may name, the needles) follow
 * the rules without a hand-kept copy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allBuiltinRules, builtinIds, CREDENTIAL_RULE_SOURCES, FAMILIES } from '../../lib/review/builtin.js';
import type { BuiltinFamily } from '../../lib/review/builtin/define.js';
import { reviewMessages } from '../../lib/messages/review.js';

const familyDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'review', 'builtin');

const isFamily = (value: unknown): value is BuiltinFamily =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as BuiltinFamily).section === 'string' &&
  typeof (value as BuiltinFamily).specs === 'function';

test('every family a file under review/builtin/ exports is in the registry', async () => {
  const exported: Array<[string, BuiltinFamily]> = [];
  for (const file of readdirSync(familyDir).filter((f) => f.endsWith('.js'))) {
    const module = (await import(pathToFileURL(join(familyDir, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (isFamily(value)) exported.push([`${file}:${name}`, value]);
  }
  assert.ok(exported.length >= 5, `only ${exported.length} families found in ${familyDir}`);
  for (const [where, family] of exported)
    assert.ok(FAMILIES.includes(family), `${where} (section ${family.section}) is not in FAMILIES`);
  assert.equal(new Set(FAMILIES).size, FAMILIES.length, 'a family is registered twice');
});

test('every file under review/builtin/ is a registered family or a helper another file of the baseline imports', async () => {
  const files = readdirSync(familyDir).filter((f) => f.endsWith('.js'));
  const sources = new Map(files.map((f) => [f, readFileSync(join(familyDir, f), 'utf8')]));
  const registry = readFileSync(join(familyDir, '..', 'builtin.js'), 'utf8');
  for (const file of files) {
    const module = (await import(pathToFileURL(join(familyDir, file)).href)) as Record<string, unknown>;
    if (Object.values(module).some(isFamily)) continue; // the test above holds it to FAMILIES
    const imported =
      [...sources].some(([other, text]) => other !== file && text.includes(`'./${file}'`)) ||
      registry.includes(`'./builtin/${file}'`);
    assert.ok(
      imported,
      `${file} exports no family and no file imports it: a rule file that is not wired in (export \`family\` and list it in lib/review/builtin.ts)`,
    );
  }
});

test('ids and rule sources are unique, and the config may name each one', () => {
  const rules = allBuiltinRules();
  assert.equal(new Set(rules.map((r) => r.id)).size, rules.length, 'two rules share an id');
  assert.deepEqual(
    builtinIds(),
    rules.map((r) => r.id),
  );
  for (const r of rules) assert.match(r.ruleSource, /^builtin\/[a-z]+:[a-z0-9-]+$/);
  const warning = reviewMessages.unknownBuiltin(['nope'], builtinIds());
  for (const id of builtinIds()) assert.ok(warning.includes(id), `the unknown-id warning does not list ${id}`);
});

test('CREDENTIAL_RULE_SOURCES are exactly the rules of the credential families', () => {
  const expected = allBuiltinRules()
    .filter((r) => r.credential)
    .map((r) => r.ruleSource);
  assert.ok(expected.length >= 8);
  assert.deepEqual([...CREDENTIAL_RULE_SOURCES].sort(), [...expected].sort());
  // Credential formats also run on lines of any length (a key in a minified bundle is still a leak).
  for (const r of allBuiltinRules()) if (r.credential) assert.equal(r.longLines, true, r.ruleSource);
});
