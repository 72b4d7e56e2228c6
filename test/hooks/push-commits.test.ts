/**
 * The pushed commits' own diffs with their messages (lib/hooks/push-commits.ts), from one real
 * `git log`: each commit's patch is followed by its message as an added file, whatever the
 * message holds (lines that look like a diff, empty messages, commits with no change), and no
 * message moves a boundary.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commitPatches, messagePath } from '../../lib/hooks/push-commits.js';
import { makeRepo } from '../kit/repo.js';

const messageLines = (diff: string, commit: string) => {
  const path = messagePath('commit', commit.slice(0, 12));
  const at = diff.indexOf(`+++ b/${path}\n`);
  if (at === -1) return null;
  return diff
    .slice(at)
    .split('\n')
    .slice(2)
    .filter((l) => l.startsWith('+'))
    .map((l) => l.slice(1));
};

test('each commit: its patch, then its message as an added file; empty messages add nothing', async () => {
  const r = makeRepo();
  const a = r.commit('feat: one\n\nbody line\ndiff --git a/x b/x\n+++ b/evil', { 'a.txt': 'a\n' });
  r.git(['commit', '-q', '--allow-empty', '--allow-empty-message', '-m', '']);
  const empty = r.git(['rev-parse', 'HEAD']).trim();
  const b = r.commit('chore: no change');
  const c = r.commit('fix: two', { 'a.txt': 'b\n' });
  const got = new Map<string, string>();
  for await (const p of commitPatches(r.dir, [a, empty, b, c])) got.set(p.commit, p.diff.toString('utf8'));
  assert.deepEqual([...got.keys()], [a, empty, b, c]);
  assert.deepEqual(messageLines(got.get(a)!, a), ['feat: one', '', 'body line', 'diff --git a/x b/x', '+++ b/evil']);
  assert.match(got.get(a)!, /^diff --git a\/a\.txt b\/a\.txt\n/);
  assert.equal(got.get(empty), '');
  assert.deepEqual(messageLines(got.get(b)!, b), ['chore: no change']);
  assert.deepEqual(messageLines(got.get(c)!, c), ['fix: two']);
  assert.match(got.get(c)!, /^diff --git a\/a\.txt b\/a\.txt\n[\s\S]*\n-a\n\+b\n/);
});

test('property: any messages and patches come back whole, each with its own commit', async () => {
  const r = makeRepo();
  const line = fc.oneof(
    fc.string({ maxLength: 20 }).map((s) => s.replace(/[\0\r\n]/g, ' ')),
    fc.constantFrom('diff --git a/b b/b', '--- /dev/null', '+++ b/x', '@@ -0,0 +1 @@', '+key', 'revtrail-'),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.array(line, { minLength: 1, maxLength: 4 }), fc.boolean()), { minLength: 1, maxLength: 4 }),
      async (commits) => {
        const made: Array<{ sha: string; lines: string[] }> = [];
        for (const [lines, change] of commits) {
          const subject = `s${made.length} ${lines[0]!.trim()}`.trim();
          const text = [subject, ...lines.slice(1)].join('\n');
          if (change) r.write('f.txt', `${Math.random()}\n`);
          r.git(['add', '-A']);
          r.git(['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', '-'], { input: text });
          const sha = r.git(['rev-parse', 'HEAD']).trim();
          const stored = r.git(['log', '-1', '--format=%B', sha]).replace(/\n+$/, '');
          made.push({ sha, lines: stored.split('\n') });
        }
        const got: string[] = [];
        for await (const p of commitPatches(
          r.dir,
          made.map((m) => m.sha),
        )) {
          const m = made[got.length]!;
          assert.equal(p.commit, m.sha);
          assert.deepEqual(messageLines(p.diff.toString('utf8'), p.commit), m.lines);
          got.push(p.commit);
        }
        assert.equal(got.length, made.length);
      },
    ),
    { numRuns: 25 },
  );
});
