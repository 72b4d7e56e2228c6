import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectDocuments } from '../../lib/select/index.js';
import { chunkNames, nameMatches } from '../../lib/select/names.js';
import { applyBudget, tokensOf, truncateToTokens, TRUNCATION_MARK } from '../../lib/select/budget.js';
import { toChunks } from '../../lib/diff/chunk.js';
import type { Bundle, Concept } from '../../lib/bundle/types.js';
import type { DiffFile } from '../../lib/diff/types.js';

function concept(id: string, keys: Partial<Pick<Concept, 'paths' | 'domain' | 'tags' | 'body'>>): Concept {
  return {
    id,
    file: `${id}.md`,
    type: 'Decision',
    title: id,
    description: null,
    body: keys.body ?? `Body of ${id}.`,
    paths: keys.paths ?? [],
    domain: keys.domain ?? [],
    tags: keys.tags ?? [],
    rules: [],
  };
}
const bundle = (...concepts: Concept[]): Bundle => ({ root: '/kb', concepts, diagnostics: [] });
function file(path: string, added: string[] = ['x'], oldPath: string | null = path): DiffFile {
  return {
    oldPath,
    newPath: path,
    status: oldPath === path ? 'modified' : 'renamed',
    binary: false,
    oldMode: null,
    newMode: null,
    hunks: [
      {
        oldStart: 1,
        oldLines: 0,
        newStart: 1,
        newLines: added.length,
        section: '',
        lines: added.map((text, i) => ({ kind: 'add' as const, text, oldLine: null, newLine: i + 1 })),
      },
    ],
  };
}
const select = (b: Bundle, files: DiffFile[], max = 2000) =>
  selectDocuments(b, toChunks(files, 400), { maxKnowledgeTokens: max });
const why = (b: Bundle, f: DiffFile, max = 2000) =>
  select(b, [f], max)[0]!.documents.map((d) => `${d.concept.id} ${d.match}:${d.matched}`);

test('single and qualified names in all four spellings, against namespace and folders', () => {
  const names = chunkNames('Shop.Repositories.Sql', ['src/Shop/Repositories/Sql/Repo.cs']);
  for (const name of [
    'Shop',
    'Repositories',
    'Sql',
    'src',
    'Shop.Repositories',
    'Shop::Repositories',
    'Shop\\Repositories',
    'Shop/Repositories',
    'Shop.Repositories.Sql',
  ]) {
    assert.equal(nameMatches(name, names), true, name);
  }
  for (const name of ['Shop.Repo', 'Repo', 'shop', 'Repositories.Shop', 'Repo.cs', 'Sql.Repo'])
    assert.equal(nameMatches(name, names), false, name);
  // Nested namespace matches, sibling does not; a run of folders matches anywhere in the path.
  assert.equal(nameMatches('com.acme.store', chunkNames('com.acme.store.sql', ['A.java'])), true);
  assert.equal(nameMatches('com.acme.store', chunkNames('com.acme.storefront', ['A.java'])), false);
  assert.equal(nameMatches('com/acme/store', chunkNames(null, ['src/main/java/com/acme/store/A.java'])), true);
  assert.equal(nameMatches('acme.store', chunkNames('com.acme.store', ['A.java'])), false);
  assert.equal(nameMatches('acme.store', chunkNames(null, ['com/acme/store/A.java'])), true);
  assert.equal(nameMatches('App\\Http', chunkNames('App\\Http\\Controllers', ['x.php'])), true);
  assert.equal(nameMatches('geo::v2', chunkNames('geo::v2', ['g.cpp'])), true);
  // The file name is not a folder.
  assert.equal(nameMatches('Repo.cs', chunkNames(null, ['Repo.cs'])), false);
});

test('paths match the new or the old path of a rename; dot files match; ** spans folders', () => {
  const b = bundle(
    concept('ctl', { paths: ['src/controllers/**'] }),
    concept('dot', { paths: ['**/.env*'] }),
    concept('one', { paths: ['*.md'] }),
  );
  assert.deepEqual(why(b, file('lib/moved.ts', ['x'], 'src/controllers/a/b.ts')), ['ctl paths:src/controllers/**']);
  assert.deepEqual(why(b, file('deploy/.env.local')), ['dot paths:**/.env*']);
  assert.deepEqual(why(b, file('docs/a.md')), []);
  assert.deepEqual(why(b, file('README.md')), ['one paths:*.md']);
});

test('order: priority (paths, domain, tags), then specificity, then ID; each document once with its best match', () => {
  const b = bundle(
    concept('z-tags', { tags: ['store'] }),
    concept('b-domain', { domain: ['store'] }),
    concept('a-domain', { domain: ['store'] }),
    concept('q-domain', { domain: ['com.acme.store'] }),
    concept('wide', { paths: ['src/**'] }),
    concept('narrow', { paths: ['src/main/java/**'] }),
    concept('both', { paths: ['nomatch/**'], domain: ['acme'], tags: ['store'] }),
    concept('multi', { paths: ['**/*.java', 'src/main/**'], tags: ['store'] }),
  );
  const f = file('src/main/java/com/acme/store/Repo.java', ['package com.acme.store;', 'class Repo {}']);
  assert.deepEqual(why(b, f), [
    'narrow paths:src/main/java/**',
    'multi paths:src/main/**',
    'wide paths:src/**',
    'q-domain domain:com.acme.store',
    'a-domain domain:store',
    'b-domain domain:store',
    'both domain:acme',
    'z-tags tags:store',
  ]);
  assert.equal(select(b, [f])[0]!.chunk.namespace, 'com.acme.store');
});

test('documents without paths, domain or tags are never selected; an empty bundle selects nothing', () => {
  assert.deepEqual(why(bundle(concept('glossary', {})), file('src/a.ts')), []);
  assert.deepEqual(
    select(bundle(), [file('src/a.ts')]).map((s) => [s.chunk.path, s.documents.length, s.matched.length]),
    [['src/a.ts', 0, 0]],
  );
});

test('budget: the first document that no longer fits ends the list; all matches still listed', () => {
  const b = bundle(
    concept('a', { paths: ['**'], body: 'a'.repeat(400) }), // 100 tokens
    concept('b', { paths: ['**'], body: 'b'.repeat(404) }), // 101 tokens
    concept('c', { paths: ['**'], body: 'c'.repeat(4) }), // 1 token: would fit, but comes after b
  );
  const [s] = select(b, [file('x.ts')], 200);
  assert.deepEqual(
    s!.documents.map((d) => [d.concept.id, d.tokens, d.truncated]),
    [['a', 100, false]],
  );
  assert.deepEqual(
    s!.matched.map((d) => d.concept.id),
    ['a', 'b', 'c'],
  );
  const [all] = select(b, [file('x.ts')], 202);
  assert.deepEqual(
    all!.documents.map((d) => d.concept.id),
    ['a', 'b', 'c'],
  );
});

test('budget: a best match alone over the budget is cut to fit and marked', () => {
  const body = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
  const b = bundle(concept('big', { paths: ['**'], body }), concept('small', { paths: ['**'], body: 'tiny' }));
  const [s] = select(b, [file('x.ts')], 20);
  assert.equal(s!.documents.length, 1);
  const d = s!.documents[0]!;
  assert.equal(d.truncated, true);
  assert.ok(d.tokens <= 20, `tokens ${d.tokens}`);
  assert.ok(d.text.endsWith(`\n${TRUNCATION_MARK}`));
  assert.ok(body.startsWith(d.text.slice(0, -TRUNCATION_MARK.length - 1)));
  assert.equal(d.tokens, tokensOf(d.text));
  assert.equal(s!.matched[0]!.text, body); // rules and matched list keep the whole document
});

test('budget helpers: tokens are ceil(characters / 4), code points counted', () => {
  assert.deepEqual([tokensOf(''), tokensOf('abcd'), tokensOf('abcde'), tokensOf('😀😀😀😀')], [0, 1, 2, 1]);
  assert.equal(truncateToTokens('x'.repeat(100), 2), '[…trunca');
  assert.equal(applyBudget([{ text: 'abcd', tokens: 1 }], 0)[0]!.truncated, true);
});

test('a 500-file diff against 1,000 concepts selects well under a second', () => {
  const concepts: Concept[] = [];
  for (let i = 0; i < 1000; i++) {
    concepts.push(
      concept(`c${String(i).padStart(4, '0')}`, {
        paths: [`src/module${i % 50}/**/*.ts`, `lib/pkg${i}/**`],
        domain: [`Area${i % 20}.Sub${i % 7}`, `mod${i}`],
        tags: [`tag${i % 30}`],
        body: `Concept ${i} `.repeat(50),
      }),
    );
  }
  const files = Array.from({ length: 500 }, (_, i) =>
    file(`src/module${i % 60}/deep/Area${i % 20}/Sub${i % 7}/tag${i % 30}/f${i}.ts`, [
      'export namespace Area3.Sub1 {',
      'const a = 1;',
      '}',
    ]),
  );
  const started = performance.now();
  const result = select(bundle(...concepts), files, 2000);
  const elapsed = performance.now() - started;
  assert.equal(result.length, 500);
  assert.ok(result[0]!.matched.length > 0);
  assert.ok(elapsed < 1000, `took ${elapsed.toFixed(0)} ms`);
});
