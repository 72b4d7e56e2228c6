/** `revtrail review` (docs/review.md): parses the flags, runs the report flow (flows/review.ts), prints the report, returns its exit code. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';
import { diffSourceOptions, knowledgeOption, type DiffSourceArgs } from '../options.js';
import { REPORT_FORMATS, type ReportFormat } from '../../report/formats.js';

export interface ReviewArgs extends DiffSourceArgs {
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
  run: lazyRun('review', 'review'),
});
