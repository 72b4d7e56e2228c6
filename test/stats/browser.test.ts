/**
 * The statistics page in a real headless browser (Debian's chromium, driven by playwright-core):
 * the page `revtrail stats --html` writes for a throwaway history renders its charts with the
 * history's numbers, months are labelled legibly from one month to years, and no label is cut
 * off. A screenshot of each page is kept for a person to look at: the latest run's are in
 * os.tmpdir()/revtrail-stats-screenshots (the pages themselves go with the test's temp folder).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeRepo, runCli, tempDir, type TestRepo } from '../helpers/repo.js';
import { formatRow } from '../../lib/core/trailer/row.js';

const CHROMIUM = '/usr/bin/chromium';
const work = tempDir('revtrail-stats-browser-');
const shots = join(tmpdir(), 'revtrail-stats-screenshots');
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
const repos: TestRepo[] = [];
let context: BrowserContext | null = null;

before(async () => {
  if (!existsSync(CHROMIUM)) return;
  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await context?.close();
  repos.forEach((r) => r.cleanup());
});

type Verdict = 'ACCEPT' | 'REJECT' | 'DEFER' | 'ACKNOWLEDGE';
interface Planned {
  rule: string;
  /** Month the finding is raised (YYYY-MM) and, optionally, its verdict and the verdict's month. */
  raised: string;
  verdict?: Verdict;
  answered?: string;
}

/** A history with one commit per raised finding and per verdict, written by git fast-import. */
function history(planned: Planned[]): TestRepo {
  const repo = makeRepo();
  repos.push(repo);
  const events: Array<{ at: number; text: string }> = [];
  planned.forEach((p, i) => {
    const id = `rf-${(i + 1).toString(16).padStart(10, '0')}`;
    const base = { id, file: `src/f${i}.ts`, line: '1', rule_source: p.rule, category: 'correctness' as const, severity: 'bug' as const, issue: 'A finding' };
    const day = (month: string, d: number) => Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, d) / 1000;
    events.push({ at: day(p.raised, 5) + i, text: `raise\n\nReview-Finding: ${formatRow({ ...base, verdict: 'OPEN', rationale: '' })}\n` });
    if (p.verdict) {
      const rationale = p.verdict === 'REJECT' ? 'False positive: `grep -n x src` shows a comment' : p.verdict === 'ACCEPT' ? 'Fixed in src/f.ts' : 'Tracked in #12';
      events.push({ at: day(p.answered ?? p.raised, 20) + i, text: `answer\n\nReview-Finding: ${formatRow({ ...base, verdict: p.verdict, rationale })}\n` });
    }
  });
  events.sort((a, b) => a.at - b.at);
  const stream = events
    .map((e, i) => {
      const data = Buffer.byteLength(e.text);
      return `commit refs/heads/main\nmark :${i + 1}\ncommitter Ada Tester <ada@example.com> ${e.at} +0000\ndata ${data}\n${e.text}${i ? `from :${i}\n` : ''}\n`;
    })
    .join('');
  repo.git(['fast-import', '--quiet'], { input: stream });
  repo.git(['reset', '-q', '--hard', 'main']);
  return repo;
}

async function open(repo: TestRepo, name: string): Promise<Page> {
  const file = join(work, `${name}.html`);
  const run = await runCli(['stats', '--html', file], { cwd: repo.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, `wrote ${file}\n`);
  const page = await context!.newPage();
  await page.goto(`file://${file}`);
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  assert.ok(statSync(join(shots, `${name}.png`)).size > 10_000, 'a screenshot was taken');
  return page;
}

/** Every text of the page that would be clipped: outside the page, or cut by its own box. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.scrollWidth;
    for (const el of Array.from(document.querySelectorAll('code, .value, svg text, h1, h2, p, td, th'))) {
      const box = el.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 0.5) out.push(`${el.textContent} off the page`);
      if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') out.push(`${el.textContent} cut`);
      const svg = el.closest('svg');
      if (svg && el.tagName === 'text') {
        const frame = svg.getBoundingClientRect();
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5) out.push(`${el.textContent} outside its chart`);
      }
    }
    return out;
  });
}

/** Month labels of the time chart that overlap their neighbour. */
async function overlapping(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = Array.from(document.querySelectorAll('svg.time text.month')).map((t) => ({ text: t.textContent ?? '', box: t.getBoundingClientRect() }));
    const rows = new Map<number, typeof boxes>();
    for (const b of boxes) rows.set(Math.round(b.box.top), [...(rows.get(Math.round(b.box.top)) ?? []), b]);
    const out: string[] = [];
    for (const row of rows.values()) {
      row.sort((a, b) => a.box.left - b.box.left);
      for (let i = 1; i < row.length; i++) if (row[i]!.box.left < row[i - 1]!.box.right + 2) out.push(`${row[i - 1]!.text}/${row[i]!.text}`);
    }
    return out;
  });
}

const LONG_RULE = 'platform/payments-service-architecture-decisions:no-direct-database-access-from-http-controllers';

test('years of history: rates with their n, flags only from minVerdicts on, counts per month and per rule, nothing cut off', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const months = (from: number, n: number) => Array.from({ length: n }, (_, i) => { const m = from + i; return `${2022 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`; });
  const span = months(0, 30); // 2022-01 .. 2024-06
  const planned: Planned[] = [
    ...[0, 3, 6, 9, 12, 15, 18, 21].map((m, i) => ({ rule: 'noisy:rule', raised: span[m]!, verdict: (i < 4 ? 'REJECT' : 'ACCEPT') as Verdict, answered: span[m + 1] })),
    ...[24, 25, 26].map((m, i) => ({ rule: 'few:rule', raised: span[m]!, verdict: (i < 2 ? 'REJECT' : 'ACCEPT') as Verdict, answered: span[m] })),
    ...Array.from({ length: 10 }, (_, i) => ({ rule: 'good:rule', raised: span[i * 3]!, verdict: 'ACCEPT' as Verdict, answered: span[i * 3 + 2] })),
    { rule: LONG_RULE, raised: span[29]! },
  ];
  const page = await open(history(planned), 'stats-years');

  const bar = (rule: string) => page.locator(`.bar[data-rule="${rule}"]`);
  assert.deepEqual([await bar('noisy:rule').getAttribute('data-rate'), await bar('noisy:rule').getAttribute('data-n')], ['0.5', '8']);
  const values = await page.locator('.rates .value').allTextContents();
  assert.ok(values.includes('50.0% of 8 · investigate · calibrated: not blocking'), values.join(' | '));
  assert.ok(values.includes('0.0% of 10 · performing well'), values.join(' | '));
  assert.ok(values.includes('66.7% of 3 · too few verdicts'), 'below minVerdicts (5): no investigate flag');
  assert.ok(values.includes('no human verdicts yet'));
  assert.ok(await bar('noisy:rule').evaluate((e) => e.getBoundingClientRect().width > 0), 'the bar is drawn');

  const counts = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))).reduce((a, b) => a + b, 0));
  assert.equal(await counts('svg.time rect.raised'), planned.length, 'every finding raised once');
  assert.equal(await counts('svg.time rect.answered'), planned.filter((p) => p.verdict).length);
  assert.equal(await page.locator('svg.time rect[data-month="2022-01"][data-kind="raised"]').getAttribute('data-count'), '2', 'January 2022: one noisy, one good');
  assert.equal(await counts('svg.spark[data-rule="noisy:rule"] rect.raised'), 8);
  assert.equal(await counts('svg.spark[data-rule="noisy:rule"] rect.rejected'), 4);
  assert.equal(await page.locator('svg.spark').count(), 4, 'a trend per rule');

  const labels = await page.locator('svg.time text.month').allTextContents();
  assert.ok(labels.includes('2022') && labels.includes('2023') && labels.includes('2024'), `the years are named: ${labels.join(' ')}`);
  assert.ok(labels.length >= 5 && labels.length <= 30, `legible, not one per pixel: ${labels.join(' ')}`);
  assert.deepEqual(await overlapping(page), []);
  assert.deepEqual(await clipped(page), []);
  const long = page.locator('.rates .rule code', { hasText: LONG_RULE });
  assert.equal(await long.textContent(), LONG_RULE, 'the long rule name is there in full');
  await page.close();
});

test('one month of history: the month is named in full, one label', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const planned: Planned[] = Array.from({ length: 6 }, (_, i) => ({ rule: 'one:rule', raised: '2024-03', verdict: (i ? 'ACCEPT' : 'REJECT') as Verdict }));
  const page = await open(history(planned), 'stats-one-month');
  assert.deepEqual(await page.locator('svg.time text.month').allTextContents(), ['Mar 2024']);
  assert.deepEqual(await page.locator('.rates .value').allTextContents(), ['16.7% of 6']);
  assert.equal(await page.locator('svg.time rect[data-kind="raised"]').getAttribute('data-count'), '6');
  assert.deepEqual(await clipped(page), []);
  await page.close();
});

test('a year and a half: every month labelled, the years marked under January, no overlap', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const planned: Planned[] = Array.from({ length: 18 }, (_, i) => ({ rule: 'monthly:rule', raised: `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}` }));
  const page = await open(history(planned), 'stats-18-months');
  const labels = await page.locator('svg.time text.month').allTextContents();
  assert.ok(labels.includes('Jan') && labels.includes('2023') && labels.includes('2024'), labels.join(' '));
  assert.deepEqual(await overlapping(page), []);
  assert.deepEqual(await clipped(page), []);
  await page.close();
});
