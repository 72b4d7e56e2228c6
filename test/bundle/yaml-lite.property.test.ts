/**
 * yaml-lite against js-yaml over generated YAML in every style frontmatter uses (and near
 * misses): where yaml-lite answers at all, js-yaml reads the same text without error, to the
 * same values, with the same line for every key and item; where js-yaml refuses the text,
 * yaml-lite has left it to js-yaml.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseLite } from '../../lib/bundle/yaml-lite.js';
import { parseWithLibrary } from '../../lib/bundle/frontmatter.js';

const SCALARS = [
  'a', 'Decision 1', 'src/**', 'src/mod0/**', 'forbidden\\(', 'true', 'True', 'TRUE', 'tRue', 'false', 'null', 'Null', 'NULL', '~', 'yes', 'No', 'on',
  '1', '-1', '+1', '0017', '-0', '0x1F', '0o17', '0b11', '1_000', '1e3', '1E+3', '.5', '5.', '-1e-3', '.inf', '-.Inf', '+.INF', '.NaN', 'nan', 'inf', '1.2.3', '2001-12-14',
  'a: b', 'a:b', 'a #b', 'a#b', '-', '- a', '-a', '?x', '? x', ':x', 'x:', '@x', '`x', '%x', '&a', '*a', '!t', '|', '>', '"q"', "'q'", "it's", '[a]', '{a}', 'a,b', 'a]',
  'é', '日本', '😀', '<<', '__proto__', ' lead', 'trail ', '', 'http://x.y/z', 'a\\b', 'C:\\x', '#', 'a # b # c', '\\u0041', 'tab\there', 'x\u2028y', 'q"uote', "s'ingle",
];
const KEYS = ['type', 'id', 'x', 'paths', 'rules', 'pattern', 'a', 'b', '1', 'true', '~', 'null', 'a b', '-k', 'k:', 'k #', '__proto__', 'é', '', '?', 'id'];
// What frontmatter mostly holds.
const TAME = ['a', 'Decision 1', 'src/**', 'src/mod0/**', 'forbidden\\(', 'true', 'null', '1', '0.8', 'bug', 'x y z', 'é', 'http://x.y/z', 'a-b_c'];
const TAME_KEYS = ['type', 'id', 'x', 'paths', 'rules', 'pattern', 'severity', 'a', 'b', '1'];

type Value = string | Value[] | { [key: string]: Value };

function valueArb(scalars: string[], keys: string[]): fc.Arbitrary<Value> {
  return fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: fc.constantFrom(...scalars), weight: 5 },
      { arbitrary: fc.array(tie('value'), { maxLength: 3 }), weight: 1 },
      { arbitrary: fc.array(fc.tuple(fc.constantFrom(...keys), tie('value')), { maxLength: 3 }).map((pairs) => Object.fromEntries(pairs) as Value), weight: 1 },
    ),
  })).value;
}

/** How each part is written: the choices fast-check draws. */
const styleArb = fc.record({
  quote: fc.constantFrom('plain', 'plain', 'double', 'single'),
  keyQuote: fc.constantFrom('plain', 'plain', 'plain', 'double', 'single'),
  flow: fc.boolean(),
  compact: fc.boolean(),
  indent: fc.constantFrom(1, 2, 2, 4),
  comment: fc.constantFrom('', '', '', ' # note', '#x'),
  blank: fc.constantFrom('', '', '\n', '\n# a comment\n', '\n  \n'),
});
type Style = typeof styleArb extends fc.Arbitrary<infer S> ? S : never;

const dq = (s: string) => JSON.stringify(s);
const sq = (s: string) => `'${s.replace(/'/g, "''")}'`;
function scalarText(s: string, st: Style): string {
  return st.quote === 'double' ? dq(s) : st.quote === 'single' ? sq(s) : s;
}
function keyText(k: string, st: Style): string {
  return st.keyQuote === 'double' ? dq(k) : st.keyQuote === 'single' ? sq(k) : k;
}
function flowText(v: Value, st: Style): string {
  if (typeof v === 'string') return scalarText(v, st);
  if (Array.isArray(v)) return `[${v.map((x) => flowText(x, st)).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${keyText(k, st)}: ${flowText(x, st)}`).join(', ')}}`;
}

/** Block YAML for `v` at `indent`, as the lines after `key:` (or the document). */
function blockLines(v: Value, indent: number, styles: Style[], at: { n: number }): string[] {
  const root = at.n === 0;
  const st = styles[at.n++ % styles.length]!;
  const pad = ' '.repeat(indent);
  // Frontmatter is a block mapping at its top; flow styles below it.
  if (typeof v === 'string' || (st.flow && !root)) return [`${pad}${typeof v === 'string' ? scalarText(v, st) : flowText(v, st)}${st.comment}`];
  const out: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) {
      const inner = blockLines(item, indent + st.indent, styles, at);
      if (typeof item === 'string' || inner.length === 1) out.push(`${pad}- ${inner[0]!.trimStart()}`);
      else if (!Array.isArray(item) && st.compact) out.push(`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1).map((l) => l.slice(st.indent - 2 > 0 ? st.indent - 2 : 0)));
      else out.push(`${pad}-`, ...inner);
    }
    return out.length ? out : [`${pad}[]`];
  }
  for (const [k, item] of Object.entries(v)) {
    const key = `${pad}${keyText(k, st)}:`;
    if (typeof item === 'string') out.push(`${key} ${scalarText(item, st)}${st.comment}`);
    else {
      const childIndent = Array.isArray(item) && st.compact ? indent : indent + st.indent;
      const inner = blockLines(item, childIndent, styles, at);
      if (inner.length === 1 && (st.flow || (Array.isArray(item) ? item.length === 0 : Object.keys(item).length === 0))) out.push(`${key} ${inner[0]!.trimStart()}`);
      else out.push(`${key}${st.blank}`, ...inner);
    }
  }
  return out.length ? out : [`${pad}{}`];
}

function docArb(scalars: string[], keys: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.tuple(fc.constantFrom(...keys), valueArb(scalars, keys)), { minLength: 1, maxLength: 5 }), fc.array(styleArb, { minLength: 1, maxLength: 6 }))
    .map(([pairs, styles]) => blockLines(Object.fromEntries(pairs) as Value, 0, styles, { n: 0 }).join('\n'));
}

/** Every path to a key or item of `v`. */
function paths(v: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (v === null || typeof v !== 'object') return [];
  const out: Array<Array<string | number>> = [];
  const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  for (const [k, x] of entries) out.push([...prefix, k], ...paths(x, [...prefix, k]));
  return out;
}

function valueAt(v: unknown, path: Array<string | number>): unknown {
  return path.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], v);
}

async function agree(source: string): Promise<'lite' | 'library'> {
  const lite = parseLite(source);
  const library = await parseWithLibrary(source);
  if (lite === null) return 'library';
  assert.ok(library.ok, `yaml-lite read what js-yaml refuses (${!library.ok ? library.message : ''}):\n${source}`);
  assert.deepStrictEqual(lite.data, library.data, source);
  for (const p of paths(library.data)) {
    // js-yaml's events carry no place for an empty item (`- ` alone): its line there is a guess.
    if (typeof p[p.length - 1] === 'number' && valueAt(library.data, p) === null) continue;
    assert.equal(lite.lineAt(p), library.lineAt(p), `line of ${JSON.stringify(p)} in:\n${source}`);
  }
  assert.equal(lite.lineAt(['no such key']), library.lineAt(['no such key']));
  return 'lite';
}

test('yaml-lite gives what js-yaml gives, wherever it answers, on odd scalars, keys and styles', async () => {
  await fc.assert(
    fc.asyncProperty(docArb([...SCALARS, ...TAME], [...KEYS, ...TAME_KEYS]), async (source) => {
      await agree(source);
    }),
    { numRuns: 400 },
  );
});

test('yaml-lite answers for most frontmatter written the usual ways, and gives what js-yaml gives', async () => {
  let answered = 0;
  let total = 0;
  await fc.assert(
    fc.asyncProperty(docArb(TAME, TAME_KEYS), async (source) => {
      total++;
      if ((await agree(source)) === 'lite') answered++;
    }),
    { numRuns: 300 },
  );
  assert.ok(answered > total / 2, `yaml-lite answered ${answered} of ${total}`);
});

test('yaml-lite on concept frontmatter as people write it', async () => {
  const docs = [
    'type: Architecture Decision\nid: adr-0001\ntitle: "Decision 0 for mod0"\nx:\n  paths:\n    - "src/mod0/**"\n  domain: mod0\n  rules:\n    - id: r0\n      pattern: "forbidden0_0\\\\(|legacyCall11704\\\\("\n      severity: bug\n      title: "Decision 0 rule 0"',
    "type: Note\npaths: ['src/**', lib/**]\ntags: [a, b]\nrules:\n  - {id: r, pattern: 'x\\(', severity: nit, title: T, confidence: 0.8}\n# trailing comment",
    'type: Decision\nx:\n  paths:\n  - src/**\n  - lib/**\n  domain: [Shop.Repositories, store]\ndescription: >\n  folded\n',
    'type: Note\nid: 12\nconfidence: .5\nflag: true\nnothing:\nlist: []\nmap: {}',
  ];
  const used = await Promise.all(docs.map(agree));
  assert.deepEqual(used, ['lite', 'lite', 'library', 'lite']);
});

test('near misses go to js-yaml: duplicate keys, anchors, tags, multi-line scalars, tabs, odd indentation', async () => {
  for (const source of ['a: 1\na: 2', 'a: &x 1\nb: *x', 'a: !!str 1', 'a: b\n  c', 'a:\t1', 'a:\n  b: 1\n c: 2', 'a: "x', '- a', 'a: [1,\n 2]', 'a: b: c', '? a\n: b']) {
    assert.equal(parseLite(source), null, source);
  }
});
