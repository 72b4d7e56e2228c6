/**
 * The gate's signal registry (lib/gate/signals/): every signal file is wired in, once, in the
 * named order; its messages and its docs line exist; and no count of signals is written by hand
 * anywhere (they are derived from the registry).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SIGNALS } from '../../lib/gate/types.js';
import { REGISTRY, RULE_SIGNALS, THREAD_SIGNALS } from '../../lib/gate/signals/index.js';
import type { GateSignal } from '../../lib/gate/signals/define.js';
import { signalMessages } from '../../lib/messages/gate.js';
import { projectRoot } from '../kit/repo.js';

const signalDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'gate', 'signals');

const isSignal = (value: unknown): value is GateSignal =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as GateSignal).name === 'string' &&
  typeof (value as GateSignal).decide === 'function';

test('every signal a file under gate/signals/ exports is in the registry, and every registry entry has its file', async () => {
  const exported: Array<[string, GateSignal]> = [];
  for (const file of readdirSync(signalDir).filter((f) => f.endsWith('.js'))) {
    const module = (await import(pathToFileURL(join(signalDir, file)).href)) as Record<string, unknown>;
    const signals = Object.entries(module).filter(([, value]) => isSignal(value));
    if (file !== 'index.js' && file !== 'define.js')
      assert.equal(signals.length, 1, `${file} exports ${signals.length} signals, not one`);
    if (file !== 'index.js')
      for (const [name, value] of signals) exported.push([`${file}:${name}`, value as GateSignal]);
  }
  assert.ok(exported.length >= 7, `only ${exported.length} signals found in ${signalDir}`);
  for (const [where, signal] of exported)
    assert.ok(
      (REGISTRY as readonly GateSignal[]).includes(signal),
      `${where} (${signal.name}) is not in lib/gate/signals/index.ts`,
    );
  assert.equal(new Set(REGISTRY).size, REGISTRY.length, 'a signal is registered twice');
  assert.equal(exported.length, REGISTRY.length, 'a registry entry has no file of its own');
});

test('SIGNALS are the registry in order; thread and rule signals split it; only evidence needs the diffs', () => {
  assert.deepEqual(
    [...SIGNALS],
    [
      'merged',
      'resolved',
      'fix_commit',
      'not_dismissed',
      'ci_successful',
      'generalizable',
      'evidence',
      'several_authors',
    ],
  );
  assert.equal(new Set(SIGNALS).size, SIGNALS.length, 'no signal name twice');
  assert.deepEqual(
    [...SIGNALS],
    REGISTRY.map((s) => s.name),
  );
  assert.deepEqual([...THREAD_SIGNALS, ...RULE_SIGNALS].map((s) => s.name).sort(), [...SIGNALS].sort());
  assert.deepEqual(
    THREAD_SIGNALS.map((s) => s.name),
    SIGNALS.filter((n) => REGISTRY.find((s) => s.name === n)!.level === 'thread'),
  );
  assert.deepEqual(
    THREAD_SIGNALS.filter((s) => s.needs === 'diffs').map((s) => s.name),
    ['evidence'],
  );
  // More than 31 signals would overflow the gate's bit set (lib/gate/judge.ts).
  assert.ok(SIGNALS.length <= 31);
});

test('each signal has its messages under its name, and no messages are left of a removed signal', () => {
  assert.deepEqual(Object.keys(signalMessages).sort(), [...SIGNALS].sort());
});

test("docs/gate.md's table names every signal with its level, in registry order", () => {
  const doc = readFileSync(join(projectRoot, 'docs', 'gate.md'), 'utf8');
  const table = doc.slice(doc.indexOf('| signal | level | met when |'));
  const rows: string[] = [];
  for (const line of table.split('\n').slice(2)) {
    if (!line.startsWith('| `')) break;
    rows.push(line);
  }
  const named = rows.map((l) => /^\| `([a-z_]+)` \| (thread|rule) \|/.exec(l)?.slice(1, 3).join(' '));
  assert.deepEqual(
    named,
    REGISTRY.map((s) => `${s.name} ${s.level}`),
  );
  for (const row of rows) assert.ok(row.split('|')[3]!.trim().length > 10, `no "met when" text in ${row}`);
});

test('no count of the signals is written by hand in docs, the README or the code', () => {
  const files = [join(projectRoot, 'README.md')];
  for (const f of readdirSync(join(projectRoot, 'docs')))
    if (f.endsWith('.md')) files.push(join(projectRoot, 'docs', f));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
    }
  };
  walk(join(projectRoot, 'lib'));
  const counted = /\b(?:five|six|seven|eight|nine|ten|\d+)[- ](?:other |thread )?(?:signals?|observed facts)\b/i;
  for (const file of files) {
    const hit = counted.exec(readFileSync(file, 'utf8'));
    assert.equal(hit, null, `${file} writes a count of signals by hand ("${hit?.[0]}"); derive it from the registry`);
  }
});
