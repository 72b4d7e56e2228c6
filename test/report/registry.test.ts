/**
 * The report-format registry (lib/report/formats.ts REPORT_FORMATS and loadFormatter): every
 * file of lib/report/ that exports a formatter is a registered format of its own name, and
 * every registered format loads and formats a review (docs/architecture.md "Extension points").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadFormatter, REPORT_FORMATS } from '../../lib/report/index.js';
import { noDrops, type ReviewResult } from '../../lib/review/types.js';

const reportDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'report');
// A formatter's export name: `format` and the format's name (`formatCodeQuality` for codequality).
const FORMATTER = /^format[A-Z]\w*$/;

test('every file of lib/report/ that exports a formatter is the registered format of its name', async () => {
  const formatFiles: string[] = [];
  for (const file of readdirSync(reportDir).filter((f) => f.endsWith('.js') && f !== 'index.js')) {
    const module = (await import(pathToFileURL(join(reportDir, file)).href)) as Record<string, unknown>;
    const formatters = Object.keys(module).filter((k) => FORMATTER.test(k) && typeof module[k] === 'function');
    if (formatters.length) formatFiles.push(file.slice(0, -3));
  }
  assert.ok(formatFiles.length >= 5, `only ${formatFiles.length} formatter files found in ${reportDir}`);
  assert.deepEqual(
    formatFiles.sort(),
    [...REPORT_FORMATS].sort(),
    'a formatter file is not registered, or a format has no file',
  );
});

test('every registered format loads and formats a review', async () => {
  const result: ReviewResult = {
    version: 1,
    summary: 'nothing found',
    event: 'APPROVE',
    findings: [],
    suppressed: [],
    knowledge_docs: [],
    merged_findings: 0,
    dropped: noDrops(),
    warnings: [],
  };
  for (const format of REPORT_FORMATS) {
    const formatter = await loadFormatter(format, { terminal: false });
    const out = formatter(result, { color: false });
    assert.equal(typeof out, 'string', format);
    if (format === 'json' || format === 'sarif' || format === 'codequality')
      assert.doesNotThrow(() => JSON.parse(out), format);
  }
});
