/** The handlers of `revtrail verdict` (its options: ../commands/verdict.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { UsageError } from '../../core/errors.js';
import { escapeControl as esc } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { VerdictArgs } from '../commands/verdict.js';
import { verdictMessages as m } from '../../messages/verdicts.js';
import { dropVerdict, queueOwnFinding, queueVerdict, queueVerdictsByRule, listFindings } from '../../flows/verdict.js';

export const handlers = {
  async verdict(args: VerdictArgs, context: CliContext): Promise<number> {
    const out = context.stdout;
    if (args.list) return list(context.cwd, args.json, out, context.stderr);
    if (args.new !== undefined) {
      const entry = await queueOwnFinding(context.cwd, {
        where: args.new,
        what: [args.id, args.verdict, ...(args.rationale ?? [])].filter((w) => w !== undefined).join(' '),
        cite: args.cite,
        topic: args.topic,
        severity: args.severity,
        category: args.category,
      });
      if (args.json) out.write(`${JSON.stringify({ queued: entry }, null, 2)}\n`);
      else
        out.write(
          `${m.newQueued(entry.id, `${esc(entry.row.file)}:${entry.row.line}`, esc(entry.row.rule_source))}\n${m.newNext}\n`,
        );
      return 0;
    }
    if (args.rule !== undefined) return bulk(args, context.cwd, out, context.stderr);
    if (args.path !== undefined) throw new UsageError(m.bulkPathWithoutRule, { remedy: m.bulkWithIdRemedy });
    if (args.drop) {
      if (!args.id) throw new UsageError(m.missingArgs, { remedy: m.missingArgsRemedy });
      const dropped = await dropVerdict(context.cwd, args.id);
      if (!dropped) throw new UsageError(m.notQueued(args.id), { remedy: m.notQueuedRemedy });
      if (args.json) out.write(`${JSON.stringify({ dropped }, null, 2)}\n`);
      else out.write(`${m.dropped(dropped.id, dropped.verdict)}\n`);
      return 0;
    }
    if (!args.id || !args.verdict) throw new UsageError(m.missingArgs, { remedy: m.missingArgsRemedy });
    const result = await queueVerdict(context.cwd, {
      id: args.id,
      verdict: args.verdict,
      rationale: (args.rationale ?? []).join(' '),
      policyFrom: args.policyFrom,
    });
    for (const w of result.warnings) context.stderr.write(`revtrail: ${esc(m.warning(w))}\n`);
    if (args.json) {
      out.write(
        `${JSON.stringify({ queued: result.entry, replaced: result.replaced, warnings: result.warnings }, null, 2)}\n`,
      );
      return 0;
    }
    const { row } = result.entry;
    const lines = [m.queued(result.entry.verdict, row.id, `${esc(row.file)}:${row.line}`, esc(row.issue))];
    if (result.replaced) lines.push(m.replaced(result.replaced.verdict, result.replaced.queuedAt));
    else if (result.finding.state !== 'OPEN' && result.finding.commit)
      lines.push(m.alreadyDecided(result.finding.state, result.finding.commit));
    lines.push(m.next);
    out.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

/** `verdict --rule RULE [--path GLOB] VERDICT RATIONALE`: the positionals shift, as with --new (no ID). */
async function bulk(
  args: VerdictArgs,
  cwd: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const [verdict, ...words] = [args.id, args.verdict, ...(args.rationale ?? [])].filter(
    (w): w is string => w !== undefined,
  );
  if (!verdict) throw new UsageError(m.missingArgs, { remedy: m.bulkWithIdRemedy });
  if (/^rf-/i.test(verdict)) throw new UsageError(m.bulkWithId, { remedy: m.bulkWithIdRemedy });
  const result = await queueVerdictsByRule(cwd, {
    rule: args.rule!,
    path: args.path,
    verdict,
    rationale: words.join(' '),
  });
  for (const line of result.lines) err.write(`${esc(line)}\n`);
  for (const q of result.queued) for (const w of q.warnings) err.write(`revtrail: ${esc(m.warning(w))}\n`);
  for (const r of result.refused) err.write(`revtrail: ${esc(m.bulkRefused(r.id, r.why))}\n`);
  if (args.json) {
    const queued = result.queued.map((q) => ({
      id: q.entry.id,
      file: q.entry.row.file,
      line: q.entry.row.line,
      verdict: q.entry.verdict,
    }));
    out.write(
      `${JSON.stringify({ rule_source: args.rule, queued, answered: result.answered, already_queued: result.alreadyQueued, refused: result.refused }, null, 2)}\n`,
    );
    return result.refused.length ? 2 : 0;
  }
  const lines: string[] = [];
  if (result.queued.length === 0) lines.push(m.bulkNothing(args.rule!, result.answered, result.alreadyQueued));
  else {
    lines.push(m.bulkQueued(result.queued.length, result.queued[0]!.entry.verdict, esc(args.rule!)));
    for (const q of result.queued)
      lines.push(`  ${q.entry.id}  ${esc(q.entry.row.file)}:${q.entry.row.line}  ${esc(q.entry.row.issue)}`);
    lines.push(m.next);
  }
  out.write(`${lines.join('\n')}\n`);
  return result.refused.length ? 2 : 0;
}

async function list(
  cwd: string,
  json: boolean,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const { state, lines: told } = await listFindings(cwd);
  for (const line of told) err.write(`${esc(line)}\n`);
  const open = state.known.filter((k) => k.state === 'OPEN');
  if (json) {
    const openOut = open.map((k) => ({
      id: k.row.id,
      file: k.row.file,
      line: k.row.line,
      rule_source: k.row.rule_source,
      category: k.row.category,
      severity: k.row.severity,
      issue: k.row.issue,
      origin: k.origin,
      commit: k.commit ?? null,
      queued: k.queued?.verdict ?? null,
    }));
    const still = state.stillInHistory.map((k) => ({
      id: k.row.id,
      file: k.row.file,
      line: k.row.line,
      rule_source: k.row.rule_source,
      verdict: k.state,
      commit: k.commit ?? null,
    }));
    out.write(`${JSON.stringify({ open: openOut, still_in_history: still, queue: state.queue }, null, 2)}\n`);
    return 0;
  }
  const lines = [m.listOpenTitle(open.length)];
  if (!open.length) lines.push(m.listNone);
  for (const k of open) {
    const queued = k.queued ? `  [queued: ${k.queued.verdict}]` : '';
    lines.push(
      `  ${k.row.id}  ${esc(k.row.file)}:${k.row.line}  ${k.row.severity}  ${esc(k.row.issue)}  (${esc(k.row.rule_source)}; ${m.listOrigin(k.origin, k.commit)})${queued}`,
    );
  }
  if (state.stillInHistory.length) {
    lines.push('', m.listStillTitle(state.stillInHistory.length));
    for (const k of state.stillInHistory)
      lines.push(
        `  ${k.row.id}  ${esc(k.row.file)}:${k.row.line}  ${k.row.severity}  ${esc(k.row.issue)}  (${esc(k.row.rule_source)}; ${m.listStill(k.state)})`,
      );
  }
  lines.push('', m.listQueueTitle(state.queue.length));
  if (!state.queue.length) lines.push(m.listNone);
  for (const q of state.queue) {
    lines.push(
      `  ${q.id}  ${q.verdict}  ${esc(q.row.file)}:${q.row.line}  ${esc(JSON.stringify(q.rationale))}${q.carriedFrom ? `  ${q.dropped ? m.listDropped(q.carriedFrom) : m.listCarried(q.carriedFrom)}` : ''}`,
    );
  }
  out.write(`${lines.join('\n')}\n`);
  return 0;
}
