/**
 * Comments point into the repository (docs/architecture.md "Tests"): every file of this project a
 * comment names (under lib/, test/, bench/, scripts/, a docs/*.md page, or relative to the
 * comment's own file) exists, and every quoted
 * section of a docs page (`docs/hooks.md "Push"`) is one of its headings or bold lead-ins. The
 * comments are the parser's own (ast-grep, as the syntax-tree rules read code), so a path in a
 * string or a template is never taken for one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Lang, parse } from '@ast-grep/napi';
import { projectRoot } from '../kit/repo.js';

const sources = execFileSync('git', ['ls-files', 'lib', 'test', 'bench', 'scripts'], {
  cwd: projectRoot,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|mjs|js)$/.test(f) && !f.startsWith('test/fixtures/'));

const sections = new Map<string, string[] | null>();
/** A docs page's headings and bold lead-ins, backticks dropped; null when there is no such page. */
function sectionsOf(doc: string): string[] | null {
  if (!sections.has(doc)) {
    const file = join(projectRoot, doc);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : null;
    sections.set(
      doc,
      text === null
        ? null
        : [
            ...text
              .split('\n')
              .filter((l) => /^#+ /.test(l))
              .map((l) => l.replace(/^#+ /, '')),
            ...[...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!),
          ].map((s) => s.replace(/`/g, '').trim()),
    );
  }
  return sections.get(doc)!;
}

/** A project file a comment names: lib/…, test/…, bench/…, scripts/… with an extension, or a page of docs/ (its name and .md). */
const FILE = /(?<![\w./-])((?:lib|test|bench|scripts)\/[\w./-]*\.(?:ts|mjs|js|json|cjs)|docs\/[\w-]+\.md)(?![\w/-])/g;
const SECTION = /(docs\/[\w-]+\.md),? "([^"]+)"/g;
/** A file named relative to the comment's own file (starting with a dot and a slash, or two dots). */
const RELATIVE = /(?<![\w./-])(\.{1,2}\/[\w./-]*\.(?:ts|mjs|js|json|cjs))(?![\w/-])/g;

test('every file and docs section a comment names exists', () => {
  const missing: string[] = [];
  for (const path of sources) {
    const text = readFileSync(join(projectRoot, path), 'utf8');
    const root = parse(path.endsWith('.ts') ? Lang.TypeScript : Lang.JavaScript, text).root();
    for (const comment of root.findAll({ rule: { kind: 'comment' } })) {
      const flat = comment.text().replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
      for (const [, file] of flat.matchAll(FILE)) {
        // A compiled name (dist's .js) stands for its TypeScript source.
        if (!existsSync(join(projectRoot, file!)) && !existsSync(join(projectRoot, file!.replace(/\.js$/, '.ts'))))
          missing.push(`${path}: ${file}`);
      }
      for (const [, file] of flat.matchAll(RELATIVE)) {
        const at = join(projectRoot, dirname(path), file!);
        if (!existsSync(at) && !existsSync(at.replace(/\.js$/, '.ts'))) missing.push(`${path}: ${file}`);
      }
      for (const [, doc, section] of flat.matchAll(SECTION)) {
        const known = sectionsOf(doc!);
        const wanted = section!.replace(/`/g, '').trim();
        if (known && !known.some((s) => s === wanted || s.startsWith(wanted)))
          missing.push(`${path}: ${doc} "${section}"`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
