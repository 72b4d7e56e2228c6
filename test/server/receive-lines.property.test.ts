/**
 * Properties of the server gate's input parsing: git's pre-receive lines read back exactly, a
 * line of anything else is never taken for a ref update, and a path a policy names is either
 * refused or stays inside the tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseReceiveLines } from '../../lib/flows/receive.js';
import { inTree } from '../../lib/flows/policy-tree.js';

const hex = (n: number) =>
  fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: n, maxLength: n }).map((a) => a.join(''));
const sha = fc.oneof(hex(40), hex(64));
const ref = fc
  .array(fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/), { minLength: 1, maxLength: 4 })
  .map((parts) => `refs/heads/${parts.join('/')}`);

test('pre-receive lines: what git sends parses back exactly, in order', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ old: sha, new: sha, ref }), { maxLength: 8 }), (updates) => {
      const parsed = parseReceiveLines(updates.map((u) => `${u.old} ${u.new} ${u.ref}\n`).join(''));
      assert.deepEqual(parsed.bad, []);
      assert.deepEqual(
        parsed.updates,
        updates.map((u) => ({ ...u })),
      );
    }),
  );
});

test('pre-receive lines: any other line is set aside, never read as an update', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 120 }), (line) => {
      const parsed = parseReceiveLines(line);
      for (const u of parsed.updates) {
        assert.match(u.old, /^([0-9a-f]{40}|[0-9a-f]{64})$/);
        assert.match(u.new, /^([0-9a-f]{40}|[0-9a-f]{64})$/);
        assert.ok(u.ref.length > 0);
      }
      assert.equal(parsed.updates.length + parsed.bad.length, line.split('\n').filter((l) => l.trim()).length);
    }),
  );
});

test('a path the policy names is refused or stays inside the tree', () => {
  const part = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'b.md', '\\..', 'C:'), fc.string({ maxLength: 6 }));
  fc.assert(
    fc.property(fc.array(part, { maxLength: 6 }), fc.boolean(), (parts, absolute) => {
      const path = (absolute ? '/' : '') + parts.join('/');
      const inside = inTree(path);
      if (inside === null) return;
      assert.ok(!inside.startsWith('/'), inside);
      assert.ok(!inside.split('/').includes('..'), inside);
      assert.notEqual(inside, '.');
    }),
  );
});
