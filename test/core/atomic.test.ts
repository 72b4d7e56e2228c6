/**
 * The one atomic writer (lib/core/fs/atomic.ts): an exclusive create leaves a file already there
 * as it is, a link is written through to its target, and the stale-temp cleaner removes every
 * temp name a killed writer leaves (the writer's own, the lock's, the mining cache's old one)
 * while a fresh one and the user's files stay.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanStaleTemps, tempBeside, writeFileAtomic } from '../../lib/core/fs/atomic.js';

const dir = mkdtempSync(join(tmpdir(), 'revtrail-atomic-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('exclusive: a new file appears whole; one already there is kept and the write fails with EEXIST, no temp left', async () => {
  const file = join(dir, 'starter.md');
  await writeFileAtomic(file, 'first\n', { exclusive: true });
  assert.equal(readFileSync(file, 'utf8'), 'first\n');
  await assert.rejects(
    writeFileAtomic(file, 'second\n', { exclusive: true }),
    (e: NodeJS.ErrnoException) => e.code === 'EEXIST',
  );
  assert.equal(readFileSync(file, 'utf8'), 'first\n');
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('starter.md')),
    ['starter.md'],
  );
});

test('a link is written through: its target gets the content, the link stays a link', async () => {
  const target = join(dir, 'real-package.json');
  const link = join(dir, 'package.json');
  writeFileSync(target, '{}\n');
  symlinkSync(target, link);
  await writeFileAtomic(link, '{"scripts":{}}\n');
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.equal(readFileSync(target, 'utf8'), '{"scripts":{}}\n');
});

test('cleanStaleTemps: every stale temp name beside the file goes (writer, lock, the old mining-cache name); fresh ones and other files stay', async () => {
  const file = join(dir, 'key.json');
  writeFileSync(file, '{}');
  const stale = [tempBeside(file), tempBeside(file), `${file}.4242.0123abcd.tmp`];
  const fresh = tempBeside(file);
  const others = [join(dir, 'key.json.bak'), join(dir, 'key-0a1b2c.jsonl'), join(dir, 'other.json.12.0123abcd.tmp')];
  const old = new Date(Date.now() - 5 * 60_000);
  for (const f of [...stale, ...others]) {
    writeFileSync(f, 'x');
    utimesSync(f, old, old);
  }
  writeFileSync(fresh, 'x');
  await cleanStaleTemps(file);
  const left = new Set(readdirSync(dir));
  for (const f of stale) assert.ok(!left.has(f.slice(dir.length + 1)), f);
  for (const f of [file, fresh, ...others]) assert.ok(left.has(f.slice(dir.length + 1)), f);
});
