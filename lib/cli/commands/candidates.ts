/** `revtrail candidates` (SPEC §8): gate the mined threads, write candidate files, or explain. */
import { relative, resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc, paint, useColor } from '../../core/output.js';

interface CandidatesArgs {
  out?: string;
  explain?: string;
  json: boolean;
  all: boolean;
}

export default defineCommand<CandidatesArgs>({
  command: 'candidates',
  describe: 'Knowledge candidates from finding threads that pass the promotion gate (drafts for a human)',
  builder: (y) =>
    y
      .option('out', { type: 'string', requiresArg: true, describe: 'folder for candidate files (default .revtrail/candidates/; never inside the bundle)' })
      .option('explain', { type: 'string', requiresArg: true, describe: 'every gate signal of a finding ID or a rule_source, with the facts' })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('all', { type: 'boolean', default: false, describe: 'read every ref (default: HEAD and the mainline)' }),
  async run(args, context) {
    const [
      { findRepo }, { loadConfig }, { InputError }, { loadHistory }, { evaluateGate }, { loadBundle },
      { buildCandidates, describe }, { explain, formatExplanation }, { loadTemplate, renderCandidate, revtrailVersion },
      { checkOutDir, writeCandidateFiles }, { candidatesMessages: m },
    ] = await Promise.all([
      import('../../core/git/repo.js'),
      import('../../config/load.js'),
      import('../../core/errors.js'),
      import('../../gate/history.js'),
      import('../../gate/index.js'),
      import('../../bundle/load.js'),
      import('../../candidates/build.js'),
      import('../../candidates/explain.js'),
      import('../../candidates/render.js'),
      import('../../candidates/write.js'),
      import('../../messages/candidates.js'),
    ]);
    const repo = await findRepo(context.cwd);
    const { config } = await loadConfig(repo.top);
    const bundleRoot = resolve(repo.top, config.knowledge);
    const out = args.out !== undefined ? resolve(context.cwd, args.out) : resolve(repo.top, '.revtrail', 'candidates');
    if (args.explain === undefined) await checkOutDir(out, bundleRoot);

    const history = await loadHistory({ cwd: repo.top, commonDir: repo.commonDir, mainline: config.mainline, all: args.all });
    const target = args.explain;
    const report = await evaluateGate({
      cwd: repo.top,
      commonDir: repo.commonDir,
      commits: history.commits,
      minRecurrence: config.gate.minRecurrence,
      resolved: { mainline: history.mainline, problem: history.mainlineProblem },
      reachable: history.reachable,
      explain: target === undefined ? undefined : (t) => t.id === target || t.rule_source === target,
    });
    const bundle = await loadBundle(bundleRoot, { base: repo.top });
    const set = buildCandidates(report, bundle);

    if (target !== undefined) {
      const explanation = explain(report, target, set);
      if (!explanation) throw new InputError(m.explainUnknown(target), { remedy: m.explainUnknownRemedy });
      context.stdout.write(args.json ? JSON.stringify(explanation, null, 2) + '\n' : formatExplanation(explanation, paint(useColor(context.stdout))));
      return 0;
    }

    const mainline = history.mainline?.name ?? 'the mainline';
    const [template, version] = await Promise.all([loadTemplate(), revtrailVersion()]);
    const files = set.candidates.map((c) => ({ name: `${c.id.slice(3)}.md`, text: renderCandidate(template, c, describe(c, mainline), version) }));
    const written = await writeCandidateFiles(out, files);
    const show = (f: string) => relative(context.cwd, f) || f;
    if (args.json) {
      context.stdout.write(
        JSON.stringify(
          {
            candidates: set.candidates,
            files: written.map((w) => ({ file: show(w.file), changed: w.changed })),
            in_bundle: set.inBundle,
            rules: report.rules.length,
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
      context.stdout.write(esc(w.changed ? m.wrote(show(w.file), c.id, c.gate.threads, c.gate.files.length) : m.unchanged(show(w.file), c.id)) + '\n');
    });
    if (set.candidates.length === 0) context.stdout.write(m.none(report.rules.length) + '\n');
    return 0;
  },
});
