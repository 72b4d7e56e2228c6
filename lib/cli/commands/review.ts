/** `revtrail review` (docs/review.md): parses the flags, runs the report flow (flows/review.ts), prints the report, returns its exit code. */
import { isAbsolute, resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { diffSourceOf, diffSourceOptions, knowledgeOption, requireValues, type DiffSourceArgs } from '../options.js';
import { progress, useColor } from '../../core/output.js';
import { UsageError } from '../../core/errors.js';
import { REPORT_FORMATS, type ReportFormat } from '../../report/formats.js';

interface ReviewArgs extends DiffSourceArgs {
  knowledge?: string;
  format: ReportFormat;
  json: boolean;
  reviewer?: string;
  model: boolean;
  softTests: boolean;
  minConfidence?: string;
  verbose: boolean;
  calibration: boolean;
  policyFrom?: string;
  all: boolean;
  quiet: boolean;
}

export default defineCommand<ReviewArgs>({
  command: 'review',
  describe: 'Review a diff against the knowledge bundle and the built-in baseline',
  builder: (yargs) =>
    knowledgeOption(diffSourceOptions(yargs))
      .usage(
        '$0 review [--staged | --range A..B | --range A...B | --diff FILE|- | --all] [--knowledge DIR]\n' +
          '          [--format text|json|sarif|github|codequality] [--reviewer CMD] [--no-model] [--soft-tests] [--min-confidence N]\n' +
          '          [--verbose] [--no-calibration] [--policy-from REF] [--quiet]\n\n' +
          'Default diff: all uncommitted changes against HEAD, new (untracked, not ignored) files included.\n' +
          '--all: every tracked file at HEAD reviewed as if added (the whole tree, every rule kind).\n' +
          'Exit 1 when the event is REQUEST_CHANGES, 0 for APPROVE or COMMENT, 2 for a usage or input error.',
      )
      .option('format', {
        choices: REPORT_FORMATS,
        default: 'text' as const,
        describe: 'Output format: github = Actions annotations, codequality = GitLab Code Quality report',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Same as --format json' })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'Review every tracked file at HEAD as if added: the whole tree, no file skipped for time',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line on stderr' })
      .option('reviewer', {
        type: 'string',
        requiresArg: true,
        describe: 'Reviewer program command line, run without a shell (overrides reviewer.command)',
      })
      .option('model', {
        type: 'boolean',
        default: true,
        describe: 'Ask the model reviewer of the config (reviewer.model); --no-model: not in this run',
      })
      .option('soft-tests', {
        type: 'boolean',
        default: false,
        describe: 'test findings COMMENT instead of REQUEST_CHANGES',
      })
      .option('min-confidence', {
        type: 'string',
        requiresArg: true,
        describe: 'Drop findings below this confidence, 0 to 1 (default: minConfidence of the config, 0.8)',
      })
      .option('verbose', {
        type: 'boolean',
        default: false,
        describe: 'Also say what was not reported and why (placeholder keys, generated files, inline directives)',
      })
      .option('policy-from', {
        type: 'string',
        requiresArg: true,
        describe:
          "Read the config, bundle and doc map from REF's commit, not the work tree (CI: the base branch, so a change cannot weaken its own review)",
      })
      .option('calibration', {
        type: 'boolean',
        default: true,
        describe:
          'A rule whose answered findings history mostly rejected stops blocking (config calibration); --no-calibration: every rule blocks',
      })
      .example('$0 review --staged', 'review what the next commit will contain')
      .example('$0 review --all --format json > tree.json', 'every tracked file, as if each were added')
      .example('$0 review --range origin/main...HEAD --format sarif > review.sarif', 'SARIF for code scanning')
      .example('$0 review --range origin/main...HEAD --format github', 'annotations on a GitHub pull request')
      .example(
        '$0 review --range origin/main...HEAD --format codequality > quality.json',
        'a GitLab Code Quality report',
      )
      .example(
        '$0 review --range origin/main...HEAD --policy-from origin/main',
        "review a pull request with its base branch's policy",
      )
      .example('git diff | $0 review --diff -', 'review a diff from stdin'),
  async run(args, context) {
    const { reviewMessages: m } = await import('../../messages/review.js');
    requireValues(args as unknown as Record<string, unknown>, ['range', 'diff', 'knowledge', 'policy-from']);
    if (args.all && (args.staged || args.range !== undefined || args.diff !== undefined))
      throw new UsageError(m.allAlone, { remedy: m.allAloneRemedy });
    const source = args.all ? ({ kind: 'worktree' } as const) : await diffSourceOf(args, context.cwd);
    let minConfidence: number | undefined;
    if (args.minConfidence !== undefined) {
      minConfidence = Number(args.minConfidence);
      if (
        args.minConfidence.trim() === '' ||
        !Number.isFinite(minConfidence) ||
        minConfidence < 0 ||
        minConfidence > 1
      ) {
        throw new UsageError(m.badMinConfidence(args.minConfidence), { remedy: m.badMinConfidenceRemedy });
      }
    }
    const { splitCommand } = await import('../../review/program/command-line.js');
    let reviewer: string[] | undefined;
    if (args.reviewer !== undefined) {
      reviewer = splitCommand(args.reviewer);
      // A program path typed by the user is relative to where they are; the program runs from the top level.
      if (reviewer[0]!.includes('/') && !isAbsolute(reviewer[0]!)) reviewer[0] = resolve(context.cwd, reviewer[0]!);
    }

    const { reportFlow } = await import('../../flows/review.js');
    const format = args.json ? 'json' : args.format;
    const { loadFormatter } = await import('../../report/index.js');
    const formatter = loadFormatter(format, { terminal: Boolean(context.stdout.isTTY) });
    const bar = args.quiet ? { update() {}, done() {} } : progress(context.stderr);
    const { result, exit, policyWarnings } = await reportFlow({
      cwd: context.cwd,
      source,
      knowledge: args.knowledge,
      policyFrom: args.policyFrom,
      all: args.all,
      review: {
        reviewer,
        model: args.model ? undefined : false,
        softTests: args.softTests || undefined,
        minConfidence,
        calibration: args.calibration ? undefined : false,
        onProgress: (done, total, path) => bar.update(m.progress(done, total, path)),
      },
    });
    bar.done();
    if (policyWarnings.length) {
      const { hookMessages: h } = await import('../../messages/hooks.js');
      for (const w of policyWarnings) context.stderr.write(`${h.warning(w)}\n`);
    }
    // JSON formats keep stdout parseable; github's warnings are annotations in its own output.
    if (format === 'text' || format === 'sarif') {
      const { formatWarnings } = await import('../../report/text.js');
      context.stderr.write(formatWarnings(result, { color: useColor(context.stderr) }));
    }
    if (args.verbose) for (const note of result.notes ?? []) context.stderr.write(`${m.noteLine(note)}\n`);
    context.stdout.write((await formatter)(result, { color: useColor(context.stdout) }));
    return exit;
  },
});
