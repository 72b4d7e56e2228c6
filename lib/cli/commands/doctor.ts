/** `revtrail doctor`: checks this clone's installation and says what to fix (docs/hooks.md, "Doctor"). */
import { defineCommand } from '../command.js';
import { paint, useColor } from '../../core/output.js';

interface DoctorArgs {
  json: boolean;
}

export default defineCommand<DoctorArgs>({
  command: 'doctor',
  describe:
    'Check that the hooks run in this clone (every worktree, CLI, node, prepare script, bundle) and say what to fix',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 doctor [--json]\n\nExit 0 when nothing needs fixing (warnings included), 1 when something does, 2 when the configuration cannot be used.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The checks as JSON' })
      .example('$0 doctor', 'after cloning, or when a commit was not reviewed'),
  async run(args, context) {
    const [{ doctor }, { doctorMessages: m }] = await Promise.all([
      import('../../install/doctor.js'),
      import('../../messages/install.js'),
    ]);
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
});
