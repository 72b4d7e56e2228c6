/**
 * The pushed commits' own diffs with their messages (lib/flows/push-commits.ts), from one real
 * `git log`: each commit's patch is followed by its message as an added file, whatever the
 * message holds (lines that look like a diff, empty messages, commits with no change), and no
 * message moves a boundary.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commitPatches, messagePath } from '../../lib/flows/push-commits.js';
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
  for await (const p of commitPatches(r.dir, { commits: [a, empty, b, c], merges: new Set() }))
    got.set(p.commit, p.diff.toString('utf8'));
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
        for await (const p of commitPatches(r.dir, { commits: made.map((m) => m.sha), merges: new Set() })) {
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

/** `[line number, text]` of each line a patch adds to `file`. */
function addedLines(diff: string, file: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let inFile = false;
  let at = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) inFile = line === `diff --git a/${file} b/${file}`;
    else if (!inFile || line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    else if (line.startsWith('@@ ')) at = Number(/\+(\d+)/.exec(line)![1]);
    else if (line.startsWith('+')) out.push([at++, line.slice(1)]);
    else if (line.startsWith(' ')) at++;
  }
  return out;
}

test('a merge: only what it adds beyond both parents, numbered as in the merge; a clean merge adds nothing', async () => {
  const r = makeRepo();
  const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
  r.commit('base', { 'f.txt': `${lines.join('\n')}\n` });
  const base = r.git(['rev-parse', 'HEAD']).trim();
  r.git(['checkout', '-q', '-b', 'side']);
  r.commit('side', {
    'f.txt': `${lines.map((l, i) => (i === 10 ? 'side 10' : l)).join('\n')}\n`,
    'g.txt': 'from side\n',
  });
  r.git(['checkout', '-q', '-']);
  r.commit('main', { 'f.txt': `${lines.map((l, i) => (i === 1 ? 'main 1' : l)).join('\n')}\n` });
  r.git(['merge', '-q', '--no-edit', 'side']);
  const clean = r.git(['rev-parse', 'HEAD']).trim();
  // The same merge with a line of its own (an "evil merge"): the merge adds it, nothing else.
  const evilText = `${lines.map((l, i) => (i === 1 ? 'main 1' : i === 10 ? 'side 10' : l)).join('\n')}\nAKIA-added-by-the-merge\n`;
  r.write('f.txt', evilText);
  r.git(['add', 'f.txt']);
  r.git(['commit', '-q', '--amend', '--no-edit']);
  const evil = r.git(['rev-parse', 'HEAD']).trim();
  const got = new Map<string, string>();
  for await (const p of commitPatches(r.dir, { commits: [clean, evil, base], merges: new Set([clean, evil]) }))
    got.set(p.commit, p.diff.toString('utf8'));
  assert.deepEqual(new Set(got.keys()), new Set([clean, evil, base]));
  assert.deepEqual(addedLines(got.get(clean)!, 'f.txt'), []);
  assert.deepEqual(addedLines(got.get(clean)!, 'g.txt'), []);
  assert.deepEqual(addedLines(got.get(evil)!, 'f.txt'), [[13, 'AKIA-added-by-the-merge']]);
  assert.deepEqual(messageLines(got.get(evil)!, evil), [`Merge branch 'side'`]);
});

test('property: a merge of any content gives every line no parent has, at its own line number, and nothing it lacks', async () => {
  const r = makeRepo();
  r.commit('root', { 'f.txt': 'seed\n' });
  const root = r.git(['rev-parse', 'HEAD']).trim();
  const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'key=AKIA1', '', ' x', '+y', '-z', '@@ w'), {
    maxLength: 8,
  });
  const blob = (lines: string[]) =>
    r.git(['hash-object', '-w', '--stdin'], { input: lines.map((l) => `${l}\n`).join('') }).trim();
  const tree = (lines: string[] | null) =>
    r.git(['mktree'], { input: lines ? `100644 blob ${blob(lines)}\tf.txt\n` : '' }).trim();
  const commitOf = (t: string, parents: string[], message: string) =>
    r.git(['commit-tree', t, ...parents.flatMap((p) => ['-p', p]), '-m', message]).trim();
  await fc.assert(
    fc.asyncProperty(text, text, fc.option(text), async (one, two, merged) => {
      const p1 = commitOf(tree(one), [root], 'one');
      const p2 = commitOf(tree(two), [root], 'two');
      const merge = commitOf(tree(merged), [p1, p2], 'merge');
      let diff = '';
      for await (const p of commitPatches(r.dir, { commits: [merge], merges: new Set([merge]) }))
        diff = p.diff.toString('utf8');
      const added = addedLines(diff, 'f.txt');
      const result = merged ?? [];
      for (const [n, line] of added) assert.equal(result[n - 1], line, `line ${n}`);
      const known = new Set([...one, ...two]);
      const shown = new Set(added.map(([n]) => n));
      result.forEach((line, i) => {
        if (!known.has(line))
          assert.ok(shown.has(i + 1), `line ${i + 1} (${JSON.stringify(line)}) is new and not added`);
      });
    }),
    { numRuns: 40 },
  );
});
