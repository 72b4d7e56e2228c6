/** buildStats (lib/stats/report.ts): the report `revtrail stats` prints, built in the stats stage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, throwawayRepos } from '../kit/repo.js';
import { clock, message, row } from '../kit/mine.js';
import { buildStats } from '../../lib/stats/report.js';
import { openWorkspace } from '../../lib/workspace/index.js';
import { calibrationExempt } from '../../lib/review/findings/calibrate.js';

const repos = throwawayRepos();

test('buildStats: one rule with its verdicts, the exempt rule from the caller, an unknown --rule an input error, the page written', async () => {
  const r = repos();
  const t = clock(Date.UTC(2024, 0, 15) / 1000);
  const kind = { category: 'correctness', severity: 'bug' } as const;
  r.commit(message('raise', [row({ id: 'rf-0000000001', rule_source: 'a:rule', ...kind })]), {}, { env: t.next() });
  r.commit(
    message('verdict', [
      row({
        id: 'rf-0000000001',
        rule_source: 'a:rule',
        verdict: 'REJECT',
        rationale: 'False positive: `grep x` shows nothing',
        ...kind,
      }),
    ]),
    {},
    { env: t.next() },
  );
  const ws = await openWorkspace(r.dir);
  const asked: string[] = [];
  const exempt = (findings: Iterable<{ rule_source: string; severity: string }>, security: readonly string[]) => {
    for (const f of findings) asked.push(f.rule_source);
    return calibrationExempt(findings, security);
  };
  const { report, bodyRows } = await buildStats({
    top: ws.top,
    commonDir: ws.repo!.commonDir,
    config: ws.config,
    exempt,
  });
  assert.deepEqual(
    report.rules.map((x) => x.rule_source),
    ['a:rule'],
  );
  assert.equal(report.min_verdicts, ws.config.calibration.minVerdicts);
  assert.ok(asked.includes('a:rule'), 'the caller decides what is exempt');
  assert.deepEqual(bodyRows, []);
  await assert.rejects(
    buildStats({ top: ws.top, commonDir: ws.repo!.commonDir, config: ws.config, exempt, rule: 'b:rule' }),
    /b:rule/,
  );
  const page = join(tempDir(), 'stats.html');
  await buildStats({ top: ws.top, commonDir: ws.repo!.commonDir, config: ws.config, exempt, html: page });
  assert.match(readFileSync(page, 'utf8'), /^<!doctype html>/i);
});
