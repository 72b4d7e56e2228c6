/**
 * The pure parts of keeping the record (docs/record.md): reading a git command line for an
 * amend, and what a merge introduced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amends, isAmendCommit, subcommandOf } from '../../lib/core/git/invocation.js';
import { introducedDiff } from '../../lib/flows/merge-diff.js';
import { parseDiff } from '../../lib/diff/parse.js';

test('an amend is told from the git command line: global options, prefixes, --no-amend, aliases', async () => {
  assert.deepEqual(subcommandOf(['git', '-C', 'x y', '-c', 'a=b', '--no-pager', 'commit', '--amend']), {
    name: 'commit',
    args: ['--amend'],
  });
  assert.deepEqual(subcommandOf(['/usr/lib/git-core/git-commit', '-m', 'x']), { name: 'commit', args: ['-m', 'x'] });
  assert.equal(amends(['-m', 'x', '--amend']), true);
  assert.equal(amends(['--am']), true);
  assert.equal(amends(['--amend', '--no-amend']), false);
  assert.equal(amends(['-m', 'x', '--', '--amend']), false, 'a path after -- is no option');
  assert.equal(amends(['-m', '--amend is in the message']), false);
  const none = async () => null;
  assert.equal(await isAmendCommit(none, ['git', 'commit', '--amend', '-m', 'x']), true);
  assert.equal(await isAmendCommit(none, ['git', 'commit', '-m', 'x']), false);
  assert.equal(await isAmendCommit(none, ['git', 'merge', 'topic']), false);
  assert.equal(await isAmendCommit(none, null), false, 'no git above: not an amend');
  const aliases: Record<string, string> = { ca: 'commit --amend', ci: 'commit', sh: '!git commit --amend' };
  const lookup = async (name: string) => aliases[name] ?? null;
  assert.equal(await isAmendCommit(lookup, ['git', 'ca', '-m', 'x']), true);
  assert.equal(await isAmendCommit(lookup, ['git', 'ci', '--amend']), true);
  assert.equal(await isAmendCommit(lookup, ['git', 'ci', '-m', 'x']), false);
  assert.equal(await isAmendCommit(lookup, ['git', 'sh']), false, 'a shell alias runs its own git');
});

const diff = (path: string, start: number, lines: string[]) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -${start},0 +${start},${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}\n`;

test("a merge introduces the lines every parent's diff adds; the rest become context, numbers kept", () => {
  // From the first parent: the topic's two lines and the resolution's marker; from the second: the marker only.
  const first = diff('a.js', 3, ['topic one', '<<<<<<< HEAD', 'topic two']);
  const second = diff('a.js', 4, ['<<<<<<< HEAD']);
  const text = introducedDiff(first, [second]);
  const [file] = parseDiff(text);
  assert.equal(file!.newPath, 'a.js');
  assert.deepEqual(
    file!.hunks[0]!.lines.map((l) => [l.kind, l.newLine, l.text]),
    [
      ['context', 3, 'topic one'],
      ['add', 4, '<<<<<<< HEAD'],
      ['context', 5, 'topic two'],
    ],
  );
  assert.equal(introducedDiff(first, ['']), '', 'the result is the second parent: the merge adds nothing of its own');
  assert.equal(introducedDiff('', []), '');
});
