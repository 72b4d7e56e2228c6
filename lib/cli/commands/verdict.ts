/** `revtrail verdict ID VERDICT RATIONALE` and `verdict --list` (docs/record.md "The queue"). */
import { defineCommand } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { escapeControl as esc } from '../../core/output.js';

interface VerdictArgs {
  id?: string;
  verdict?: string;
  rationale?: string[];
  list: boolean;
  drop: boolean;
  json: boolean;
  new?: string;
  cite?: string;
  topic?: string;
  severity?: string;
  category?: string;
  rule?: string;
  path?: string;
  policyFrom?: string;
}

export default defineCommand<VerdictArgs>({
  command: 'verdict [id] [verdict] [rationale..]',
  describe: 'Queue a human verdict on a finding for the next commit; --list shows open findings and the queue',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 verdict ID VERDICT RATIONALE\n$0 verdict --list [--json]\n$0 verdict --drop ID\n' +
          '$0 verdict --new FILE:LINE WHAT (--cite DOC-ID | --topic NAME)\n' +
          '$0 verdict --rule RULE_SOURCE [--path GLOB] VERDICT RATIONALE\n\n' +
          'VERDICT (any case): ACCEPT (fixed: state the fix), REJECT (the finding is wrong: cite something\n' +
          'checkable, a command and its output, a URL, quoted code), DEFER (later: a tracker or timeline),\n' +
          'ACKNOWLEDGE (known and intended: the documented intent). The next commit records it as a\n' +
          'Review-Finding trailer, on a branch whose history has the finding; it stays queued until\n' +
          'a commit carries it. A credential finding takes REJECT alone (not a secret), unless\n' +
          'gate.credentialAnswers allows more; a real key is removed from history and rotated.',
      )
      .positional('id', { type: 'string', describe: 'Finding ID (rf-…), or a unique prefix of it' })
      .positional('verdict', { type: 'string', describe: 'ACCEPT | REJECT | DEFER | ACKNOWLEDGE' })
      .positional('rationale', { type: 'string', array: true, describe: 'Why (quote it; several words are joined)' })
      .option('list', { type: 'boolean', default: false, describe: 'Show the open findings and the queued verdicts' })
      .option('drop', { type: 'boolean', default: false, describe: 'Remove the queued verdict of ID' })
      .option('json', { type: 'boolean', default: false, describe: 'JSON output' })
      .option('new', {
        type: 'string',
        requiresArg: true,
        describe: 'Record your own finding at FILE:LINE (the words follow): an OPEN row for the next commit',
      })
      .option('cite', {
        type: 'string',
        requiresArg: true,
        describe: 'With --new: the document (concept id) it is about',
      })
      .option('topic', {
        type: 'string',
        requiresArg: true,
        describe: 'With --new: what kind of finding (its rule id)',
      })
      .option('severity', { type: 'string', requiresArg: true, describe: 'With --new: default suggestion' })
      .option('category', { type: 'string', requiresArg: true, describe: 'With --new: default architecture' })
      .option('rule', {
        type: 'string',
        requiresArg: true,
        describe: 'Answer every open finding of this rule_source at once (VERDICT and RATIONALE follow)',
      })
      .option('path', {
        type: 'string',
        requiresArg: true,
        describe: 'With --rule: only findings whose file matches this glob',
      })
      .option('policy-from', {
        type: 'string',
        requiresArg: true,
        describe:
          'The commit whose policy the server reviewed the push with (its rejection prints it): finds a finding only that policy raises',
      })
      // Single quotes: pasted into a shell, backticks inside double quotes would run a command.
      .example("$0 verdict rf-0123456789 REJECT '`grep KEY a.test.ts`: a fixture'", 'queue a REJECT')
      .example('$0 verdict --list', 'what can get a verdict')
      .example('$0 verdict --new src/api.ts:42 "no timeout on the call" --cite adr-0007', 'record your own finding')
      .example(
        "$0 verdict --rule adr-0007:no-db --path 'test/**' REJECT 'test fixtures'",
        'answer every open finding of a rule in one folder',
      ),
  async run(args, context) {
    const { verdictMessages: m } = await import('../../messages/verdicts.js');
    const out = context.stdout;
    if (args.list) return list(context.cwd, args.json, out, context.stderr);
    if (args.new !== undefined) {
      const { queueOwnFinding } = await import('../../flows/verdict.js');
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
      const { dropVerdict } = await import('../../flows/verdict.js');
      const dropped = await dropVerdict(context.cwd, args.id);
      if (!dropped) throw new UsageError(m.notQueued(args.id), { remedy: m.notQueuedRemedy });
      if (args.json) out.write(`${JSON.stringify({ dropped }, null, 2)}\n`);
      else out.write(`${m.dropped(dropped.id, dropped.verdict)}\n`);
      return 0;
    }
    if (!args.id || !args.verdict) throw new UsageError(m.missingArgs, { remedy: m.missingArgsRemedy });
    const { queueVerdict } = await import('../../flows/verdict.js');
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
});

async function list(
  cwd: string,
  json: boolean,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const { verdictMessages: m } = await import('../../messages/verdicts.js');
  const { listFindings } = await import('../../flows/verdict.js');
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

/** `verdict --rule RULE [--path GLOB] VERDICT RATIONALE`: the positionals shift, as with --new (no ID). */
async function bulk(
  args: VerdictArgs,
  cwd: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const { verdictMessages: m } = await import('../../messages/verdicts.js');
  const [verdict, ...words] = [args.id, args.verdict, ...(args.rationale ?? [])].filter(
    (w): w is string => w !== undefined,
  );
  if (!verdict) throw new UsageError(m.missingArgs, { remedy: m.bulkWithIdRemedy });
  if (/^rf-/i.test(verdict)) throw new UsageError(m.bulkWithId, { remedy: m.bulkWithIdRemedy });
  const { queueVerdictsByRule } = await import('../../flows/verdict.js');
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
