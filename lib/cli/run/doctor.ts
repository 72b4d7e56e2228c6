/** The handlers of `revtrail doctor` (its options: ../commands/doctor.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { paint, useColor } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { DoctorArgs } from '../commands/doctor.js';
import { doctor } from '../../install/doctor.js';
import { doctorMessages as m } from '../../messages/install.js';

export const handlers = {
  async doctor(args: DoctorArgs, context: CliContext): Promise<number> {
    const report = await doctor(context.cwd);
    // A configuration that cannot be read or validated is an input error, as in `knowledge check`.
    const code = report.checks.some((c) => c.check === 'config' && c.level === 'fail') ? 2 : report.ok ? 0 : 1;
    if (args.json) {
      context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return code;
    }
    const p = paint(useColor(context.stdout));
    const colour = { ok: p.green, info: p.dim, warn: p.yellow, fail: p.red } as const;
    const lines = [m.title(report.top)];
    for (const c of report.checks) {
      lines.push(`  ${colour[c.level](m.levels[c.level]!.padEnd(4))}  ${c.message}`);
      if (c.fix) lines.push(`        ${m.fixPrefix}${c.fix}`);
    }
    const failed = report.checks.filter((c) => c.level === 'fail').length;
    const warned = report.checks.filter((c) => c.level === 'warn').length;
    lines.push(failed ? m.needsFixing(failed) : warned ? m.allGoodWarned(warned) : m.allGood);
    context.stdout.write(`${lines.join('\n')}\n`);
    return code;
  },
};
