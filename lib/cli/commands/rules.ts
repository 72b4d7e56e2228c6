/**
 * `revtrail rules` (README "Commands"): the rules in force for this repository, the built-in
 * baseline the config leaves on and the bundle's, with where each comes from. A configuration
 * that cannot be used is named on stderr and the defaults list, as a review runs with them.
 */
import { relative } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc } from '../../core/output.js';
import { cliMessages as m } from '../../messages/cli.js';

interface RulesArgs {
  json: boolean;
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
    yargs
      .usage(
        '$0 rules [--json]\n\nCredential rules are marked "always on": no configuration switches them off or excludes them.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The rules as JSON' })
      .example('$0 rules', 'which rules a review here runs'),
  async run(args, context) {
    const [{ openWorkspace }, { builtinRules }, { conceptPath }, { toPosix }] = await Promise.all([
      import('../../workspace/index.js'),
      import('../../review/builtin.js'),
      import('../../bundle/load.js'),
      import('../../core/fs/path.js'),
    ]);
    const ws = await openWorkspace(context.cwd);
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
    if (args.json) {
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
