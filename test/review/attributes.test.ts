/**
 * Git's attributes are the authority on files: conflict-marker-size, binary / -diff,
 * linguist-generated / linguist-vendored; read in one check-attr batch, only when a finding
 * needs them, from the work tree, the index or the reviewed tip.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCheckAttr, readAttributes } from '../../lib/diff/attributes.js';
import { builtinRules } from '../../lib/review/builtin.js';
import type { ReviewResult } from '../../lib/review/types.js';
import { runCli, throwawayRepos } from '../kit/repo.js';
import { chunkOf, reviewChunks } from '../kit/review.js';

const rules = builtinRules(true);
const repos = throwawayRepos();
const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
const conflict = (size: number) => [
  `${'<'.repeat(size)} HEAD`,
  'ours',
  '='.repeat(size),
  'theirs',
  `${'>'.repeat(size)} topic`,
];

describe('reading attributes', () => {
  test('check-attr -z output: sizes, binary (macro and -diff), linguist values', () => {
    const out = [
      ['a.txt', 'conflict-marker-size', '32'],
      ['a.txt', 'binary', 'unspecified'],
      ['b.png', 'binary', 'set'],
      ['b.png', 'diff', 'unset'],
      ['c.dat', 'diff', 'unset'],
      ['d.js', 'linguist-generated', 'true'],
      ['e.js', 'linguist-vendored', 'set'],
      ['f.js', 'linguist-generated', 'false'],
      ['g.txt', 'conflict-marker-size', 'big'],
      ['h.txt', 'diff', 'astextplain'],
    ]
      .map((r) => r.map((f) => `${f}\0`).join(''))
      .join('');
    const got = parseCheckAttr(out);
    assert.equal(got.get('a.txt')?.markerSize, 32);
    assert.equal(got.get('b.png')?.binary, true);
    assert.equal(got.get('c.dat')?.binary, true);
    assert.equal(got.get('d.js')?.generated, true);
    assert.equal(got.get('e.js')?.vendored, true);
    assert.deepEqual([...got.keys()].sort(), ['a.txt', 'b.png', 'c.dat', 'd.js', 'e.js']);
  });

  test('work tree, index and a commit each answer with their own .gitattributes (nested folders too)', async () => {
    const repo = repos();
    repo.commit('attributes', {
      '.gitattributes': '*.txt conflict-marker-size=9\n',
      'docs/.gitattributes': 'gen/** linguist-generated\n*.bin binary\n',
      'docs/a.txt': 'x\n',
    });
    repo.write('.gitattributes', '*.txt conflict-marker-size=11\n');
    repo.git(['add', '.gitattributes']);
    repo.write('.gitattributes', '*.txt conflict-marker-size=13\n');
    const paths = ['docs/a.txt', 'docs/gen/x.js', 'docs/y.bin', 'plain.js', 'dir with space/ü.txt'];
    const tree = await readAttributes(repo.dir, paths, { kind: 'tree', treeish: 'HEAD' });
    const index = await readAttributes(repo.dir, paths, { kind: 'index' });
    const worktree = await readAttributes(repo.dir, paths, { kind: 'worktree' });
    assert.equal(tree.get('docs/a.txt')?.markerSize, 9);
    assert.equal(index.get('docs/a.txt')?.markerSize, 11);
    assert.equal(worktree.get('docs/a.txt')?.markerSize, 13);
    assert.equal(worktree.get('dir with space/ü.txt')?.markerSize, 13);
    for (const got of [tree, index, worktree]) {
      assert.equal(got.get('docs/gen/x.js')?.generated, true);
      assert.equal(got.get('docs/y.bin')?.binary, true);
      assert.equal(got.has('plain.js'), false);
    }
    assert.deepEqual(await readAttributes(repo.dir, [], { kind: 'worktree' }), new Map());
  });

  test('a commit without .gitattributes still applies $GIT_DIR/info/attributes', async () => {
    const repo = repos();
    repo.commit('first', { 'a.txt': 'x\n' });
    writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), 'a.txt linguist-vendored\n');
    assert.equal(
      (await readAttributes(repo.dir, ['a.txt'], { kind: 'tree', treeish: 'HEAD' })).get('a.txt')?.vendored,
      true,
    );
  });
});

describe('attributes in the rule phase', () => {
  test('asked once, only for files with findings, and not at all when nothing is found', async () => {
    const clean = await reviewChunks([chunkOf('a.ts', ['const a = 1;']), chunkOf('b.ts', ['const b = 2;'])], rules);
    assert.deepEqual(clean.asked, []);
    const found = await reviewChunks(
      [chunkOf('a.ts', ['debugger;']), chunkOf('b.ts', ['const b = 2;']), chunkOf('c.ts', ['debugger;'])],
      rules,
    );
    assert.deepEqual(found.asked, [['a.ts', 'c.ts']]);
  });

  test('conflict-marker-size sets the marker length: 9-character markers found, 7-character ones are text there', async () => {
    const nine = await reviewChunks([chunkOf('notes.txt', conflict(9))], rules, { 'notes.txt': { markerSize: 9 } });
    assert.deepEqual(
      nine.findings.map((f) => `${f.line} ${f.rule_source}`),
      ['1 builtin/git:conflict-marker'],
    );
    const seven = await reviewChunks([chunkOf('doc.adoc', conflict(7))], rules, { 'doc.adoc': { markerSize: 32 } });
    assert.deepEqual(seven.findings, []);
    const unset = await reviewChunks([chunkOf('notes.txt', conflict(9))], rules);
    assert.deepEqual(unset.findings, [], '9 characters are not a marker at the default size');
  });

  test('linguist-generated and linguist-vendored files get the credential rules only; binary ones nothing', async () => {
    const lines = ['debugger;', `const key = '${AWS}';`];
    const generated = await reviewChunks([chunkOf('src/gen.ts', lines)], rules, { 'src/gen.ts': { generated: true } });
    assert.deepEqual(
      generated.findings.map((f) => f.rule_source),
      ['builtin/secrets:aws-access-key'],
    );
    assert.equal(generated.dropped.credentials_only, 1);
    assert.match(
      generated.notes!.join('\n'),
      /src\/gen\.ts: generated \(linguist-generated in git attributes\); only the credential rules ran/,
    );
    const vendored = await reviewChunks([chunkOf('vendor/x.js', lines)], rules, { 'vendor/x.js': { vendored: true } });
    assert.deepEqual(
      vendored.findings.map((f) => f.rule_source),
      ['builtin/secrets:aws-access-key'],
    );
    const binary = await reviewChunks([chunkOf('blob.dat', lines)], rules, { 'blob.dat': { binary: true } });
    assert.deepEqual(binary.findings, []);
    assert.match(binary.notes!.join('\n'), /blob\.dat: binary or -diff/);
  });

  test('minified and generated files are known without git: by name, header and shape', async () => {
    const lines = ['debugger;', `const key = '${AWS}';`];
    for (const [path, content] of [
      ['dist/app.min.js', lines],
      ['pkg/api.pb.go', lines],
      ['src/schema.ts', ['// Code generated by schemagen. DO NOT EDIT.', ...lines]],
      ['src/bundle.js', [`${'a=b(c,d);'.repeat(150)}`, ...lines]],
    ] as const) {
      const got = await reviewChunks([chunkOf(path, [...content])], rules);
      assert.deepEqual(
        got.findings.map((f) => f.rule_source),
        ['builtin/secrets:aws-access-key'],
        path,
      );
      assert.equal(got.dropped.credentials_only, 1, path);
    }
    // A long line of prose or data is not minified code: the file is reviewed as usual.
    const prose = await reviewChunks([chunkOf('src/a.ts', [`// ${'word '.repeat(300)}`, 'debugger;'])], rules);
    assert.deepEqual(
      prose.findings.map((f) => f.rule_source),
      ['builtin/debug:debugger'],
    );
  });
});

describe('attributes through the CLI', () => {
  async function reviewJson(
    dir: string,
    args: string[],
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number; result: ReviewResult; stderr: string }> {
    const run = await runCli(['review', '--format', 'json', ...args], { cwd: dir, env });
    return { code: run.code, result: JSON.parse(run.stdout) as ReviewResult, stderr: run.stderr };
  }

  test('the default review, --staged and --range each read the attributes that apply to them', async () => {
    const repo = repos();
    repo.commit('base', { '.gitattributes': '*.txt conflict-marker-size=9\n', 'README.md': 'x\n' });
    repo.commit('conflicted notes', { 'notes.txt': `${conflict(9).join('\n')}\n` });
    // The tip says 9; the work tree now says 7: a range follows the tip, local reviews the work tree.
    repo.write('.gitattributes', '*.txt conflict-marker-size=7\n');
    const range = await reviewJson(repo.dir, ['--range', 'HEAD~1..HEAD']);
    assert.deepEqual(
      range.result.findings.map((f) => `${f.path}:${f.line}`),
      ['notes.txt:1'],
    );
    repo.write('more.txt', `${conflict(9).join('\n')}\n`);
    const local = await reviewJson(repo.dir, []);
    assert.deepEqual(local.result.findings, [], 'the work tree says 7: 9-character runs are text');
    repo.git(['add', 'more.txt']);
    const staged = await reviewJson(repo.dir, ['--staged']);
    assert.deepEqual(
      staged.result.findings.map((f) => `${f.path}:${f.line}`),
      ['more.txt:1'],
      'the index still says 9',
    );
  });

  test('a review without findings runs no git check-attr', async () => {
    const repo = repos();
    repo.commit('base', { '.gitattributes': '*.js linguist-generated\n' });
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.git(['add', '-A']);
    const trace = join(repo.dir, '.git', 'trace.log');
    const clean = await reviewJson(repo.dir, ['--staged'], { GIT_TRACE: trace });
    assert.equal(clean.code, 0);
    assert.doesNotMatch(readFileSync(trace, 'utf8'), /git check-attr/);
    repo.write('src/b.js', 'debugger;\n');
    repo.git(['add', '-A']);
    writeFileSync(trace, '');
    const generated = await reviewJson(repo.dir, ['--staged'], { GIT_TRACE: trace });
    assert.deepEqual(generated.result.findings, []);
    assert.equal(generated.result.dropped.credentials_only, 1);
    assert.equal([...readFileSync(trace, 'utf8').matchAll(/built-in: git check-attr/g)].length, 1);
  });
});
