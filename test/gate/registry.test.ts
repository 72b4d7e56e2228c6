/** The gate's signal registry: every named signal is decided somewhere, once, in the named order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIGNALS } from '../../lib/gate/types.js';
import { THREAD_SIGNALS } from '../../lib/gate/signals.js';

test('every signal but the rule-level generalizable is one registry entry, in SIGNALS order', () => {
  const names = THREAD_SIGNALS.map((s) => s.name);
  assert.equal(new Set(names).size, names.length, 'no signal twice');
  assert.deepEqual(names, SIGNALS.filter((s) => s !== 'generalizable'));
});

test('only evidence needs the diffs: the cheap signals decide whose diffs are read', () => {
  assert.deepEqual(THREAD_SIGNALS.filter((s) => s.needs === 'diffs').map((s) => s.name), ['evidence']);
});
