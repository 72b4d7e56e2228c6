/** The handlers of `revtrail rules` (its options: ../commands/rules.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { relative } from 'node:path';
import { escapeControl as esc, progress } from '../../core/output.js';
import { cliMessages as m } from '../../messages/cli.js';
import { requireValues } from '../options.js';
import type { CliContext } from '../command.js';
import type { RuleRow, RulesArgs } from '../commands/rules.js';
import { openWorkspace } from '../../workspace/index.js';
import { builtinRules } from '../../review/builtin.js';
import { conceptPath } from '../../bundle/load.js';
import { toPosix } from '../../core/fs/path.js';
import { backtest } from '../../flows/backtest.js';
import { flowMessages as f } from '../../messages/flows.js';

export const handlers = {
  async rules(args: RulesArgs, context: CliContext): Promise<number> {
    requireValues(args as unknown as Record<string, unknown>, ['since', 'knowledge']);
    if (args.backtest) return backtestCommand(args, context);
    const ws = await openWorkspace(context.cwd, { knowledge: args.knowledge });
    if (ws.configError) context.stderr.write(`${esc(m.rulesConfigUnusable(ws.configError.message))}\n`);
    const shown = (abs: string) => toPosix(relative(context.cwd, abs)) || '.';
    const rows: RuleRow[] = builtinRules(ws.config.builtinRules).map((r) => ({
      rule_source: r.ruleSource,
      id: r.id,
      kind: 'regex',
      severity: r.severity,
      category: r.category,
      source: 'builtin',
      always_on: r.credential === true,
      title: r.title,
    }));
    const bundle = await ws.bundle();
    for (const concept of bundle.concepts) {
      const source = shown(conceptPath(bundle, concept));
      for (const r of [
        ...concept.rules.map((rule) => ({ ...rule, kind: 'regex' as const })),
        ...(concept.structural ?? []),
      ]) {
        rows.push({
          rule_source: r.ruleSource,
          id: r.id,
          kind: r.kind,
          severity: r.severity,
          category: r.category,
          source,
          always_on: false,
          title: r.title,
        });
      }
    }
    const problems = bundle.diagnostics.filter((d) => d.level === 'error').length;
    if (args.json || args.format === 'json') {
      context.stdout.write(
        `${JSON.stringify({ bundle: shown(ws.knowledge), config: ws.configFile && shown(ws.configFile), rules: rows, bundle_errors: problems }, null, 2)}\n`,
      );
      return 0;
    }
    const header = m.rulesColumns;
    const table = [
      header,
      ...rows.map((r) => [r.rule_source, r.kind, r.severity, r.category, r.source, r.always_on ? m.rulesAlwaysOn : '']),
    ];
    const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    const lines = table.map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
    const builtin = rows.filter((r) => r.source === 'builtin');
    lines.push(
      '',
      m.rulesSummary(
        builtin.length,
        builtin.filter((r) => r.always_on).length,
        rows.length - builtin.length,
        shown(ws.knowledge),
      ),
    );
    if (problems) lines.push(m.rulesBundleErrors(problems));
    context.stdout.write(`${lines.map((l) => esc(l)).join('\n')}\n`);
    return 0;
  },
};

/** `rules --backtest` (docs/mining.md "Backtest"): the flow replays, this prints. */
async function backtestCommand(args: RulesArgs, context: CliContext): Promise<number> {
  const bar = args.quiet ? { update() {}, done() {} } : progress(context.stderr);
  const result = await backtest({
    cwd: context.cwd,
    knowledge: args.knowledge,
    since: args.since,
    maxCount: args.maxCount,
    onProgress: (done, total, commit) => bar.update(f.backtestProgress(done, total, commit)),
  });
  bar.done();
  for (const w of result.warnings) context.stderr.write(`${esc(w)}\n`);
  if (args.json || args.format === 'json') {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (result.rules.length === 0) {
    context.stdout.write(`${f.backtestNoRules}\n`);
    return 0;
  }
  const header = f.backtestColumns;
  const table = [
    header,
    ...result.rules.map((r) => [
      r.rule_source,
      r.kind,
      String(r.hits),
      String(r.files),
      String(r.commits),
      String(r.authors),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines: string[] = [];
  for (const [n, row] of table.entries()) {
    lines.push(
      row
        .map((cell, i) => (i === row.length - 1 ? cell : i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
    const rule = n === 0 ? undefined : result.rules[n - 1];
    for (const hit of rule?.first ?? []) lines.push(f.backtestFirst(hit.path, hit.line, hit.commit, hit.text));
  }
  lines.push('', f.backtestSummary(result.commits, result.rules.length, result.rules.filter((r) => r.hits > 0).length));
  if (result.rules.length && result.rules.some((r) => r.hits > 0)) lines.push(f.backtestNext);
  context.stdout.write(`${lines.map((l) => esc(l)).join('\n')}\n`);
  return 0;
}
