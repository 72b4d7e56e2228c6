/**
 * The statistics page in a real headless browser (Debian's chromium, driven by playwright-core):
 * the page `revtrail stats --html` writes for a throwaway history renders its charts with the
 * history's numbers, months are labelled legibly from one month to years, and no label is cut
 * off. A screenshot of each page, and the page, are kept for a person to look at: the latest
 * run's are in os.tmpdir()/revtrail-stats-screenshots.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeRepo, runCli, tempDir, type TestRepo } from '../kit/repo.js';
import { formatRow } from '../../lib/record/row.js';

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
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
after(async () => {
  await context?.close();
  repos.forEach((r) => {
    r.cleanup();
  });
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
  // Answers alternate between two people, so a rule's REJECTs can meet gate.minAuthors (2).
  const events: Array<{ at: number; text: string; who?: string }> = [];
  planned.forEach((p, i) => {
    const id = `rf-${(i + 1).toString(16).padStart(10, '0')}`;
    const base = {
      id,
      file: `src/f${i}.ts`,
      line: '1',
      rule_source: p.rule,
      category: 'correctness' as const,
      severity: 'bug' as const,
      issue: 'A finding',
    };
    const day = (month: string, d: number) =>
      Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, d) / 1000;
    events.push({
      at: day(p.raised, 5) + i,
      text: `raise\n\nReview-Finding: ${formatRow({ ...base, verdict: 'OPEN', rationale: '' })}\n`,
    });
    if (p.verdict) {
      const rationale =
        p.verdict === 'REJECT'
          ? 'False positive: `grep -n x src` shows a comment'
          : p.verdict === 'ACCEPT'
            ? 'Fixed in src/f.ts'
            : 'Tracked in #12';
      events.push({
        at: day(p.answered ?? p.raised, 20) + i,
        text: `answer\n\nReview-Finding: ${formatRow({ ...base, verdict: p.verdict, rationale })}\n`,
        who: i % 2 ? 'Bo Tester <bo@example.com>' : undefined,
      });
    }
  });
  events.sort((a, b) => a.at - b.at);
  const stream = events
    .map((e, i) => {
      const data = Buffer.byteLength(e.text);
      return `commit refs/heads/main\nmark :${i + 1}\ncommitter ${e.who ?? 'Ada Tester <ada@example.com>'} ${e.at} +0000\ndata ${data}\n${e.text}${i ? `from :${i}\n` : ''}\n`;
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
  copyFileSync(file, join(shots, `${name}.html`));
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
      if (
        el instanceof HTMLElement &&
        el.scrollWidth > el.clientWidth + 1 &&
        getComputedStyle(el).overflow !== 'visible'
      )
        out.push(`${el.textContent} cut`);
      const svg = el.closest('svg');
      if (svg && el.tagName === 'text') {
        const frame = svg.getBoundingClientRect();
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5)
          out.push(`${el.textContent} outside its chart`);
      }
    }
    return out;
  });
}

/** Month labels of the time chart that overlap their neighbour. */
async function overlapping(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = Array.from(document.querySelectorAll('svg.time text.month')).map((t) => ({
      text: t.textContent ?? '',
      box: t.getBoundingClientRect(),
    }));
    const rows = new Map<number, typeof boxes>();
    for (const b of boxes) rows.set(Math.round(b.box.top), [...(rows.get(Math.round(b.box.top)) ?? []), b]);
    const out: string[] = [];
    for (const row of rows.values()) {
      row.sort((a, b) => a.box.left - b.box.left);
      for (let i = 1; i < row.length; i++)
        if (row[i]!.box.left < row[i - 1]!.box.right + 2) out.push(`${row[i - 1]!.text}/${row[i]!.text}`);
    }
    return out;
  });
}

/** Line breaks inside a word (between two letters or digits), and in a rule name anywhere but after `/`, `:` or `.`. */
async function midWordBreaks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const chars: Array<{ ch: string; top: number; name: Element | null; node: Text }> = [];
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      if (node.parentElement?.closest('svg, style, title')) continue;
      const range = document.createRange();
      for (let i = 0; i < node.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect)
          chars.push({ ch: node.data[i]!, top: rect.top, name: node.parentElement!.closest('code.name'), node });
      }
    }
    for (let i = 1; i < chars.length; i++) {
      const [a, b] = [chars[i - 1]!, chars[i]!];
      if (
        b.top <= a.top + 2 ||
        a.node.parentElement!.closest('td, th, div, p, h1, h2') !==
          b.node.parentElement!.closest('td, th, div, p, h1, h2')
      )
        continue;
      const where = `${a.node.parentElement!.closest('td, th, div, p')?.textContent ?? ''}`;
      if (/\w/.test(a.ch) && /\w/.test(b.ch)) out.push(`"${where}" breaks between ${a.ch} and ${b.ch}`);
      else if (a.name && a.name === b.name && !'/:.'.includes(a.ch))
        out.push(`rule name "${where}" breaks after ${a.ch}`);
    }
    return out;
  });
}

/** A rule name's box overlapping the chart beside it. */
async function overlappingCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const rule of Array.from(document.querySelectorAll('.rates > .rule, .trends > .rule'))) {
      const next = rule.nextElementSibling!.getBoundingClientRect();
      const box = rule.querySelector('code')!.getBoundingClientRect();
      if (box.right > next.left + 0.5) out.push(`${rule.textContent} runs into its chart`);
    }
    return out;
  });
}

/** The count axis of the time chart: 0 first, even steps of 1, 2 or 5 times a power of ten. */
async function countAxis(page: Page): Promise<number[]> {
  const ticks = (await page.locator('svg.time text.axis:not(.month)').allTextContents())
    .map(Number)
    .sort((a, b) => a - b);
  assert.equal(ticks[0], 0);
  const step = ticks[1]! - ticks[0]!;
  assert.ok(
    ticks.every((v, i) => v === i * step),
    `even steps: ${ticks.join('/')}`,
  );
  assert.ok(/^(1|2|5)0*$/.test(String(step)), `a step of 1, 2 or 5 × 10^k: ${ticks.join('/')}`);
  assert.ok(ticks.length >= 2 && ticks.length <= 6, ticks.join('/'));
  return ticks;
}

/** What every page shows besides the charts: where it is from, the flag header, nothing broken. */
async function commonChecks(page: Page, repo: TestRepo): Promise<void> {
  assert.equal(await page.locator('[data-meta="repository"]').textContent(), repo.dir.split('/').at(-1));
  assert.equal(await page.locator('[data-meta="branch"]').textContent(), 'main');
  assert.equal(await page.locator('[data-meta="mainline"]').textContent(), 'main');
  assert.match((await page.locator('[data-meta="generated"]').textContent())!, /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  const head = await page.locator('table:not(.list) thead th').allTextContents();
  assert.ok(head.includes('flag'), head.join('|'));
  assert.deepEqual(
    head.filter((h) => !h.trim()),
    [],
    'every column has a header',
  );
  assert.ok((await page.locator('svg.spark-axis text.month').count()) >= 1, 'the per-rule blocks have a month axis');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(widths[0]! <= widths[1]!, `the page fits the window, no sideways scrolling: ${widths.join(' > ')}`);
  assert.deepEqual(await midWordBreaks(page), []);
  assert.deepEqual(await overlappingCells(page), []);
  assert.deepEqual(await overlapping(page), []);
  assert.deepEqual(await clipped(page), []);
}

/** The rows of a named list: ID, file, commit (12 hex). */
async function listed(
  page: Page,
  section: 'open' | 'through',
): Promise<Array<{ id: string; file: string; commit: string }>> {
  return page.locator(`h2#${section} + table tbody tr`).evaluateAll((rows) =>
    rows.map((r) => {
      const cells = Array.from(r.querySelectorAll('td')).map((c) => c.textContent ?? '');
      return { id: cells[0]!, file: cells[2]!, commit: cells[5]!.split(' ')[0]! };
    }),
  );
}

const LONG_RULE = 'platform/payments-service-architecture-decisions:no-direct-database-access-from-http-controllers';

test('years of history: rates with their n, flags only from minVerdicts on, counts per month and per rule, nothing cut off', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const months = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const m = from + i;
      return `${2022 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
    });
  const span = months(0, 30); // 2022-01 .. 2024-06
  const planned: Planned[] = [
    ...[0, 3, 6, 9, 12, 15, 18, 21].map((m, i) => ({
      rule: 'noisy:rule',
      raised: span[m]!,
      verdict: (i < 4 ? 'REJECT' : 'ACCEPT') as Verdict,
      answered: span[m + 1],
    })),
    ...[24, 25, 26].map((m, i) => ({
      rule: 'few:rule',
      raised: span[m]!,
      verdict: (i < 2 ? 'REJECT' : 'ACCEPT') as Verdict,
      answered: span[m],
    })),
    ...Array.from({ length: 10 }, (_, i) => ({
      rule: 'good:rule',
      raised: span[i * 3]!,
      verdict: 'ACCEPT' as Verdict,
      answered: span[i * 3 + 2],
    })),
    { rule: LONG_RULE, raised: span[29]! },
    // Blocking (bug) findings let through: a DEFER and an ACKNOWLEDGE.
    { rule: 'risky:rule', raised: span[27]!, verdict: 'DEFER', answered: span[28] },
    { rule: 'risky:rule', raised: span[28]!, verdict: 'ACKNOWLEDGE', answered: span[29] },
  ];
  const repo = history(planned);
  const page = await open(repo, 'stats-years');
  await commonChecks(page, repo);
  await countAxis(page);
  const id = (i: number) => `rf-${(i + 1).toString(16).padStart(10, '0')}`;
  const commitOf = (grep: string) =>
    repo
      .git(['log', '--format=%H', `--grep=${grep}`, '-F'])
      .trim()
      .split('\n')[0]!;
  const open_ = await listed(page, 'open');
  assert.deepEqual(
    open_.map((r) => [r.id, r.file]),
    [[id(21), 'src/f21.ts:1']],
    'the one finding without a verdict',
  );
  assert.ok(commitOf(id(21)).startsWith(open_[0]!.commit) && open_[0]!.commit.length === 12);
  const through = await listed(page, 'through');
  assert.deepEqual(
    through.map((r) => [r.id, r.file]),
    [
      [id(23), 'src/f23.ts:1'],
      [id(22), 'src/f22.ts:1'],
    ],
    'newest first',
  );
  const answers = repo.git(['log', '--format=%H %B', '--grep=,ACKNOWLEDGE,', '-F']);
  assert.ok(answers.startsWith(through[0]!.commit), 'the commit holding the ACKNOWLEDGE');
  assert.match(
    (await page.locator('h2#through').textContent()) ?? '',
    /^Let through to main: 2 blocking findings answered by DEFER or ACKNOWLEDGE$/,
  );
  const trendYears = await page.locator('svg.spark-axis text.month').allTextContents();
  assert.ok(trendYears.includes('2022') && trendYears.includes('2024'), trendYears.join(' '));

  const bar = (rule: string) => page.locator(`.bar[data-rule="${rule}"]`);
  assert.deepEqual(
    [await bar('noisy:rule').getAttribute('data-rate'), await bar('noisy:rule').getAttribute('data-n')],
    ['0.5', '8'],
  );
  const values = await page.locator('.rates .value').allTextContents();
  assert.ok(values.includes('50.0% of 8 · investigate · calibrated: not blocking'), values.join(' | '));
  assert.ok(values.includes('0.0% of 10 · performing well'), values.join(' | '));
  assert.ok(values.includes('66.7% of 3 · too few verdicts'), 'below minVerdicts (5): no investigate flag');
  assert.ok(values.includes('no human verdicts yet'));
  assert.ok(await bar('noisy:rule').evaluate((e) => e.getBoundingClientRect().width > 0), 'the bar is drawn');

  const counts = (selector: string) =>
    page
      .locator(selector)
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))).reduce((a, b) => a + b, 0));
  assert.equal(await counts('svg.time rect.raised'), planned.length, 'every finding raised once');
  assert.equal(await counts('svg.time rect.answered'), planned.filter((p) => p.verdict).length);
  assert.equal(
    await page.locator('svg.time rect[data-month="2022-01"][data-kind="raised"]').getAttribute('data-count'),
    '2',
    'January 2022: one noisy, one good',
  );
  assert.equal(await counts('svg.spark[data-rule="noisy:rule"] rect.raised'), 8);
  assert.equal(await counts('svg.spark[data-rule="noisy:rule"] rect.rejected'), 4);
  assert.equal(await page.locator('svg.spark').count(), 5, 'a trend per rule');

  const labels = await page.locator('svg.time text.month').allTextContents();
  assert.ok(
    labels.includes('2022') && labels.includes('2023') && labels.includes('2024'),
    `the years are named: ${labels.join(' ')}`,
  );
  assert.ok(labels.length >= 5 && labels.length <= 30, `legible, not one per pixel: ${labels.join(' ')}`);
  assert.deepEqual(await overlapping(page), []);
  assert.deepEqual(await clipped(page), []);
  const long = page.locator('.rates .rule code', { hasText: LONG_RULE });
  assert.equal(await long.textContent(), LONG_RULE, 'the long rule name is there in full');
  await page.close();
});

test('one month of history: the month is named in full, one label', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const planned: Planned[] = Array.from({ length: 6 }, (_, i) => ({
    rule: 'one:rule',
    raised: '2024-03',
    verdict: (i ? 'ACCEPT' : 'REJECT') as Verdict,
  }));
  const repo = history(planned);
  const page = await open(repo, 'stats-one-month');
  await commonChecks(page, repo);
  // Six findings and six answers in one month: 0/2/4/6, not 0/3/6 or 0/8/15.
  assert.deepEqual(await countAxis(page), [0, 2, 4, 6]);
  assert.deepEqual(await listed(page, 'open'), []);
  assert.match((await page.locator('h2#open + p').textContent()) ?? '', /^None: every finding has a human verdict\.$/);
  assert.deepEqual(await page.locator('svg.spark-axis text.month').allTextContents(), ['Mar 2024']);
  assert.deepEqual(await page.locator('svg.time text.month').allTextContents(), ['Mar 2024']);
  assert.deepEqual(await page.locator('.rates .value').allTextContents(), ['16.7% of 6']);
  assert.equal(await page.locator('svg.time rect[data-kind="raised"]').getAttribute('data-count'), '6');
  assert.deepEqual(await clipped(page), []);
  await page.close();
});

test('a year and a half: every month labelled, the years marked under January, no overlap', async (t) => {
  if (!context) return t.skip(`no ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const planned: Planned[] = Array.from({ length: 18 }, (_, i) => ({
    rule: 'monthly:rule',
    raised: `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
  }));
  const repo = history(planned);
  const page = await open(repo, 'stats-18-months');
  await commonChecks(page, repo);
  await countAxis(page);
  assert.equal((await listed(page, 'open')).length, 18);
  const labels = await page.locator('svg.time text.month').allTextContents();
  assert.ok(labels.includes('Jan') && labels.includes('2023') && labels.includes('2024'), labels.join(' '));
  assert.deepEqual(await overlapping(page), []);
  assert.deepEqual(await clipped(page), []);
  await page.close();
});
