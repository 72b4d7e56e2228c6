/** `revtrail doctor`: checks this clone's installation and says what to fix (docs/hooks.md, "Doctor"). */
import { defineCommand, type CliContext } from '../command.js';
import { paint, useColor } from '../../core/output.js';
import type { StepCost } from '../../install/doctor-timing.js';

/** `doctor --timing`: the table of docs/hooks.md, "Timing the chain". */
async function timing(args: DoctorArgs, context: CliContext): Promise<number> {
  const [{ timeChain, TimingError }, { timingMessages: m }] = await Promise.all([
    import('../../install/doctor-timing.js'),
    import('../../messages/timing.js'),
  ]);
  let report: Awaited<ReturnType<typeof timeChain>>;
  try {
    report = await timeChain(context.cwd, {
      rev: args.timing,
      runs: args.runs,
      // A terminal sees the runs go by on one line; a pipe or a file gets the table alone.
      onProgress:
        args.json || !(context.stderr as { isTTY?: boolean }).isTTY
          ? undefined
          : (done, of) => context.stderr.write(`\r${m.progress(done, of)}${done === of ? '\n' : ''}`),
    });
  } catch (error) {
    if (!(error instanceof TimingError)) throw error;
    context.stderr.write(`${m.badRev(error.message)}\n`);
    return 2;
  }
  if (args.json) {
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const header = m.header(report.manager);
  const rows: string[][] = [];
  const notes: string[] = [];
  const cell = (v: number | null) => (v === null ? m.none : m.ms(v));
  const step = (name: 'commit' | 'push', s: StepCost) => {
    rows.push([m.step[name]!]);
    if (!s.hooks.length) rows.push([`  ${m.noHooks}`]);
    for (const h of s.hooks) {
      rows.push([
        `  ${h.hook}`,
        m.ms(h.total),
        cell(h.revtrail),
        m.ms(h.team),
        ...(report.manager ? [cell(h.manager)] : []),
      ]);
      if (h.exit) notes.push(m.hookExit(h.hook, h.exit));
    }
    rows.push([`  ${m.gitItself}`, m.ms(s.git)]);
    const sum = (k: 'team' | 'manager') => s.hooks.reduce((n, h) => n + (h[k] ?? 0), 0);
    rows.push([
      `  ${m.all}`,
      m.ms(s.total),
      m.ms(s.revtrail),
      m.ms(sum('team')),
      ...(report.manager ? [s.hooks.some((h) => h.manager !== null) ? m.ms(sum('manager')) : m.none] : []),
    ]);
  };
  step('commit', report.commit);
  step('push', report.push);
  const alone = [...report.commit.hooks, ...report.push.hooks].filter((h) => h.forRevtrail).map((h) => h.hook);
  if (report.manager && alone.length) notes.push(m.forRevtrail(report.manager, alone));
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[0]!) : c.padStart(widths[i]!))).join('   ')}`.trimEnd();
  const out = [
    m.title(report.top),
    `  ${m.method(report.measured.commit, report.measured.subject, report.runs, report.manager)}`,
    '',
    line(header),
    ...rows.map(line),
    '',
    ...notes.map((n) => `  ${n}`),
    m.adds(report.commit.revtrail, report.commit.total, report.push.revtrail, report.push.total),
    m.how,
  ];
  context.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

interface DoctorArgs {
  json: boolean;
  timing?: string;
  runs: number;
}

export default defineCommand<DoctorArgs>({
  command: 'doctor',
  describe:
    'Check that the hooks run in this clone (every worktree, CLI, node, prepare script, bundle) and say what to fix',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 doctor [--json] [--timing[=<commit>] [--runs N]]\n\nExit 0 when nothing needs fixing (warnings included), 1 when something does, 2 when the configuration cannot be used.',
      )
      .option('json', { type: 'boolean', default: false, describe: 'The checks as JSON' })
      .option('timing', {
        type: 'string',
        describe:
          'Time one commit (HEAD, or the one named) and one push through the hooks this repository runs: what revtrail, the team and the hook manager each cost (docs/hooks.md, "Timing the chain")',
      })
      .option('runs', { type: 'number', default: 3, describe: 'With --timing: runs of each, the median shown' })
      .example('$0 doctor', 'after cloning, or when a commit was not reviewed')
      .example('$0 doctor --timing', 'what revtrail adds to a commit and a push here'),
  async run(args, context) {
    if (args.timing !== undefined) return timing(args, context);
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
