/** The handlers of `revtrail candidates` (its options: ../commands/candidates.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { relative, resolve } from 'node:path';
import { escapeControl as esc, paint, useColor } from '../../core/output.js';
import type { CliContext } from '../command.js';
import type { CandidatesArgs } from '../commands/candidates.js';
import { candidatesMessages as m, refineMessages as rm } from '../../messages/candidates.js';
import { THREAD_SIGNALS } from '../../gate/signals/index.js';
import { openWorkspace } from '../../workspace/index.js';
import { runCandidates } from '../../candidates/run.js';
import { formatExplanation } from '../../candidates/explain.js';
import { CREDENTIAL_RULE_SOURCES } from '../../review/builtin.js';

export const handlers = {
  async candidates(args: CandidatesArgs, context: CliContext): Promise<number> {
    const ws = await openWorkspace(context.cwd);
    // The gate's thresholds and the bundle come from the config: one that cannot be used stops here.
    if (ws.configError) throw ws.configError;
    const repo = ws.repo!;
    const { config } = ws;
    const result = await runCandidates({
      repo,
      config,
      out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
      explain: args.explain,
      all: args.all,
      exempt: (ruleSource) => CREDENTIAL_RULE_SOURCES.has(ruleSource),
    });
    if (result.kind === 'explained-all') {
      const painter = paint(useColor(context.stdout));
      if (args.json) context.stdout.write(JSON.stringify(result.explanations, null, 2) + '\n');
      else if (result.explanations.length === 0) context.stdout.write(m.none(0) + '\n');
      else context.stdout.write(result.explanations.map((e) => formatExplanation(e, painter)).join('\n'));
      return 0;
    }
    if (result.kind === 'explained') {
      const { explanation } = result;
      context.stdout.write(
        args.json
          ? JSON.stringify(explanation, null, 2) + '\n'
          : formatExplanation(explanation, paint(useColor(context.stdout))),
      );
      return 0;
    }
    const { set, written, report, refinements } = result;
    const show = (f: string) => relative(context.cwd, f) || f;
    if (args.json) {
      context.stdout.write(
        JSON.stringify(
          {
            candidates: set.candidates,
            files: written.map((w) => ({ file: show(w.file), changed: w.changed })),
            in_bundle: set.inBundle,
            rules: report.rules.length,
            refinements: refinements.drafts.map((d) => ({
              ...d.trial,
              file: show(d.page.file),
              patch: show(d.patch.file),
            })),
            trials: refinements.trials,
          },
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    for (const s of set.inBundle) context.stdout.write(esc(m.inBundle(s.rule_source, s.document)) + '\n');
    set.candidates.forEach((c, i) => {
      const w = written[i]!;
      context.stdout.write(
        esc(
          w.changed
            ? m.wrote(show(w.file), c.id, c.gate.threads, c.gate.files.length)
            : m.unchanged(show(w.file), c.id),
        ) + '\n',
      );
    });
    for (const d of refinements.drafts)
      context.stdout.write(
        esc(
          d.page.changed || d.patch.changed
            ? rm.wrote(show(d.page.file), d.trial.kind, d.trial.rule_source, d.trial.folder)
            : rm.unchanged(show(d.page.file)),
        ) + '\n',
      );
    for (const n of refinements.notes) context.stdout.write(`revtrail: ${esc(n)}\n`);
    if (set.candidates.length === 0 && refinements.drafts.length === 0) {
      context.stdout.write(m.none(report.rules.length) + '\n');
      // Rules the bundle or the baseline state are knowledge already: a new rule comes from a
      // reviewer or a person naming one they do not (docs/gate.md "Candidates").
      const people = report.rules.some((r) => r.rule_source.startsWith('human'));
      if (!config.reviewer.command && !config.reviewer.model && !people) context.stdout.write(m.noProposer + '\n');
      if (report.rules.length) {
        context.stdout.write(`${rm.noneHeading}\n${rm.noneKinds}\n`);
        for (const r of report.rules) {
          if (set.owned.some((o) => o.rule_source === r.rule_source)) continue;
          const unmet = THREAD_SIGNALS.filter((sig) => !r.threads.some((t) => t.met[sig.name])).map((sig) => sig.name);
          context.stdout.write(esc(rm.farRule(r.rule_source, r.qualifying.length, r.minRecurrence, unmet)) + '\n');
        }
        // A rule of the bundle whose findings nobody REJECTed or fixed elsewhere yet: no trial, and a word on what one needs.
        for (const o of set.owned) {
          if (o.rule_source.startsWith('builtin/') || refinements.trials.some((t) => t.rule_source === o.rule_source))
            continue;
          const r = report.rules.find((x) => x.rule_source === o.rule_source);
          if (!r) continue;
          const open = r.threads.filter((t) => t.thread.state === 'OPEN').length;
          context.stdout.write(
            esc(
              rm.farOwned(o.rule_source, r.threads.length, open, {
                recurrence: config.gate.minRecurrence,
                authors: config.gate.minAuthors,
              }),
            ) + '\n',
          );
        }
        for (const t of refinements.trials)
          context.stdout.write(
            esc(
              rm.farTrial(
                t,
                { recurrence: config.gate.minRecurrence, authors: config.gate.minAuthors },
                t.checks.filter((c) => !c.met),
              ),
            ) + '\n',
          );
      }
    }
    return 0;
  },
};
