/**
 * `revtrail rules` (README "Commands"): the rules in force for this repository, the built-in
 * baseline the config leaves on and the bundle's, with where each comes from. A configuration
 * that cannot be used is named on stderr and the defaults list, as a review runs with them.
 */
import { relative } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc } from '../../core/output.js';
import { cliMessages as m } from '../../messages/cli.js';
import { knowledgeOption, requireValues } from '../options.js';
import type { CliContext } from '../command.js';

interface RulesArgs {
  json: boolean;
  format: 'text' | 'json';
  backtest: boolean;
  since?: string;
  maxCount?: number;
  knowledge?: string;
  quiet: boolean;
}

interface RuleRow {
  rule_source: string;
  id: string;
  kind: 'regex' | 'ast' | 'imports';
  severity: string;
  category: string;
  /** `builtin`, or the document's file (from the start folder). */
  source: string;
  /** A credential rule: no config switches it off (docs/trust.md "Credential rules"). */
  always_on: boolean;
  title: string;
}

export default defineCommand<RulesArgs>({
  command: 'rules',
  describe:
    "List the rules in force here: the built-in baseline and the bundle's, with kind, severity, category and source",
  builder: (yargs) =>
    knowledgeOption(yargs)
      .usage(
        '$0 rules [--json]\n$0 rules --backtest [--since DATE | --max-count N] [--format text|json] [--quiet]\n\n' +
          'Credential rules are marked "always on": no configuration switches them off or excludes them.\n' +
          "--backtest replays each of the bundle's rules over the mainline's history (first parent, the change each\n" +
          'commit introduced) and prints per rule its hits, files, commits, authors and first lines.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The rules (or the backtest) as JSON' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' })
      .option('backtest', {
        type: 'boolean',
        default: false,
        describe: "Replay the bundle's rules over history: what each would have raised",
      })
      .option('since', {
        type: 'string',
        requiresArg: true,
        describe: 'With --backtest: commits since DATE (as git log takes it)',
      })
      .option('max-count', {
        type: 'number',
        requiresArg: true,
        describe: 'With --backtest: the N newest mainline commits',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line on stderr' })
      .example('$0 rules', 'which rules a review here runs')
      .example('$0 rules --backtest --max-count 1000', "each bundle rule's noise over the last 1,000 commits"),
  async run(args, context) {
    requireValues(args as unknown as Record<string, unknown>, ['since', 'knowledge']);
    if (args.backtest) return backtestCommand(args, context);
    const [{ openWorkspace }, { builtinRules }, { conceptPath }, { toPosix }] = await Promise.all([
      import('../../workspace/index.js'),
      import('../../review/builtin.js'),
      import('../../bundle/load.js'),
      import('../../core/fs/path.js'),
    ]);
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
});

/** `rules --backtest` (docs/mining.md "Backtest"): the flow replays, this prints. */
async function backtestCommand(args: RulesArgs, context: CliContext): Promise<number> {
  const [{ backtest }, { progress }, { flowMessages: f }] = await Promise.all([
    import('../../flows/backtest.js'),
    import('../../core/output.js'),
    import('../../messages/flows.js'),
  ]);
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
