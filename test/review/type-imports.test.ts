/**
 * Type-only imports (lib/review/structural/imports.ts, docs/structural.md "Import boundaries"):
 * TypeScript's `import type`, `export type … from`, and an import whose every specifier is `type`,
 * and Python's imports under `if TYPE_CHECKING:`, vanish at run time, so import rules skip them
 * unless the rule sets `typeImports: true` (issue 40).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importsOf } from '../../lib/review/structural/imports.js';
import { parseFile } from '../../lib/review/structural/match.js';

const refs = (language: 'typescript' | 'python', text: string) =>
  importsOf(parseFile(language, text), language).map((r) => `${r.line} ${r.specifier}${r.typeOnly ? ' type' : ''}`);

test('TypeScript: import type, export type, all-type specifiers are type-only; a value among them is not', () => {
  assert.deepEqual(
    refs(
      'typescript',
      [
        "import type { Row } from './db/types';",
        "import { type Row as R, type Id } from './db/a';",
        "import { type Row, db } from './db/b';",
        "import db2 from './db/c';",
        "export type { Row } from './db/d';",
        "export { query } from './db/e';",
        "import './db/side-effect';",
        '',
      ].join('\n'),
    ),
    ['1 ./db/types type', '2 ./db/a type', '3 ./db/b', '4 ./db/c', '5 ./db/d type', '6 ./db/e', '7 ./db/side-effect'],
  );
});

test('Python: imports under if TYPE_CHECKING: (or typing.TYPE_CHECKING) are type-only; others are not', () => {
  assert.deepEqual(
    refs(
      'python',
      [
        'from typing import TYPE_CHECKING',
        'import typing',
        'if TYPE_CHECKING:',
        '    from app.db import Session',
        '    import app.models',
        'if typing.TYPE_CHECKING:',
        '    from app.db import Engine',
        'if DEBUG:',
        '    from app.db import debug',
        'from app.db import run',
        '',
      ].join('\n'),
    ),
    ['1 typing', '2 typing', '4 app.db type', '5 app.models type', '7 app.db type', '9 app.db', '10 app.db'],
  );
});
