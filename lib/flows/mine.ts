/**
 * The mine flow (docs/mining.md): the history's records into their sink. Records stream to
 * `stdout` or the `out` file as they are read (a history of a million commits is never held);
 * what the flow answers is the notices about the lines it could not read, and its exit. The
 * organisation's Parquet partition of this repository (`parquet`) and the audit of signed
 * answers (`signedAnswers`) are the same flow with another sink (docs/org.md, docs/gate.md).
 */
import { relative } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import type { MineFormat } from '../mine/output.js';
import { mineMessages as m } from '../messages/mine.js';
import { orgMessages as om } from '../messages/org.js';
import { openWorkspace } from '../workspace/index.js';
import type { Outcome } from './outcome.js';

export interface MineInput {
  cwd: string;
  revs: string[];
  all: boolean;
  cache: boolean;
  format: MineFormat | 'parquet';
  includeOpen: boolean;
  redact: boolean;
  /** Absolute: the output file (the folder for parquet); stdout when absent. */
  out?: string;
  /** The audit of answers that need a reviewer's signature, instead of the records. */
  signedAnswers: boolean;
  stdout: NodeJS.WritableStream;
  onProgress?: (commits: number, records: number) => void;
  /** What the cache decided (REVTRAIL_DEBUG=1). */
  onPlan?: (plan: string, detail?: string) => void;
}

export async function mineFlow(input: MineInput): Promise<Outcome> {
  // git looks for the repository while mining's modules load.
  const [ws, { runMine }] = await Promise.all([openWorkspace(input.cwd), import('../mine/run.js')]);
  const repo = ws.repo!;
  // What is mined is decided by the config (privacy, reviewers): one that cannot be used stops here.
  if (ws.configError) throw ws.configError;
  const { config } = ws;
  const redact = input.redact || config.privacy.redactAuthors;
  if (input.signedAnswers) {
    const [{ writeSignedAudit }, { signedAnswerRules }] = await Promise.all([
      import('../stats/signed-audit.js'),
      import('../review/findings/signed.js'),
    ]);
    const exit = await writeSignedAudit({
      top: repo.top,
      commonDir: repo.commonDir,
      config,
      rules: signedAnswerRules(config),
      revs: input.revs,
      all: input.all,
      json: input.format === 'json',
      redact,
      out: input.out,
      stdout: input.stdout,
    });
    return { exit, lines: [] };
  }
  if (input.format === 'parquet') return mineParquet(input, repo.top);
  const { notices, noticeCount } = await runMine({
    cwd: repo.top,
    commonDir: repo.commonDir,
    revs: input.revs,
    all: input.all,
    cache: input.cache,
    format: input.format,
    includeOpen: input.includeOpen,
    redact,
    out: input.out,
    stdout: input.stdout,
    onProgress: input.onProgress,
    onPlan: input.onPlan,
  });
  const lines = notices.map((n) =>
    n.kind === 'warning' ? m.warning(n.commit, n.text) : m.rejectedLine(n.commit, n.text),
  );
  if (noticeCount > notices.length) lines.push(m.warningsMore(noticeCount - notices.length));
  return { exit: 0, lines };
}

/**
 * `mine --format parquet [--out DIR]`: this repository's partition of the organisation files
 * (docs/org.md "Schema"), the history `stats` reads (HEAD and the mainline), rewritten only when
 * it moved. Revisions and --all name other histories, which the files do not describe.
 */
async function mineParquet(input: MineInput, top: string): Promise<Outcome> {
  const [{ runOrgMine }, { nameOf }, { CREDENTIAL_RULE_SOURCES }, { resolve }] = await Promise.all([
    import('../org/run.js'),
    import('../org/repos.js'),
    import('../review/builtin.js'),
    import('node:path'),
  ]);
  if (input.revs.length || input.all) throw new UsageError(om.parquetRevisions, { remedy: om.parquetRevisionsRemedy });
  const dir = input.out ?? resolve(top, '.revtrail', 'org');
  const name = nameOf(top);
  const [outcome] = await runOrgMine({
    dir,
    entries: [{ name, path: top }],
    redact: input.redact,
    cache: input.cache,
    exempt: (s) => CREDENTIAL_RULE_SOURCES.has(s),
  });
  if (!outcome || outcome.state === 'skipped') throw new InputError(outcome?.problem ?? om.noRepositories);
  const shown = relative(input.cwd, dir) || '.';
  return {
    exit: 0,
    lines: [
      outcome.state === 'mined'
        ? om.parquetWrote(name, shown, outcome.commits, outcome.records)
        : om.parquetUnchanged(name, shown),
    ],
  };
}
