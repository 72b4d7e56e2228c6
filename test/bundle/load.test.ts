import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../lib/bundle/load.js';
import { bundleDir, concept, lines, ids } from '../kit/bundle.js';

test('discovery follows index links only: relative, bundle-absolute, folders, nested indexes', async () => {
  const dir = bundleDir({
    'index.md':
      '# KB\n\n- [ADR 1](decisions/adr-1.md)\n- [Guides](guides/)\n- [abs](/glossary/term.md "title")\n- [log](log.md)\n- [site](https://example.com/x.md)\n- [anchor](#top)\n- ![img](pic.md)\n\n```\n[in code](hidden.md)\n```\n`[span](hidden.md)`\n[ref]: <refs/ref%20doc.md>\n',
    'decisions/adr-1.md': concept('type: Decision\npaths: ["src/**"]'),
    'guides/index.md': '[Style](style.md) and [up](../index.md) and [again](../decisions/adr-1.md)\n',
    'guides/style.md': concept('type: Guide\nid: style-guide\ntitle: The style guide'),
    'glossary/term.md': concept('type: Term', 'No heading here.\n'),
    'refs/ref doc.md': concept('type: Reference'),
    'log.md': concept('type: Log'),
    'hidden.md': concept('type: Hidden'),
    'pic.md': concept('type: Picture'),
    'unlisted.md': concept('type: Unlisted'),
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  // Link order, depth first: the guides index is read where it is linked.
  assert.deepEqual(ids(b), ['decisions/adr-1', 'style-guide', 'glossary/term', 'refs/ref doc']);
  assert.deepEqual(
    b.concepts.map((c) => c.title),
    ['Heading', 'The style guide', 'glossary/term', 'Heading'],
  );
  assert.equal(b.concepts[0]!.file, 'decisions/adr-1.md');
  assert.equal(b.concepts[0]!.body, '# Heading\n\nBody text.');
  // The link back to the root index closes a cycle: reported, not followed again.
  assert.deepEqual(lines(b), [
    'kb/guides/index.md:1: warning: link back to ../index.md, which links here already (an index cycle); not followed again',
  ]);
});

test('missing bundle, bundle without index.md, a file where the bundle should be', async () => {
  const dir = bundleDir({ 'readme.md': 'x' });
  const missing = await loadBundle(join(dir, 'nope'), { base: dir });
  assert.deepEqual(
    [missing.concepts.length, lines(missing)],
    [0, ['nope: warning: knowledge bundle nope does not exist: no documents are selected']],
  );
  const noIndex = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(lines(noIndex), [
    'kb: warning: kb has no index.md: no documents are loaded (discovery starts at index.md)',
  ]);
  const file = await loadBundle(join(dir, 'kb', 'readme.md'), { base: dir });
  assert.match(lines(file)[0]!, /kb\/readme\.md is not a folder/);
});

test('links out of the bundle (lexical and through a symlink), missing targets, folders without index, directory named like a concept', async () => {
  const dir = bundleDir({
    'index.md':
      '[out](../outside.md)\n[abs out](/../outside.md)\n[link](linked.md)\n[dirlink](linked-dir/)\n[missing](nope.md)\n[empty folder](empty/)\n[dir](folder.md)\n[ok](ok.md)\n',
    'ok.md': concept('type: Note\ndomain: store'),
  });
  writeFileSync(join(dir, 'outside.md'), concept('type: Secret'));
  mkdirSync(join(dir, 'outside-dir'));
  writeFileSync(join(dir, 'outside-dir', 'index.md'), '[x](x.md)\n');
  symlinkSync(join(dir, 'outside.md'), join(dir, 'kb', 'linked.md'));
  symlinkSync(join(dir, 'outside-dir'), join(dir, 'kb', 'linked-dir'));
  mkdirSync(join(dir, 'kb', 'empty'));
  mkdirSync(join(dir, 'kb', 'folder.md'));
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['ok']);
  assert.deepEqual(lines(b), [
    'kb/index.md:1: warning: link to ../outside.md leaves the bundle; ignored',
    'kb/index.md:2: warning: link to /../outside.md leaves the bundle; ignored',
    `kb/index.md:3: warning: link to linked.md resolves (through a symlink) to ${join(dir, 'outside.md')}, outside the bundle; ignored`,
    `kb/index.md:4: warning: link to linked-dir/ resolves (through a symlink) to ${join(dir, 'outside-dir')}, outside the bundle; ignored`,
    'kb/index.md:5: warning: link to nope.md: no such file',
    'kb/index.md:6: warning: link to folder empty/, which has no index.md; ignored',
    'kb/index.md:7: warning: link to folder folder.md, which has no index.md; ignored',
  ]);
});

test('a symlink inside the bundle is followed; each file is read once', async () => {
  const dir = bundleDir({
    'index.md': '[a](a.md) [alias](alias.md) [a again](./a.md)\n',
    'a.md': concept('type: Note'),
  });
  symlinkSync(join(dir, 'kb', 'a.md'), join(dir, 'kb', 'alias.md'));
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual([ids(b), lines(b)], [['a'], []]);
});

test('concept problems: no frontmatter, bad YAML, no type, empty type, not a mapping, duplicate ids', async () => {
  const dir = bundleDir({
    'index.md':
      ['plain', 'yaml', 'notype', 'emptytype', 'list', 'one', 'two', 'unclosed']
        .map((n) => `[${n}](${n}.md)`)
        .join('\n') + '\n',
    'plain.md': '# Just markdown\n',
    'yaml.md': '---\ntype: Note\npaths: [src/**\n---\nbody\n',
    'notype.md': '---\ntitle: No type\n---\n',
    'emptytype.md': '---\ntitle: x\ntype: "  "\n---\n',
    'list.md': '---\n- a\n- b\n---\n',
    'one.md': concept('type: Note\nid: same'),
    'two.md': concept('title: Two\ntype: Note\nid: same'),
    'unclosed.md': '---\ntype: Note\n',
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(ids(b), ['same']);
  assert.equal(b.concepts[0]!.file, 'one.md');
  const out = lines(b);
  assert.equal(out.length, 7);
  assert.equal(out[0], 'kb/plain.md:1: warning: no YAML frontmatter (a concept starts with a --- line); skipped');
  assert.match(out[1]!, /^kb\/yaml\.md:[34]: warning: frontmatter is not valid YAML: .+; skipped$/);
  assert.equal(
    out[2],
    'kb/notype.md:1: warning: no `type` in the frontmatter (OKF requires a non-empty type); skipped',
  );
  assert.equal(
    out[3],
    'kb/emptytype.md:3: warning: no `type` in the frontmatter (OKF requires a non-empty type); skipped',
  );
  assert.equal(out[4], 'kb/list.md:2: warning: frontmatter is not a mapping of keys to values; skipped');
  assert.equal(out[5], 'kb/two.md:4: duplicate concept id "same" (also kb/one.md); this one is ignored');
  assert.equal(out[6], 'kb/unclosed.md:1: warning: the frontmatter has no closing --- line; skipped');
  assert.equal(b.diagnostics.filter((d) => d.level === 'error').length, 1);
});

test('governing keys: x: wins over top level per key; domain and tags as a name or a list', async () => {
  const dir = bundleDir({
    'index.md': '[a](a.md) [b](b.md)\n',
    'a.md': concept(
      'type: Decision\npaths: ["top/**"]\ndomain: Top\ntags: [t1]\nx:\n  paths: ["/src/**", "./lib/*.ts"]\n  domain: [Shop.Repositories, store]',
    ),
    'b.md': concept('type: Decision\ndomain: App\\Http\ntags: one'),
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  const [a, bb] = b.concepts;
  assert.deepEqual([a!.paths, a!.domain, a!.tags], [['src/**', 'lib/*.ts'], ['Shop.Repositories', 'store'], ['t1']]);
  assert.deepEqual([bb!.domain, bb!.tags], [['App\\Http'], ['one']]);
  assert.deepEqual(lines(b), [
    'kb/a.md:7: warning: `paths`: glob "/src/**" starts with / or ./; globs are relative to the repository top, read as "src/**"',
    'kb/a.md:7: warning: `paths`: glob "./lib/*.ts" starts with / or ./; globs are relative to the repository top, read as "lib/*.ts"',
  ]);
});

test('invalid globs and bad names are errors with their line; the rest of the concept loads', async () => {
  const dir = bundleDir({
    'index.md': '[a](a.md)\n',
    'a.md': concept(
      'type: Decision\npaths:\n  - "src/[a"\n  - "!src/**"\n  - ""\n  - 42\n  - "lib/**"\ndomain: [ok, {x: 1}]',
    ),
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual([b.concepts[0]!.paths, b.concepts[0]!.domain], [['lib/**'], ['ok']]);
  assert.deepEqual(lines(b), [
    'kb/a.md:4: `paths`: invalid glob "src/[a": Missing closing: "]" - use "\\\\]" to match literal characters',
    'kb/a.md:5: `paths`: glob "!src/**" starts with !: negation is not supported here (a rule has `exclude` for that)',
    'kb/a.md:6: `paths`: an empty glob matches nothing',
    'kb/a.md:7: `paths` must be a glob or a list of globs',
    'kb/a.md:9: `domain` must be a name or a list of non-empty names',
  ]);
});

test('rules: defaults, validation with lines, bad regex, duplicate rule ids, unknown keys', async () => {
  const dir = bundleDir({
    'index.md': '[a](a.md) [b](b.md)\n',
    'a.md': concept(
      [
        'type: Decision',
        'id: adr-1',
        'x:',
        '  rules:',
        '    - id: no-db',
        '      pattern: "\\\\bdb\\\\.query\\\\("',
        '      flags: gi',
        '      severity: bug',
        '      title: Controllers do not query the database',
        '      paths: ["src/controllers/**"]',
        '    - id: bad-re',
        '      pattern: "(unclosed"',
        '      severity: nit',
        '      title: Broken',
        '    - id: bad-enum',
        '      pattern: x',
        '      severity: fatal',
        '      category: vibes',
        '      title: Enum',
        '      confidence: 2',
        '    - id: no-db',
        '      pattern: y',
        '      severity: nit',
        '      title: Twice',
        '    - id: typo',
        '      pattern: z',
        '      severty: nit',
        '      title: Typo',
        '    - id: badglob',
        '      pattern: z',
        '      severity: nit',
        '      title: Glob',
        '      exclude: ["{a,b"]',
      ].join('\n'),
    ),
    'b.md': concept('type: Decision\nid: has space\nrules:\n  - {id: r, pattern: x, severity: nit, title: t}'),
  });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  const rules = b.concepts[0]!.rules;
  assert.equal(rules.length, 1);
  const rule = rules[0]!;
  assert.deepEqual(
    [
      rule.ruleSource,
      rule.documentId,
      rule.category,
      rule.confidence,
      rule.flags,
      rule.paths,
      rule.exclude,
      rule.message,
    ],
    ['adr-1:no-db', 'adr-1', 'architecture', 1, 'i', ['src/controllers/**'], [], null],
  );
  assert.equal(rule.regex.test('await DB.QUERY(sql)'), true);
  assert.equal(rule.regex.test('await DB.QUERY(sql)'), true); // no `g`: no lastIndex carried over
  const out = lines(b);
  assert.match(out[0]!, /^kb\/a\.md:13: rule "bad-re": pattern does not compile: .*Unterminated group/);
  assert.equal(
    out[1],
    'kb/a.md:18: rule "bad-enum": severity: must be one of bug, security, api-surface, test, nit, suggestion, question',
  );
  assert.equal(
    out[2],
    'kb/a.md:19: rule "bad-enum": category: must be one of architecture, security, correctness, error-handling, type-safety, async, performance, style, patterns, testing, documentation',
  );
  assert.equal(out[3], 'kb/a.md:21: rule "bad-enum": confidence: must be between 0 and 1');
  assert.equal(out[4], 'kb/a.md:22: rule id "no-db" is used twice in this concept');
  assert.equal(
    out[5],
    'kb/a.md:26: rule "typo": severity: must be one of bug, security, api-surface, test, nit, suggestion, question',
  );
  assert.equal(out[6], 'kb/a.md:28: rule "typo": severty: unknown key');
  assert.match(out[7]!, /^kb\/a\.md:34: `exclude`: invalid glob "\{a,b": Missing closing/);
  assert.match(out[8]!, /^kb\/b\.md:4: concept id "has space" cannot name its rules/);
  assert.equal(out.length, 9);
  assert.ok(b.diagnostics.every((d) => d.level === 'error'));
});

test('an index that cannot be read as a file is reported, not thrown', async (t) => {
  // Tests run as root, where chmod 000 does not block a read, so the unreadable file here is a
  // folder standing where a file is expected (sub/index.md is a directory).
  const dir = bundleDir({ 'index.md': '[sub](sub/)\n' });
  mkdirSync(join(dir, 'kb', 'sub', 'index.md'), { recursive: true });
  const b = await loadBundle(join(dir, 'kb'), { base: dir });
  assert.deepEqual(lines(b), ['kb/index.md:1: warning: link to folder sub/, which has no index.md; ignored']);
  if (process.getuid?.() === 0)
    t.diagnostic('running as root: chmod 000 would not block reads, so that case is not exercised');
});
