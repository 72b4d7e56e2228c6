#!/usr/bin/env node
// Noise of the built-in baseline: runs it over the .js/.ts sources of node_modules as if every
// line were added, and prints findings per 10,000 lines (per rule) and the top findings.
// Third-party code is mostly clean of leaked keys and focused tests, so what fires here is
// mostly noise. Run after a build: node scripts/build.mjs && node bench/noise.mjs [DIR] [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const { builtinRules } = await import(join(root, 'dist/lib/review/builtin.js'));
const { RuleRunner } = await import(join(root, 'dist/lib/review/rules.js'));

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 25 : Number(args[topAt + 1]);
const dir = args.find((a, i) => !a.startsWith('--') && (topAt === -1 || i !== topAt + 1)) ?? join(root, 'node_modules');
const SOURCE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/;

function* walk(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = join(folder, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile() && SOURCE.test(e.name)) yield full;
  }
}

const rules = builtinRules(true);
const runner = new RuleRunner();
const perRule = new Map(rules.map((r) => [r.ruleSource, 0]));
// Lines the bare pattern matches (no path filter, no masking, no comment skip, no look-alike
// check): what the guards silenced is the difference.
const rawPerRule = new Map(rules.map((r) => [r.ruleSource, 0]));
const samples = [];
let files = 0;
let lines = 0;
let skippedLong = 0;
const started = process.hrtime.bigint();
for (const file of walk(dir)) {
  if (statSync(file).size > 20 * 1024 * 1024) continue;
  const path = relative(dir, file).split('\\').join('/');
  const text = readFileSync(file, 'utf8');
  const added = text.split(/\r?\n/).map((t, i) => ({ line: i + 1, text: t }));
  files++;
  lines += added.length;
  skippedLong += added.filter((a) => a.text.length > 4000).length;
  // One hunk from line 1, as an added file: the pipeline then lexes templates and comments across lines.
  const hunk = { oldStart: 0, oldLines: 0, newStart: 1, newLines: added.length, section: '', lines: added.map((a) => ({ kind: 'add', text: a.text, oldLine: null, newLine: a.line })) };
  const chunk = { path, oldPath: null, piece: 1, language: null, namespace: null, file: null, hunks: [hunk], added, changedLines: new Set(added.map((a) => a.line)), diff: '' };
  for (const r of rules) {
    for (const a of added) {
      if (a.text.length > 4000 && !r.longLines) continue;
      r.regex.lastIndex = 0;
      if (r.regex.test(a.text)) rawPerRule.set(r.ruleSource, rawPerRule.get(r.ruleSource) + 1);
    }
  }
  const { drafts } = await runner.run(chunk, rules);
  for (const d of drafts) {
    perRule.set(d.rule_source, perRule.get(d.rule_source) + 1);
    samples.push({ where: `${path}:${d.line}`, rule: d.rule_source, text: added[d.line - 1].text.trim().slice(0, 110) });
  }
}
await runner.close();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const total = samples.length;
const per10k = (n) => ((n * 10000) / Math.max(lines, 1)).toFixed(3);

console.log(`revtrail baseline noise over ${relative(process.cwd(), dir) || '.'}`);
console.log(`${files} files, ${lines} lines (${skippedLong} lines over 4000 characters only seen by credential rules), ${seconds.toFixed(1)} s`);
console.log(`findings: ${total} = ${per10k(total)} per 10,000 lines\n`);
console.log('per rule: findings, per 10,000 lines, lines the bare pattern matched (silenced by the guards = the difference)');
for (const [rule, n] of [...perRule].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${String(n).padStart(6)}  ${per10k(n).padStart(7)}  ${String(rawPerRule.get(rule)).padStart(6)}  ${rule}`);
}
console.log(`\ntop findings (first ${top} of the noisiest rules first):`);
const rank = [...perRule].sort((a, b) => b[1] - a[1]).map(([r]) => r);
samples.sort((a, b) => rank.indexOf(a.rule) - rank.indexOf(b.rule));
for (const s of samples.slice(0, top)) console.log(`  ${s.rule}  ${s.where}\n      ${s.text}`);
