/** The handlers of `revtrail doctor` (its options: ../commands/doctor.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { paint, useColor } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { DoctorArgs } from '../commands/doctor.js';
import { doctor } from '../../install/doctor.js';
import { doctorMessages as m } from '../../messages/install.js';
import { timeChain, TimingError, type StepCost } from '../../install/doctor-timing.js';
import { timingMessages } from '../../messages/timing.js';

export const handlers = {
  async doctor(args: DoctorArgs, context: CliContext): Promise<number> {
    if (args.timing !== undefined) return timing(args, context);
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

/** `doctor --timing`: the table of docs/hooks.md, "Timing the chain". */
async function timing(args: DoctorArgs, context: CliContext): Promise<number> {
  const m = timingMessages;
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
