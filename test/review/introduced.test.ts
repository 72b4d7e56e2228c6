/**
 * The team's rules on real code (docs/review.md "What a change introduces", "Code, not prose"):
 * a bundle rule's finding stands only for a violation in code that the file's old version did
 * not have; two rules on one line are two findings; a linter's disable comment for an equivalent
 * rule allows one. Real git, the review as the commit-msg hook runs it (the staged change).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { review } from '../../lib/review/index.js';
import { introducedViolations, violationKey, type Violation } from '../../lib/review/introduced/match.js';
import { makeRepo, writeFiles, type TestRepo } from '../kit/repo.js';

const ADR = `---
type: Decision
id: adr-1
paths: ["src/**"]
rules:
  - id: no-console
    pattern: console\\.log\\(
    severity: nit
    category: style
    title: console.log left in
    equivalent: ["eslint:no-console", "ruff:T201"]
  - id: no-reflect-get
    pattern: Reflect\\.get\\b
    severity: bug
    category: architecture
    title: Reflect.get bypasses the accessors
  - id: no-reflect-set
    pattern: Reflect\\.set\\b
    severity: suggestion
    category: correctness
    title: Reflect.set bypasses the setters
  - id: no-proxy
    pattern: new Proxy\\b
    severity: question
    category: security
    title: A Proxy hides what is called
  - id: no-moment
    pattern: from 'moment'
    severity: nit
    category: style
    title: moment is replaced by date-fns
  - id: todo-owner
    pattern: TODO(?!\\()
    in: comments
    severity: nit
    category: style
    title: TODO without an owner
  - id: any-cast
    ast: $X as any
    language: typescript
    severity: nit
    category: style
    title: Cast to any
  - id: no-lodash
    imports: { forbid: ["lodash"] }
    severity: nit
    category: style
    title: lodash is not used here
---
# ADR 1
`;

let repo: TestRepo;
before(() => {
  repo = makeRepo();
  writeFiles(join(repo.dir, '.okfw'), { 'index.md': '[adr](adr.md)\n', 'adr.md': ADR });
  repo.commit('bundle', { 'src/keep.ts': 'export const keep = 1;\n' });
});

/** The bundle-rule findings of `after` staged over `before` committed, as rule@line. */
async function findingsOf(path: string, beforeText: string | null, afterText: string): Promise<string[]> {
  if (beforeText !== null) repo.commit(`old ${path}`, { [path]: beforeText });
  repo.write(path, afterText);
  repo.git(['add', '-A']);
  const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
  repo.git(['reset', '-q', '--hard']);
  if (beforeText !== null) repo.git(['rm', '-q', path]);
  if (beforeText !== null) repo.git(['commit', '-q', '-m', `drop ${path}`]);
  return result.findings
    .filter((f) => f.rule_source.startsWith('adr-1:'))
    .map((f) => `${f.rule_source.slice(6)}@${f.line}`)
    .sort();
}

describe('code, not prose', () => {
  test('comments, JSDoc examples and string literals do not raise a code rule; code does', async () => {
    const text = [
      '/**',
      ' * @example',
      ' * console.log(format(x))',
      ' */',
      '// console.log(old)',
      'export const s = "console.log(";',
      'export const t = `// @ts-ignore console.log(${String(1)})`;',
      'export function f(x: unknown) {',
      '  console.log(x);',
      '  return `${console.log(x)}`;',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(await findingsOf('src/prose.ts', null, text), ['no-console@10', 'no-console@9']);
  });
  test('a rule that says `in: comments` reads comments only; a quoted pattern reads the import it names', async () => {
    const text = [
      "import { format } from 'moment';",
      'const note = "TODO not a comment";',
      '// TODO tidy this',
      'export const x = format(note);',
      '',
    ].join('\n');
    assert.deepEqual(await findingsOf('src/mixed.ts', null, text), ['no-moment@1', 'todo-owner@3']);
  });
  test('a file of a language revtrail does not parse is read as text, as before', async () => {
    assert.deepEqual(await findingsOf('src/page.vue', null, '<!-- console.log(x) -->\n'), ['no-console@1']);
  });
  test('TypeScript with `in?:` properties and `import(...)` types parses: its syntax-tree rules run', async () => {
    // The two shapes tree-sitter-typescript refuses (vue core's jsx.ts and compiler-sfc's parse.ts).
    const text = [
      'export interface Opts {',
      '  b?: number',
      '  in2?: string',
      '  in?: string',
      "  scriptAst?: import('@babel/types').Statement[]",
      "  out?: import('./types').Out<string>",
      '}',
      "export type T = import('x').T;",
      'export const y = (1 as any) + 1;',
      '',
    ].join('\n');
    assert.deepEqual(await findingsOf('src/types.ts', null, text), ['any-cast@9']);
    repo.write('src/types.ts', text);
    repo.git(['add', '-A']);
    const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
    repo.git(['reset', '-q', '--hard']);
    assert.deepEqual(
      result.warnings.filter((w) => w.includes('does not parse')),
      [],
    );
  });
});

test('the grammar gaps are worked around only where they are: calls and names that start with `in` are left as they are', async () => {
  const { aroundGrammarGaps, hasErrors, parseFile } = await import('../../lib/review/structural/match.js');
  // vue core's renderer.ts, component.ts and resolveType.ts: an expression continued on a line that starts with `in…`.
  for (const text of [
    'const x = shouldInvokeDirs &&\n  invokeDirectiveHook(vnode)\n',
    'let name =\n  inferFromRegistry(instance)\n',
    'const all = types.map(t =>\n  inferRuntimeType(t)\n)\n',
    'const o = { a: 1,\n  inner: 2 }\n',
  ]) {
    assert.equal(aroundGrammarGaps(text), text);
    assert.equal(hasErrors(parseFile('typescript', text)), false, text);
  }
  assert.equal(aroundGrammarGaps('interface A {\n  b?: X\n  in2?: Y\n}\n'), 'interface A {\n  b?: X;\n  in2?: Y\n}\n');
});

describe('what the change introduces', () => {
  const OLD = [
    "import { chunk } from 'lodash';",
    "import { format } from 'moment';",
    'export function a(x: unknown) {',
    '  console.log(x);',
    '  return x as any;',
    '}',
    'export function b() {',
    '  return 1;',
    '}',
    '',
  ].join('\n');

  test('a reformatted or extended import, a touched line, a renamed variable and a moved block raise nothing', async () => {
    const NEW = [
      "import { chunk, debounce } from 'lodash';",
      "import {format} from 'moment'",
      'export function b() {',
      '  return 1;',
      '}',
      'export function a(value: unknown) {',
      '  console.log( value );',
      '  return value as any;',
      '}',
      '',
    ].join('\n');
    // `console.log( value )` is another text than `console.log(x)`, but the rule's own match is `console.log(`.
    assert.deepEqual(await findingsOf('src/old.ts', OLD, NEW), []);
  });
  test('a second copy of an old violation is new, and only the copy is reported', async () => {
    const NEW = OLD.replace('  return 1;\n', '  console.log(1);\n  return 1 as any;\n');
    assert.deepEqual(await findingsOf('src/old.ts', OLD, NEW), ['any-cast@9', 'no-console@8']);
  });
});

describe('each finding its own rule', () => {
  test('three rules on one line: three findings, each title with its own rule_source and severity', async () => {
    repo.write('src/reflect.ts', 'export const p = new Proxy(Reflect.get(o, k), { set: Reflect.set });\n');
    repo.git(['add', '-A']);
    const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
    repo.git(['reset', '-q', '--hard']);
    const got = result.findings
      .filter((f) => f.path === 'src/reflect.ts')
      .map((f) => [f.rule_source, f.title, f.severity])
      .sort();
    assert.deepEqual(got, [
      ['adr-1:no-proxy', 'A Proxy hides what is called', 'question'],
      ['adr-1:no-reflect-get', 'Reflect.get bypasses the accessors', 'bug'],
      ['adr-1:no-reflect-set', 'Reflect.set bypasses the setters', 'suggestion'],
    ]);
    assert.equal(result.merged_findings, 0);
  });
});

describe("the team's stated intent", () => {
  test("an equivalent linter rule's disable comment allows the finding and is listed as a linter's", async () => {
    repo.write(
      'src/log.ts',
      [
        '// eslint-disable-next-line no-console',
        'console.log(1);',
        'console.log(2); // eslint-disable-line no-alert',
        'console.log(3);',
        '',
      ].join('\n'),
    );
    repo.write('src/log.py', 'print(1)\nconsole.log(2)  # noqa: T201\n');
    repo.git(['add', '-A']);
    const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
    repo.git(['reset', '-q', '--hard']);
    assert.deepEqual(
      result.findings.filter((f) => f.rule_source === 'adr-1:no-console').map((f) => `${f.path}:${f.line}`),
      ['src/log.ts:3', 'src/log.ts:4'],
    );
    assert.deepEqual(
      (result.allowed ?? []).map((a) => [a.path, a.line, a.allowed.marker, a.allowed.rule, a.allowed.reason]),
      [
        ['src/log.py', 2, 'linter', 'ruff:T201', '# noqa: T201'],
        ['src/log.ts', 2, 'linter', 'eslint:no-console', 'eslint-disable-next-line no-console'],
      ],
    );
  });
});

describe('pairing violations (property)', () => {
  const violation = fc.record({
    key: fc.constantFrom('console.log(', 'xasany', "from'moment'"),
    declaration: fc.constantFrom(null, 'a', 'b'),
    lineKey: fc.constantFrom('l1', 'l2'),
  });
  // What a change may do to a kept violation's line: nothing, edit the line around it (in its
  // declaration), or move the line whole to another declaration.
  const change = fc.constantFrom('none', 'edited', 'moved');
  test('an old violation kept, whatever is done to its line, is never introduced; an added one always is', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(violation, change), { maxLength: 8 }), violation, (olds, extra) => {
        const before: Violation[] = olds.map(([v], i) => ({ ...v, line: i + 1 }));
        // The same violations in the new version, at other lines, some on added lines.
        const kept = olds.map(([v, how], i) => ({
          ...v,
          line: i + 3,
          declaration: how === 'moved' ? 'elsewhere' : v.declaration,
          lineKey: how === 'edited' ? 'edited' : v.lineKey,
        }));
        const touched = (v: Violation) => olds[v.line - 3]?.[1] !== 'none' || v.line % 2 === 0;
        assert.deepEqual(introducedViolations(before, kept, touched), []);
        // One more violation: exactly one is new; it is the added one where no old one has its text
        // (where one does, which copy is "the new one" is a matter of place, and either is one).
        const added = { ...extra, line: 100 };
        const fresh = introducedViolations(before, [...kept, added], (v) => v.line === 100 || touched(v));
        assert.equal(fresh.length, 1);
        if (!olds.some(([v]) => v.key === extra.key)) assert.equal(fresh[0]!.line, 100);
      }),
    );
  });
  test('a file with thousands of one violation is paired by count, bounded: the added one, at once', () => {
    const many = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        line: from + i,
        key: 'console.log(',
        declaration: null,
        lineKey: `l${i}`,
      }));
    const started = performance.now();
    const fresh = introducedViolations(
      many(3000, 1),
      [...many(3000, 2), { line: 9999, key: 'console.log(', declaration: null, lineKey: 'new' }],
      (v) => v.line === 9999,
    );
    assert.deepEqual(
      fresh.map((v) => v.line),
      [9999],
    );
    assert.ok(performance.now() - started < 2000, 'bounded');
  });
  test('a key ignores white space only', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(violationKey(`${a} \t${b}`), violationKey(`${a}${b}`));
      }),
    );
  });
});

describe('what the change introduces, with real git (property)', () => {
  // A file of plain lines and violations, each violation's text its own; a change keeps every
  // violation (perhaps editing its line around it, moving it, adding and removing plain lines),
  // and may add one violation of a text the file never had.
  const plain = (n: number) => `export const v${n} = ${n};`;
  const file = fc.record({
    lines: fc.array(
      fc.oneof(
        fc.nat(50).map((n) => ({ plain: n })),
        fc.nat(50).map((n) => ({ violation: n })),
      ),
      {
        minLength: 1,
        maxLength: 12,
      },
    ),
    edits: fc.array(fc.constantFrom('keep', 'touch', 'drop-before', 'add-before'), { minLength: 12, maxLength: 12 }),
    moveLast: fc.boolean(),
    added: fc.option(fc.nat(100), { nil: null }),
  });
  test('an old violation never yields a finding, whatever is done to its line; an added one always does', async () => {
    await fc.assert(
      fc.asyncProperty(file, async ({ lines, edits, moveLast, added }) => {
        const seen = new Set<number>();
        const old = lines.map((l) => {
          if ('plain' in l) return plain(l.plain);
          // Each violation its own text, so "the added one" is never a copy of an old one.
          let n = l.violation;
          while (seen.has(n)) n += 51;
          seen.add(n);
          return `console.log(${n});`;
        });
        const next: string[] = [];
        old.forEach((line, k) => {
          const edit = edits[k]!;
          if (edit === 'add-before') next.push(plain(1000 + k));
          if (edit === 'drop-before' && next.length && !next[next.length - 1]!.startsWith('console')) next.pop();
          next.push(edit === 'touch' ? `${line} export const t${k} = ${k};` : line);
        });
        if (moveLast && next.length > 1) next.unshift(next.pop()!);
        let at = -1;
        if (added !== null) {
          at = added % (next.length + 1);
          next.splice(at, 0, 'console.log(9999);');
        }
        const found = await findingsOf('src/prop.ts', `${old.join('\n')}\n`, `${next.join('\n')}\n`);
        assert.deepEqual(found, added === null ? [] : [`no-console@${at + 1}`]);
      }),
      { numRuns: 12 },
    );
  });
});
