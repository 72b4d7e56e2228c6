/**
 * `org mine` asks each repository three git processes before its `git log` (docs/org.md
 * "Bench"): the parsers of those answers as pure functions, and, on a real repository with a
 * remote, an upstream, a detached remote HEAD and a replace ref, that what they make equals
 * what the separate git calls they replace print (the stamp's `show-ref --head`, the mining
 * signature's `rev-parse`, the mainline).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listRefs, parseListedRefs, parseRemoteConfig, run } from '../../lib/core/git/commands.js';
import { located, locate, refsText, remoteUrlOf, knownRefs } from '../../lib/org/repos.js';
import { signatureAnswerOf, signatureQuestion } from '../../lib/mine/cache.js';
import { resolveMainline, teamRemote, teamRemoteOf } from '../../lib/gate/mainline.js';
import { makeRepo, throwawayRepos } from '../kit/repo.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

test('parseListedRefs: objects, peeled commits, symbolic refs, HEAD and the upstream remote', () => {
  const line = (...f: string[]) => f.join('\0');
  const refs = parseListedRefs(
    [
      line('refs/heads/main', 'commit', A, '', '', '', '*', 'origin'),
      line('refs/heads/tagged', 'tag', B, 'commit', A, '', ' ', ''),
      line('refs/remotes/origin/HEAD', 'commit', A, '', '', 'refs/remotes/origin/main', ' ', ''),
      'garbage',
      '',
    ].join('\n'),
  );
  assert.deepEqual(refs.get('refs/heads/main'), {
    commit: A,
    symref: null,
    object: A,
    head: true,
    upstreamRemote: 'origin',
  });
  assert.deepEqual(refs.get('refs/heads/tagged'), {
    commit: A,
    symref: null,
    object: B,
    head: false,
    upstreamRemote: null,
  });
  assert.equal(refs.get('refs/remotes/origin/HEAD')!.symref, 'refs/remotes/origin/main');
  assert.equal(refs.size, 3);
});

test('parseRemoteConfig: names in order (dots kept), the last url of each, keys without a value', () => {
  const c = parseRemoteConfig(
    'remote.origin.url\nhttps://a/x\0remote.origin.fetch\n+refs/heads/*:refs/remotes/origin/*\0remote.team.v2.url\ngit@b:y\0remote.team.v2.url\ngit@c:y\0remote.bare.prune\0',
  );
  assert.deepEqual(c.names, ['origin', 'team.v2', 'bare']);
  assert.deepEqual(
    [...c.urls],
    [
      ['origin', 'https://a/x'],
      ['team.v2', 'git@c:y'],
    ],
  );
  assert.equal(remoteUrlOf(c), 'https://a/x');
  assert.equal(remoteUrlOf(parseRemoteConfig('remote.up.url\nu\0')), 'u');
  assert.equal(remoteUrlOf(parseRemoteConfig('remote.a.url\nu\0remote.b.url\nv\0')), null);
  assert.deepEqual(parseRemoteConfig(''), { names: [], urls: new Map() });
});

test('located: a work tree, a bare clone, an unborn HEAD, a folder that is none', () => {
  assert.deepEqual(located({ stdout: `false\n/r/.git\n.git\n${A}\n/r\n`, status: 0 }, true), {
    top: '/r',
    common: '.git',
    bare: false,
    head: A,
  });
  assert.deepEqual(located({ stdout: `true\n/b.git\n.\n${A}\n`, status: 128 }, true), {
    top: '/b.git',
    common: '.',
    bare: true,
    head: A,
  });
  assert.deepEqual(located({ stdout: 'true\n/b.git\n.\nHEAD^{commit}\n', status: 128 }, true), {
    top: '/b.git',
    common: '.',
    bare: true,
    head: null,
  });
  // An unborn HEAD in a work tree stops the answer before the top level: asked again without HEAD.
  assert.equal(located({ stdout: 'false\n/r/.git\n.git\nHEAD^{commit}\n', status: 128 }, true), 'again');
  assert.deepEqual(located({ stdout: 'false\n/r/.git\n.git\n/r\n', status: 0 }, false), {
    top: '/r',
    common: '.git',
    bare: false,
    head: null,
  });
  assert.equal(located(null, true), null);
  assert.equal(located({ stdout: '', status: 128 }, true), null);
});

test('teamRemoteOf: the upstream remote when configured, else the only remote, else origin', () => {
  assert.equal(teamRemoteOf('up', ['origin', 'up']), 'up');
  assert.equal(teamRemoteOf('.', ['fork']), 'fork');
  assert.equal(teamRemoteOf(null, ['fork']), 'fork');
  assert.equal(teamRemoteOf('gone', ['a', 'b']), 'origin');
});

test('on a real repository the one listing says what show-ref, rev-parse and the mainline calls say', async () => {
  const repos = throwawayRepos();
  const upstream = repos({ bare: true });
  const r = repos();
  const first = r.commit('one');
  r.git(['remote', 'add', 'origin', upstream.dir]);
  r.git(['push', '-q', '-u', 'origin', 'main']);
  r.git(['remote', 'set-head', 'origin', 'main']);
  const second = r.commit('two');
  r.git(['branch', 'side', first]);
  r.git(['replace', '--graft', second]);
  const source = await locate({ name: 'r', path: r.dir });
  assert.equal(source.remote, upstream.dir);
  assert.equal(source.refs.head, r.git(['rev-parse', 'HEAD']).trim());
  assert.equal(source.refs.teamRemote, await teamRemote(r.dir));
  // The stamp's text is what `git show-ref --head` printed (stamps written before stay valid).
  const shown = r
    .git(['show-ref', '--head'])
    .split('\n')
    .filter((l) => / (HEAD|refs\/heads\/.*|refs\/remotes\/.*)$/.test(l))
    .join('\n');
  assert.equal(refsText(source.refs), shown);
  // The mainline from the listing is the one resolveMainline finds asking git itself.
  const known = knownRefs(source.refs);
  assert.deepEqual(await resolveMainline(r.dir, undefined, known), await resolveMainline(r.dir));
  // The mining signature's answer is what its rev-parse prints.
  const args = ['HEAD', 'origin/main'];
  const asked = r
    .git(['rev-parse', ...signatureQuestion(args)!])
    .split('\n')
    .filter(Boolean);
  const main = (await resolveMainline(r.dir)).mainline!;
  assert.equal(main.name, 'origin/main');
  const made = signatureAnswerOf([source.refs.head!, main.sha], known.replaced);
  assert.equal(known.replaced.length, 1);
  // rev-parse prints its --git-path marks as paths; the answer reads any line ending in the mark alike.
  assert.deepEqual(
    made.map((l) => l.replace(/.*\/revtrail-signature$/, 'revtrail-signature')),
    asked.map((l) => l.replace(/.*\/revtrail-signature$/, 'revtrail-signature')),
  );
  // The listing command itself, run alone, lists the replace ref too.
  const listed = await run(listRefs(['refs/replace/']), { cwd: r.dir });
  assert.equal(listed.size, 1);
});

test('locate: an empty repository (unborn HEAD) is located, with no HEAD', async () => {
  const r = makeRepo();
  try {
    const source = await locate({ name: 'e', path: r.dir });
    assert.equal(source.top, r.dir);
    assert.equal(source.refs.head, null);
    assert.equal(refsText(source.refs), '');
  } finally {
    r.cleanup();
  }
});
