/** `revtrail verdict ID VERDICT RATIONALE` and `verdict --list` (docs/record.md "The queue"). */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface VerdictArgs {
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
  run: lazyRun('verdict', 'verdict'),
});
