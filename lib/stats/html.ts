/**
 * `stats --html FILE`: one self-contained page. Inline CSS and SVG only: no script, no font,
 * no image or style sheet from anywhere, so it opens offline and in a locked-down viewer.
 */
import { VERDICTS, type Verdict } from '../core/vocabulary.js';
import { INVESTIGATE_ABOVE, PERFORMING_BELOW, type StatsReport } from './compute.js';
import { calibrationCell, percent } from './format.js';
import { statsMessages as m } from '../messages/stats.js';

const COLORS: Record<Verdict, string> = {
  OPEN: '#8c8c8c',
  ACCEPT: '#2e7d32',
  REJECT: '#c62828',
  DEFER: '#ef6c00',
  ACKNOWLEDGE: '#1565c0',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function rateChart(report: StatsReport): string {
  const rules = report.rules;
  const labelWidth = Math.min(420, 20 + Math.max(10, ...rules.map((r) => r.rule_source.length)) * 7);
  const barWidth = 360;
  const row = 24;
  const height = rules.length * row + 40;
  const width = labelWidth + barWidth + 80;
  const x = (rate: number) => labelWidth + rate * barWidth;
  const parts: string[] = [];
  for (const [rate, cls] of [[PERFORMING_BELOW, 'good'], [INVESTIGATE_ABOVE, 'bad']] as const) {
    parts.push(`<line class="band ${cls}" x1="${x(rate)}" x2="${x(rate)}" y1="0" y2="${rules.length * row}"/>`);
    parts.push(`<text class="axis" x="${x(rate)}" y="${rules.length * row + 16}" text-anchor="middle">${percent(rate)}</text>`);
  }
  rules.forEach((r, i) => {
    const y = i * row;
    parts.push(`<text class="label" x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${escapeHtml(r.rule_source)}</text>`);
    if (r.reject_rate === null) {
      parts.push(`<text class="none" x="${labelWidth + 4}" y="${y + 16}">${escapeHtml(m.htmlNoVerdicts)}</text>`);
      return;
    }
    const cls = r.flag === 'investigate' ? 'bad' : r.flag === 'performing well' ? 'good' : 'mid';
    const w = Math.max(1, r.reject_rate * barWidth);
    parts.push(`<rect class="bar ${cls}" x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${row - 8}"><title>${escapeHtml(`${r.rule_source}: ${percent(r.reject_rate)} of ${r.human_verdicts}`)}</title></rect>`);
    // n beside the rate: a tech lead weighs 50% of 2 differently from 50% of 200.
    const mark = r.calibrated ? `<tspan class="calibrated"> ${escapeHtml(m.htmlCalibratedMark)}</tspan>` : '';
    parts.push(`<text class="value" x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 16}">${percent(r.reject_rate)} of ${r.human_verdicts}${r.flag ? ` ${escapeHtml(r.flag)}` : ''}${mark}</text>`);
  });
  return `<svg role="img" aria-label="${escapeHtml(m.htmlRateChart)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

function timeChart(report: StatsReport): string {
  const months = report.timeline;
  const height = 220;
  const plot = 170;
  const barWidth = Math.max(6, Math.min(40, Math.floor(720 / Math.max(1, months.length)) - 4));
  const width = 50 + months.length * (barWidth + 4) + 20;
  const max = Math.max(1, ...months.map((mo) => VERDICTS.reduce((n, v) => n + mo.counts[v], 0)));
  const parts: string[] = [`<text class="axis" x="4" y="12">${max}</text><text class="axis" x="4" y="${plot}">0</text>`];
  const every = Math.max(1, Math.ceil(months.length / 12));
  months.forEach((mo, i) => {
    const x = 50 + i * (barWidth + 4);
    let top = plot;
    for (const v of VERDICTS) {
      const n = mo.counts[v];
      if (!n) continue;
      const h = (n / max) * (plot - 10);
      top -= h;
      parts.push(`<rect x="${x}" y="${top.toFixed(1)}" width="${barWidth}" height="${h.toFixed(1)}" fill="${COLORS[v]}"><title>${escapeHtml(`${mo.month} ${v}: ${n}`)}</title></rect>`);
    }
    if (i % every === 0) parts.push(`<text class="axis" x="${x + barWidth / 2}" y="${plot + 16}" text-anchor="middle">${escapeHtml(mo.month)}</text>`);
  });
  const legend = VERDICTS.map((v, i) => `<rect x="${50 + i * 110}" y="${plot + 30}" width="10" height="10" fill="${COLORS[v]}"/><text class="axis" x="${64 + i * 110}" y="${plot + 39}">${v}</text>`);
  return `<svg role="img" aria-label="${escapeHtml(m.htmlTimeChart)}" viewBox="0 0 ${Math.max(width, 600)} ${height + 20}" width="${Math.max(width, 600)}" height="${height + 20}">${parts.join('')}${legend.join('')}</svg>`;
}

function table(report: StatsReport): string {
  const head = ['rule_source', 'findings', ...VERDICTS, 'reject rate', '', m.calibratedHeader].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = report.rules.map((r) => {
    const cells = [r.rule_source, String(r.findings), ...VERDICTS.map((v) => String(r.counts[v])), percent(r.reject_rate), r.flag ?? '', calibrationCell(r, report)];
    const cls = r.flag === 'investigate' ? ' class="bad"' : r.flag === 'performing well' ? ' class="good"' : '';
    return `<tr${cls}>${cells.map((c, i) => (i === 0 ? `<td><code>${escapeHtml(c)}</code></td>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`;
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function statsHtml(report: StatsReport): string {
  const css = [
    'body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;background:#fff}',
    'h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}',
    'svg text{font:12px system-ui,sans-serif;fill:#222}svg .axis{fill:#666}svg .none{fill:#888;font-style:italic}',
    '.bar.bad{fill:#c62828}.bar.good{fill:#2e7d32}.bar.mid{fill:#f9a825}',
    '.band{stroke-dasharray:4 3;stroke-width:1}.band.bad{stroke:#c62828}.band.good{stroke:#2e7d32}',
    'table{border-collapse:collapse}td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:right}',
    'td:first-child,th:first-child{text-align:left}tr.bad td{color:#c62828}tr.good td{color:#2e7d32}',
    'svg .calibrated{fill:#6a1b9a;font-weight:bold}td:last-child{text-align:left;color:#6a1b9a}',
  ].join('');
  const body =
    report.rules.length === 0
      ? `<p>${escapeHtml(m.noFindings)}</p>`
      : [
          `<p>${escapeHtml(m.htmlGenerated(report.commits))}</p>`,
          `<h2>${escapeHtml(m.htmlRateChart)}</h2><p>${escapeHtml(m.htmlLegendBands)}; ${escapeHtml(m.htmlLegendCalibrated(report.calibration))}</p>${rateChart(report)}`,
          `<h2>${escapeHtml(m.htmlTimeChart)}</h2>${timeChart(report)}`,
          `<h2>${escapeHtml(m.htmlTable)}</h2>${table(report)}`,
        ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(m.htmlTitle)}</title>
<style>${css}</style>
</head>
<body>
<h1>${escapeHtml(m.htmlTitle)}</h1>
${body}
</body>
</html>
`;
}
