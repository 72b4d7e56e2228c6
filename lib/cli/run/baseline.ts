/** The handlers of `revtrail baseline` (its options: ../commands/baseline.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { requireValues } from '../options.js';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { BaselineArgs } from '../commands/baseline.js';
import * as flow from '../../flows/baseline.js';
import { flowMessages as f } from '../../messages/flows.js';

export const handlers = {
  async baseline(args: BaselineArgs, context: CliContext): Promise<number> {
    requireValues(args as unknown as Record<string, unknown>, ['knowledge']);
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
};
