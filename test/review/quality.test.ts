/**
 * The quality corpus (test/fixtures/quality/): every labelled case holds, so each miss and
 * false alarm fixed once stays fixed; every built-in rule has cases of both kinds.
 * `npm run bench -- quality` scores the same corpus per family.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixturesDir } from '../kit/repo.js';
import { allBuiltinRules, isCredentialSource } from '../../lib/review/builtin.js';
import { loadCorpus, runCase } from '../kit/quality-corpus.js';

const cases = loadCorpus(join(fixturesDir, 'quality'));
const rules = allBuiltinRules();

test('every rule has positive and look-alike cases, and every case names a real rule', () => {
  const ids = new Set(rules.map((r) => r.id));
  for (const c of cases) {
    for (const id of [...c.expect, ...(c.near ? [c.near] : [])])
      assert.ok(ids.has(id), `${c.name} names no rule: ${id}`);
    assert.ok(c.expect.length > 0 || c.near, `${c.name}: a look-alike says which rule it imitates (near)`);
  }
  for (const id of ids) {
    assert.ok(
      cases.some((c) => c.expect.includes(id)),
      `no positive case for ${id}`,
    );
    assert.ok(
      cases.some((c) => c.near === id),
      `no look-alike case for ${id}`,
    );
  }
});

test('no case holds a literal credential: values are templates', async () => {
  // The same cases as written, before their templates are filled: a credential rule that still
  // fires there has found a real-looking token committed in the fixtures.
  const raw = loadCorpus(join(fixturesDir, 'quality'), { raw: true });
  assert.equal(raw.length, cases.length);
  // unread-past-cap matches revtrail's own marker line (lib/diff/past-cap.ts), never a value.
  const credentialIds = new Set(
    rules.filter((r) => isCredentialSource(r.ruleSource) && r.id !== 'unread-past-cap').map((r) => r.id),
  );
  assert.ok(credentialIds.size > 20, `only ${credentialIds.size} credential rules`);
  const literal: string[] = [];
  for (const c of raw) {
    const outcome = await runCase(c, rules);
    for (const f of outcome.found) if (credentialIds.has(f.slice(f.indexOf(' ') + 1))) literal.push(`${c.name}: ${f}`);
  }
  assert.deepEqual(literal, []);
});

for (const c of cases) {
  test(`${c.family}: ${c.why} (${c.name})`, async () => {
    const outcome = await runCase(c, rules);
    const wanted = c.expect.map((id) => `${c.line} ${id}`);
    assert.ok(
      outcome.ok,
      `${c.path}: wanted ${JSON.stringify(wanted)}${c.dropped ? ` and dropped.${c.dropped} > 0` : ''}, got ${JSON.stringify(outcome.found)} ` +
        `(dropped ${JSON.stringify(outcome.dropped)})\n${c.lines.slice(0, 12).join('\n')}`,
    );
  });
}
