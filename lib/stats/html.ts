/**
 * `stats --html FILE`: one self-contained page a tech lead reads at a glance (docs/stats.md).
 * Inline CSS and SVG only: no script, no font, no image or style sheet from anywhere, so it
 * opens offline and in a locked-down viewer. Rule names are HTML text, not SVG, so that a long
 * one wraps instead of being cut off; every month axis is labelled to fit, from one month to
 * years.
 */
import { VERDICTS } from '../core/vocabulary.js';
import { INVESTIGATE_ABOVE, PERFORMING_BELOW } from './compute.js';
import type { ShownReport, ShownRule } from './present.js';
import type { MonthPoint, Trends } from './trend.js';
import { calibrationCell, percent } from './format.js';
import type { Attention, NamedFinding, PageMeta } from './attention.js';
import { statsMessages as m } from '../messages/stats.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2024-03" → "Mar 2024". */
export function monthName(month: string): string {
  const [y, mo] = month.split('-');
  return `${MONTHS[Number(mo) - 1]} ${y}`;
}

export interface AxisLabel {
  index: number;
  /** One or two lines (month, then the year where it changes). */
  lines: string[];
}

/**
 * Labels for a month axis whose slots are `slot` px wide: every month while they fit, else
 * every 2nd, 3rd or 6th (on the quarter), else only the years (every 1, 2, 5 or 10).
 */
export function monthAxis(months: readonly string[], slot: number): AxisLabel[] {
  const CHAR = 7.2; // px per character of 12px system-ui, with room to spare
  const fits = (chars: number, every: number) => chars * CHAR + 8 <= slot * every;
  if (months.length <= 3 && fits(8, 1)) return months.map((mo, index) => ({ index, lines: [monthName(mo)] }));
  const month = (i: number) => Number(months[i]!.slice(5, 7));
  const year = (i: number) => months[i]!.slice(0, 4);
  for (const every of [1, 2, 3, 6]) {
    if (!fits(4, every)) continue;
    const labels: AxisLabel[] = [];
    let lastYear = '';
    months.forEach((_, i) => {
      if ((month(i) - 1) % every !== 0) return;
      const y = year(i);
      labels.push({ index: i, lines: [MONTHS[month(i) - 1]!, y !== lastYear ? y : ''] });
      lastYear = y;
    });
    return labels.map((l) => ({ index: l.index, lines: l.lines[1] ? l.lines : [l.lines[0]!] }));
  }
  for (const every of [1, 2, 5, 10, 25]) {
    if (!fits(4, every * 12)) continue;
    return months.flatMap((_, i) =>
      month(i) === 1 && Number(year(i)) % every === 0 ? [{ index: i, lines: [year(i)] }] : [],
    );
  }
  return [{ index: 0, lines: [year(0)] }];
}

/**
 * Ticks for a count axis from 0 to at least `max`: a step of 1, 2 or 5 times a power of ten, at
 * most five steps, so that the labels read 0/5/10/15, never 0/8/15.
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  let step = 1;
  for (let k = 1; ; k *= 10) {
    const found = [1, 2, 5].map((s) => s * k).find((s) => top / s <= 5);
    if (found) {
      step = found;
      break;
    }
  }
  const ticks: number[] = [];
  for (let v = 0; v < top + step; v += step) ticks.push(v);
  return ticks;
}

/**
 * A rule name as HTML that may break only after a `/`, `:` or `.`: each part between them is
 * kept whole (`no-direct-database-access` never splits at its hyphens), so no word is cut.
 */
export function ruleName(rule: string): string {
  const parts = rule.split(/(?<=[/:.])/).map((part) => `<span class="part">${escapeHtml(part)}</span>`);
  return `<code class="name">${parts.join('<wbr>')}</code>`;
}

function rateRows(rules: readonly ShownRule[]): string {
  const rows = rules.map((r) => {
    const cls =
      r.flag === m.investigate
        ? 'bad'
        : r.flag === m.performingWell
          ? 'good'
          : r.flag === m.tooFewVerdicts
            ? 'few'
            : 'mid';
    const label = `<div class="rule">${ruleName(r.rule_source)}</div>`;
    if (r.reject_rate === null) {
      return `${label}<div class="track"></div><div class="value none" data-rule="${escapeHtml(r.rule_source)}" data-n="0">${escapeHtml(m.htmlNoVerdicts)}</div>`;
    }
    const width = Math.max(0.5, r.reject_rate * 100).toFixed(1);
    const text = `${m.rateOf(percent(r.reject_rate), r.human_verdicts)}${r.flag ? ` · ${r.flag}` : ''}${r.calibrated ? ` · ${m.htmlCalibratedMark}` : ''}`;
    return (
      `${label}<div class="track"><div class="bar ${cls}" style="width:${width}%" data-rule="${escapeHtml(r.rule_source)}" data-rate="${r.reject_rate}" data-n="${r.human_verdicts}"></div>` +
      `<div class="band good" style="left:${PERFORMING_BELOW * 100}%"></div><div class="band bad" style="left:${INVESTIGATE_ABOVE * 100}%"></div></div>` +
      `<div class="value ${cls}">${escapeHtml(text)}</div>`
    );
  });
  const tick = (rate: number) => `<span style="left:${rate * 100}%">${Math.round(rate * 100)}%</span>`;
  const axis = `<div></div><div class="track axis">${[0, PERFORMING_BELOW, INVESTIGATE_ABOVE, 1].map(tick).join('')}</div><div></div>`;
  return `<div class="rates" role="img" aria-label="${escapeHtml(m.htmlRateChart)}">${rows.join('')}${axis}</div>`;
}

/** Raised and answered findings per month, side by side, with a labelled month axis. */
function timeChart(trends: Trends): string {
  const points = trends.overall;
  const plotW = 760;
  const plotH = 180;
  const left = 48;
  const right = 44;
  const slot = plotW / Math.max(1, points.length);
  const ticks = countTicks(Math.max(1, ...points.flatMap((p) => [p.raised, p.answered])));
  const max = ticks.at(-1)!;
  const y = (n: number) => 10 + plotH - (n / max) * plotH;
  const parts: string[] = [];
  for (const tick of ticks) {
    parts.push(
      `<line class="grid" x1="${left}" x2="${left + plotW}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}"/>`,
    );
    parts.push(`<text class="axis" x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${tick}</text>`);
  }
  const bar = Math.max(1, Math.min(18, (slot - 2) / 2));
  points.forEach((p, i) => {
    const center = left + (i + 0.5) * slot;
    for (const [kind, n, x] of [
      ['raised', p.raised, center - bar],
      ['answered', p.answered, center],
    ] as const) {
      if (!n) continue;
      parts.push(
        `<rect class="${kind}" x="${x.toFixed(1)}" y="${y(n).toFixed(1)}" width="${bar.toFixed(1)}" height="${(y(0) - y(n)).toFixed(1)}" data-month="${p.month}" data-kind="${kind}" data-count="${n}"><title>${escapeHtml(m.htmlMonthTip(monthName(p.month), kind, n))}</title></rect>`,
      );
    }
  });
  for (const label of monthAxis(trends.months, slot)) {
    const x = (left + (label.index + 0.5) * slot).toFixed(1);
    parts.push(`<line class="tick" x1="${x}" x2="${x}" y1="${y(0)}" y2="${y(0) + 4}"/>`);
    label.lines.forEach((line, k) => {
      parts.push(
        `<text class="axis month" x="${x}" y="${(y(0) + 18 + k * 14).toFixed(1)}" text-anchor="middle">${escapeHtml(line)}</text>`,
      );
    });
  }
  const height = plotH + 58;
  const width = left + plotW + right;
  const legend = `<p class="legend"><span class="key raised"></span>${escapeHtml(m.htmlRaised)} <span class="key answered"></span>${escapeHtml(m.htmlAnswered)}</p>`;
  return `<svg class="time" role="img" aria-label="${escapeHtml(m.htmlTimeChart)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join('')}</svg>${legend}`;
}

/** Per rule: findings raised per month (rejections in red) on the page's month range. */
function trendRows(trends: Trends, rules: readonly ShownRule[]): string {
  const gutter = 28; // the count scale, left of the bars
  const plot = 360;
  const w = gutter + plot;
  const h = 36;
  const byRule = new Map(trends.rules.map((t) => [t.rule_source, t.points]));
  const rows = rules.map((r) => {
    const points: MonthPoint[] = byRule.get(r.rule_source) ?? [];
    const slot = plot / Math.max(1, points.length);
    const max = Math.max(1, ...points.map((p) => Math.max(p.raised, p.rejected)));
    // Raised (left) and rejected (right) side by side in each month's slot.
    // At most 14 px each, centred in the month: a short history's months stay blocks, not a band.
    const bw = Math.max(1, Math.min(14, (slot * 0.8) / 2));
    const pad = (slot - 2 * bw) / 2;
    const bars = points.flatMap((p, i) =>
      (
        [
          ['raised', p.raised, gutter + i * slot + pad],
          ['rejected', p.rejected, gutter + i * slot + pad + bw],
        ] as const
      ).flatMap(([kind, n, x]) =>
        n
          ? [
              `<rect class="${kind}" x="${x.toFixed(1)}" y="${(h - (n / max) * h).toFixed(1)}" width="${bw.toFixed(1)}" height="${((n / max) * h).toFixed(1)}" data-month="${p.month}" data-kind="${kind}" data-count="${n}"><title>${escapeHtml(m.htmlMonthTip(monthName(p.month), kind, n))}</title></rect>`,
            ]
          : [],
      ),
    );
    const raised = points.reduce((n, p) => n + p.raised, 0);
    const recent = points.slice(-3).reduce((n, p) => n + p.raised, 0);
    const scale =
      `<line class="tick" x1="${gutter - 3}" x2="${gutter}" y1="0.5" y2="0.5"/><text class="scale" x="${gutter - 5}" y="9" text-anchor="end" data-max="${max}">${max}</text>` +
      `<text class="scale" x="${gutter - 5}" y="${h - 3}" text-anchor="end">0</text><line class="tick" x1="${gutter}" x2="${gutter}" y1="0" y2="${h + 0.5}"/>`;
    const svg = `<svg class="spark" viewBox="0 0 ${w} ${h + 1}" width="${w}" height="${h + 1}" role="img" aria-label="${escapeHtml(m.htmlTrendOf(r.rule_source))}" data-rule="${escapeHtml(r.rule_source)}">${scale}<line class="base" x1="${gutter}" x2="${w}" y1="${h + 0.5}" y2="${h + 0.5}"/>${bars.join('')}</svg>`;
    return `<div class="rule">${ruleName(r.rule_source)}</div><div>${svg}</div><div class="value">${escapeHtml(m.htmlTrendSummary(raised, recent, points.length))}</div>`;
  });
  // One month axis under every row: the blocks are months, and this says which.
  const slot = plot / Math.max(1, trends.months.length);
  const labels = monthAxis(trends.months, slot).flatMap((label) => {
    const x = (gutter + (label.index + 0.5) * slot).toFixed(1);
    return [
      `<line class="tick" x1="${x}" x2="${x}" y1="0" y2="4"/>`,
      ...label.lines.map(
        (line, k) =>
          `<text class="axis month" x="${x}" y="${16 + k * 13}" text-anchor="middle">${escapeHtml(line)}</text>`,
      ),
    ];
  });
  const axis = `<div class="axis-note">${escapeHtml(m.htmlTrendAxis)}</div><div><svg class="spark-axis" viewBox="0 0 ${w} 32" width="${w}" height="32"><line class="base" x1="${gutter}" x2="${w}" y1="0.5" y2="0.5"/>${labels.join('')}</svg></div><div></div>`;
  const span = trends.months.length ? m.htmlSpan(monthName(trends.months[0]!), monthName(trends.months.at(-1)!)) : '';
  return `<p>${escapeHtml(span)} ${escapeHtml(m.htmlTrendScale)}</p><div class="trends">${rows.join('')}${axis}</div>`;
}

function table(report: ShownReport): string {
  const head = ['rule_source', 'findings', ...VERDICTS, m.htmlRateColumn, m.htmlFlagColumn, m.calibratedHeader]
    .map((h) => `<th>${escapeHtml(h)}</th>`)
    .join('');
  const rows = report.rules.map((r) => {
    const rate = r.reject_rate === null ? '-' : m.rateOf(percent(r.reject_rate), r.human_verdicts);
    const cells = [
      r.rule_source,
      String(r.findings),
      ...VERDICTS.map((v) => String(r.counts[v])),
      rate,
      r.flag ?? '',
      calibrationCell(r, report),
    ];
    const cls = r.flag === m.investigate ? ' class="bad"' : r.flag === m.performingWell ? ' class="good"' : '';
    return `<tr${cls}>${cells.map((c, i) => (i === 0 ? `<td>${ruleName(c)}</td>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`;
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Who answered each rule, and how many people its REJECTs come from (calibration needs gate.minAuthors). */
function answeredTable(report: ShownReport): string {
  const rules = report.rules.filter((r) => r.answered_by.length > 0);
  if (rules.length === 0) return '';
  const min = report.calibration.minAuthors ?? 1;
  const head = ['rule_source', m.htmlAnsweredPeople, m.htmlAnsweredAgree].map((h) => `<th>${escapeHtml(h)}</th>`);
  const rows = rules.map((r) => {
    const people = r.answered_by
      .map(
        ({ person, ...counts }) =>
          `<li data-person="${escapeHtml(person)}">${escapeHtml(m.answeredPerson(person, counts))}</li>`,
      )
      .join('');
    const cls = r.rejecting_people >= min ? '' : ' class="few"';
    return `<tr data-rule="${escapeHtml(r.rule_source)}"><td>${ruleName(r.rule_source)}</td><td><ul class="people">${people}</ul></td><td${cls} data-people="${r.rejecting_people}">${r.rejecting_people} / ${min}</td></tr>`;
  });
  return `<h2 id="answered">${escapeHtml(m.htmlAnsweredHeading)}</h2><p>${escapeHtml(m.htmlAnsweredIntro(min))}</p><table class="list answered"><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const LISTED = 50;

/** The findings a lead asks about by name: ID, severity, where, rule, commit, and the answer. */
function findingList(items: readonly NamedFinding[], answered: boolean): string {
  const head = [
    m.htmlId,
    m.htmlSeverity,
    m.htmlWhere,
    m.htmlRule,
    answered ? m.htmlAnswer : m.htmlIssue,
    answered ? m.htmlAnswerCommit : m.htmlRaisedCommit,
  ];
  const rows = items.slice(0, LISTED).map((f) => {
    const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '-';
    const said = answered ? `${f.verdict}: ${f.rationale}` : f.issue;
    return (
      `<tr data-id="${escapeHtml(f.id)}"><td><code>${escapeHtml(f.id)}</code></td><td>${escapeHtml(f.severity)}</td><td class="where"><code>${escapeHtml(where)}</code></td>` +
      `<td>${ruleName(f.rule_source)}</td><td class="said">${escapeHtml(said)}</td><td><code title="${escapeHtml(f.commit)}">${escapeHtml(f.commit.slice(0, 12))}</code> ${escapeHtml(f.date.slice(0, 10))}</td></tr>`
    );
  });
  const more = items.length > LISTED ? `<p>${escapeHtml(m.htmlMore(items.length - LISTED))}</p>` : '';
  return `<table class="list"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

function attentionSection(named: Attention, mainline: string | null): string {
  const open = named.open.length ? findingList(named.open, false) : `<p>${escapeHtml(m.htmlNoneOpen)}</p>`;
  const through =
    mainline === null
      ? `<p>${escapeHtml(m.htmlNoMainline)}</p>`
      : named.through.length
        ? findingList(named.through, true)
        : `<p>${escapeHtml(m.htmlNoneThrough(mainline))}</p>`;
  return (
    `<h2 id="open">${escapeHtml(m.htmlOpenHeading(named.open.length))}</h2>${open}\n` +
    `<h2 id="through">${escapeHtml(m.htmlThroughHeading(named.through.length, mainline ?? m.htmlTheMainline))}</h2>${through}`
  );
}

/** The audit of signed answers (docs/gate.md "Signed answers"): each answer, who signed it, whether it counts. */
function signedSection(report: ShownReport): string {
  const audit = report.signed_answers;
  if (!audit) return '';
  const head = [
    m.htmlId,
    m.htmlWhere,
    m.htmlRule,
    m.htmlRaisedCommit,
    m.htmlAnswer,
    m.htmlAnswerCommit,
    m.htmlSigner,
    m.htmlCounts,
  ];
  const rows = audit.answers.map((a) => {
    const cells = [
      `<code>${escapeHtml(a.id)}</code>`,
      `<code>${escapeHtml(a.file ?? '-')}</code>`,
      ruleName(a.rule_source),
      `<code title="${escapeHtml(a.added_in)}">${escapeHtml(a.added_in.slice(0, 12))}</code> ${escapeHtml(m.addedBy(a.added_by, a.added_verified))}`,
      escapeHtml(`${a.answer}: ${a.rationale}`),
      `<code title="${escapeHtml(a.answered_in)}">${escapeHtml(a.answered_in.slice(0, 12))}</code> ${escapeHtml(a.answered_at.slice(0, 10))}`,
      a.signer ? `${escapeHtml(a.signer)} <code>${escapeHtml(a.key ?? '')}</code>` : '-',
      escapeHtml(a.counts ? 'yes' : `no: ${a.why ?? ''}`),
    ];
    return `<tr data-id="${escapeHtml(a.id)}" class="${a.counts ? 'good' : 'bad'}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  });
  return `<h2 id="signed">${escapeHtml(m.htmlSignedHeading(audit.answers.length))}</h2><table class="list"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function metaLine(meta: PageMeta): string {
  const parts = [
    `${escapeHtml(m.htmlRepository)} <b data-meta="repository">${escapeHtml(meta.repository)}</b>`,
    `${escapeHtml(m.htmlBranch)} <b data-meta="branch">${escapeHtml(meta.branch)}</b>${meta.head ? ` <code>${escapeHtml(meta.head.slice(0, 12))}</code>` : ''}`,
    ...(meta.mainline
      ? [`${escapeHtml(m.htmlMainline)} <b data-meta="mainline">${escapeHtml(meta.mainline)}</b>`]
      : []),
    `${escapeHtml(m.htmlGeneratedAt)} <b data-meta="generated">${escapeHtml(meta.generated)}</b>`,
  ];
  return `<p class="meta">${parts.join(' · ')}</p>`;
}

const CSS = [
  'body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;background:#fff;max-width:1100px}',
  'h1{font-size:1.4rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin-top:2rem}code{font-size:13px}code.name{overflow-wrap:normal;word-break:normal}code.name .part{white-space:nowrap}',
  '.meta{color:#555;margin-top:0}.meta b{color:#222}',
  '.rates,.trends{display:grid;grid-template-columns:minmax(min-content,26rem) minmax(200px,420px) auto;gap:6px 12px;align-items:center}',
  '.axis-note{font-size:12px;color:#666;align-self:start}svg .scale{font-size:10px;fill:#777}',
  'table.list td,table.list th{text-align:left;vertical-align:top}table.list td.said{max-width:24rem}table.list td:first-child,table.list td:last-child{white-space:nowrap}',
  'ul.people{margin:0;padding-left:1rem}table.answered td.few{color:#777;font-style:italic}',
  '.track{position:relative;height:18px;background:#f3f3f3}.track.axis{background:none;height:16px;font-size:12px;color:#666}',
  '.track.axis span{position:absolute;transform:translateX(-50%)}.track.axis span:first-child{transform:none}.track.axis span:last-child{transform:translateX(-100%)}',
  '.bar{height:100%}.bar.bad{background:#c62828}.bar.good{background:#2e7d32}.bar.mid{background:#f9a825}.bar.few{background:#b0b0b0}',
  '.band{position:absolute;top:-3px;bottom:-3px;border-left:1px dashed}.band.good{border-color:#2e7d32}.band.bad{border-color:#c62828}',
  '.value{white-space:nowrap}.value.bad{color:#c62828}.value.good{color:#2e7d32}.value.few,.value.none{color:#777;font-style:italic}',
  'svg{max-width:100%;height:auto;overflow:visible}svg text{font:12px system-ui,sans-serif;fill:#444}',
  'svg .grid{stroke:#e5e5e5}svg .tick,svg .base{stroke:#999}svg .raised{fill:#5c6bc0}svg .answered{fill:#26a69a}svg .rejected{fill:#c62828}',
  '.legend .key{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}.key.raised{background:#5c6bc0}.key.answered{background:#26a69a}',
  'table{border-collapse:collapse;font-size:13px}td,th{padding:.25rem .4rem;border-bottom:1px solid #ddd;text-align:right}',
  'td:first-child,th:first-child{text-align:left}tr.bad td{color:#c62828}tr.good td{color:#2e7d32}',
].join('');

export interface PageExtras {
  meta: PageMeta;
  attention: Attention;
}

export function statsHtml(report: ShownReport, trends: Trends, extras?: PageExtras): string {
  const body =
    report.rules.length === 0
      ? `<p>${escapeHtml(m.noFindings)}</p>`
      : [
          `<p>${escapeHtml(m.htmlGenerated(report.commits, report.total.findings, report.total.human_verdicts))}</p>`,
          ...(extras ? [attentionSection(extras.attention, extras.meta.mainline)] : []),
          ...(report.signed_answers ? [signedSection(report)] : []),
          `<h2>${escapeHtml(m.htmlRateChart)}</h2><p>${escapeHtml(m.htmlLegendBands(report.min_verdicts))}</p>${rateRows(report.rules)}`,
          `<h2>${escapeHtml(m.htmlTimeChart)}</h2>${timeChart(trends)}`,
          `<h2>${escapeHtml(m.htmlTrendChart)}</h2>${trendRows(trends, report.rules)}`,
          `<h2>${escapeHtml(m.htmlTable)}</h2>${table(report)}`,
          answeredTable(report),
        ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(m.htmlTitle)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(m.htmlTitle)}</h1>
${extras ? metaLine(extras.meta) : ''}
${body}
</body>
</html>
`;
}
