/**
 * One parse of each file version per process (docs/structural.md "Parsed once"): a change that
 * `ast`, `imports` and `pattern` rules all reach (code by default, comments, the declarations a
 * comparison pairs by), old and new versions, costs one parse of each version; a second review of
 * it in the same process (a push of two refs, the editor's next review) parses nothing, and a
 * version whose text changed is parsed again. Counted by the parse cache's own counter: every
 * parse of a file version goes through it (lib/review/structural/parsed.ts).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { review } from '../../lib/review/index.js';
import { parseCount } from '../../lib/review/structural/parsed.js';
import { makeRepo, writeFiles, type TestRepo } from '../kit/repo.js';

const ADR = `---
type: Decision
id: adr-1
paths: ["src/**"]
rules:
  - id: no-print
    ast: print($$$)
    language: python
    severity: bug
    title: print in the library
  - id: any-cast
    ast: $X as any
    language: typescript
    severity: nit
    title: Cast to any
  - id: no-db
    imports: { forbid: ["src/db.py", "lodash"] }
    severity: bug
    title: The database layer is not imported here
  - id: no-utcnow
    pattern: utcnow\\(
    severity: nit
    title: utcnow is naive
  - id: todo-owner
    pattern: TODO(?!\\()
    in: comments
    severity: nit
    title: TODO without an owner
  - id: no-reflect
    pattern: Reflect\\.get\\b
    severity: nit
    title: Reflect.get bypasses the accessors
---
# ADR 1
`;

const PY_OLD = [
  'import os',
  '',
  'def f(x):',
  '    """utcnow( in a docstring"""',
  '    return x',
  '',
  'def g(y):',
  '    return y',
  '',
].join('\n');

const PY_NEW = [
  'import os',
  'from .db import conn',
  '',
  'def f(x):',
  '    """utcnow( in a docstring"""',
  '    print(x)  # TODO tidy',
  '    return now.utcnow()',
  '',
  'def g(y):',
  '    return y',
  '',
].join('\n');

const TS_OLD = ['export function f(x: number) {', '  // Reflect.get in a comment', '  return x;', '}', ''].join('\n');
const TS_NEW = [
  "import _ from 'lodash';",
  'export function f(x: number) {',
  '  // Reflect.get in a comment',
  '  const y = x as any;',
  "  return Reflect.get(y, 'k');",
  '}',
  '',
].join('\n');

let repo: TestRepo;
before(() => {
  repo = makeRepo();
  writeFiles(join(repo.dir, '.okfw'), { 'index.md': '[adr](adr.md)\n', 'adr.md': ADR });
  repo.commit('old', { 'src/app.py': PY_OLD, 'src/mod.ts': TS_OLD, 'src/db.py': 'x = 1\n' });
});

async function reviewStaged(): Promise<string[]> {
  const result = await review({ cwd: repo.dir, source: { kind: 'staged' }, calibration: false });
  return result.findings.map((f) => `${f.path}:${f.line} ${f.rule_source}`).sort();
}

test('every rule kind reads one parse of each file version; a second review in the process parses nothing', async () => {
  repo.write('src/app.py', PY_NEW);
  repo.write('src/mod.ts', TS_NEW);
  repo.git(['add', '-A']);
  const before = parseCount();
  const found = await reviewStaged();
  assert.deepEqual(found, [
    'src/app.py:2 adr-1:no-db',
    'src/app.py:6 adr-1:no-print',
    'src/app.py:6 adr-1:todo-owner',
    'src/app.py:7 adr-1:no-utcnow',
    'src/mod.ts:1 adr-1:no-db',
    'src/mod.ts:4 adr-1:any-cast',
    'src/mod.ts:5 adr-1:no-reflect',
  ]);
  // src/app.py old and new (ast, imports, the pattern rules' view, declarations), src/mod.ts old
  // and new (ast, imports; its pattern rules read the lexer's view, no tree).
  assert.equal(parseCount() - before, 4);

  const again = parseCount();
  assert.deepEqual(await reviewStaged(), found);
  assert.equal(parseCount() - again, 0, 'the same versions, reviewed again in this process, are not parsed again');

  // A new version with other text is another tree; the old versions' are still kept.
  repo.write('src/app.py', `${PY_NEW}print(1)\n`);
  repo.git(['add', '-A']);
  const third = parseCount();
  assert.deepEqual(await reviewStaged(), [...found, 'src/app.py:11 adr-1:no-print'].sort());
  assert.equal(parseCount() - third, 1);
});
