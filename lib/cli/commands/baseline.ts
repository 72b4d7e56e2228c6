/**
 * `revtrail baseline` (docs/mining.md "The baseline"): records the existing violations of the
 * bundle's rules in `.revtrail/baseline.json`, so that they never block while new code is held to
 * the rules; `--check` says per rule how many remain, how many were fixed, and what is new.
 */
import { defineCommand } from '../command.js';
import { knowledgeOption, requireValues } from '../options.js';
import { escapeControl as esc } from '../../core/output.js';

interface BaselineArgs {
  check: boolean;
  json: boolean;
  knowledge?: string;
  quiet: boolean;
}

export default defineCommand<BaselineArgs>({
  command: 'baseline',
  describe: "Record the existing violations of the bundle's rules so only new code is held to them",
  builder: (yargs) =>
    knowledgeOption(yargs)
      .usage(
        '$0 baseline [--check] [--json] [--quiet]\n\n' +
          "Reviews every tracked file at HEAD with the bundle's rules (never the credential rules) and writes\n" +
          'what they find to .revtrail/baseline.json: commit it. A review then takes those violations out of the\n' +
          'count, also when a change touches their lines; a new violation still counts.',
      )
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'Write nothing: per rule, the entries that remain at HEAD, those fixed, and violations not recorded',
      })
      .option('json', { type: 'boolean', default: false, describe: 'The outcome as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line on stderr' })
      .example('$0 baseline', 'record what the rules find in the tree today')
      .example('$0 baseline --check', 'how many recorded violations remain and how many were fixed'),
  async run(args, context) {
    requireValues(args as unknown as Record<string, unknown>, ['knowledge']);
    const [flow, { progress }, { flowMessages: f }] = await Promise.all([
      import('../../flows/baseline.js'),
      import('../../core/output.js'),
      import('../../messages/flows.js'),
    ]);
    const bar = args.quiet ? { update() {}, done() {} } : progress(context.stderr);
    const input = {
      cwd: context.cwd,
      knowledge: args.knowledge,
      onProgress: (done: number, total: number, path: string) => bar.update(f.baselineProgress(done, total, path)),
    };
    if (!args.check) {
      const written = await flow.writeBaseline(input);
      bar.done();
      if (args.json) {
        context.stdout.write(`${JSON.stringify(written, null, 2)}\n`);
        return 0;
      }
      const lines = [f.baselineWritten(written.entries, written.rules.length, written.file, written.commit)];
      for (const r of written.rules) lines.push(f.baselineRuleLine(r.rule_source, r.entries));
      if (written.entries) lines.push(f.baselineNext(written.file));
      context.stdout.write(`${lines.map((l) => esc(l)).join('\n')}\n`);
      return 0;
    }
    const checked = await flow.checkBaseline(input);
    bar.done();
    if (args.json) {
      context.stdout.write(`${JSON.stringify(checked, null, 2)}\n`);
      return 0;
    }
    const header = f.baselineColumns;
    const table = [
      header,
      ...checked.rules.map((r) => [
        r.rule_source,
        String(r.entries),
        String(r.remaining),
        String(r.fixed),
        String(r.unrecorded),
      ]),
    ];
    const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    const lines = table.map((row) =>
      row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    );
    const sum = (k: 'remaining' | 'fixed' | 'unrecorded') => checked.rules.reduce((a, r) => a + r[k], 0);
    lines.push('', f.baselineCheckSummary(sum('remaining'), sum('fixed'), sum('unrecorded')));
    context.stdout.write(`${lines.map((l) => esc(l)).join('\n')}\n`);
    return 0;
  },
});
