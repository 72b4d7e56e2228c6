/**
 * The verdict flow (docs/record.md "Where a queued record goes"): what `revtrail verdict` does, and what the
 * language server's code actions do, apart from how either shows it. Queueing a verdict, a
 * finding of one's own or a drop goes through the verdict queue (lib/verdicts/); listing first
 * settles what the record says since the last look (a rebase that ended without post-rewrite,
 * entries a commit on HEAD already carries) and names the queue lines it cannot read.
 */
import { findRepo } from '../core/git/repo.js';
import { checkGlob, compileGlobs } from '../bundle/globs.js';
import { InputError, UsageError } from '../core/errors.js';
import { checkRationale } from '../record/row.js';
import { parseVerdict, recordVerdict, recordVerdicts, type RecordedVerdict } from '../verdicts/record.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { queueFile } from '../core/state.js';
import { verdictMessages as m } from '../messages/verdicts.js';
import { findingState, type FindingState } from '../verdicts/open.js';
import { damagedQueueLines, dropQueued, pruneRecorded, type QueuedVerdict } from '../verdicts/queue.js';
import { rebaseToSettle } from '../verdicts/peek.js';
import { recordHumanFinding, type HumanFindingInput } from '../verdicts/human.js';
import { reportDropped } from './rewrite.js';
import { policyOf } from './review.js';

export type { FindingState, QueuedVerdict, RecordedVerdict, HumanFindingInput };

/** The findings that can get a verdict, the queue, and the lines to tell first (damaged queue lines, a rebase settled). */
export async function listFindings(cwd: string): Promise<{ state: FindingState; lines: string[] }> {
  const lines: string[] = [];
  const repo = await findRepo(cwd);
  // A line the queue cannot read stays in the file and is named, never dropped (docs/record.md "Faults").
  for (const d of await damagedQueueLines(repo.commonDir))
    lines.push(m.damagedQueueLine(queueFile(repo.commonDir), d.line, d.reason));
  // A rebase that ended without a post-rewrite: the verdicts of the commits it dropped join the queue first.
  if (rebaseToSettle(repo.gitDir)) lines.push(...(await reportDropped(repo)));
  let state = await findingState(repo.top, repo.commonDir);
  // Entries a commit on HEAD already carries leave the queue here too, as at commit time.
  if (
    state.queue.length &&
    (await pruneRecorded(repo.top, repo.commonDir, state.history)).length !== state.queue.length
  ) {
    state = await findingState(repo.top, repo.commonDir);
  }
  return { state, lines };
}

/**
 * A human verdict on a finding, queued for the next commit. `policyFrom`: the commit (or ref)
 * whose policy the server reviewed the push with, as its rejection names it; a finding only that
 * policy raises (the push changed the bundle) is found by reviewing what HEAD would push with it
 * (docs/server.md "Answering the server").
 */
export async function queueVerdict(
  cwd: string,
  input: { id: string; verdict: string; rationale: string; policyFrom?: string },
  workspace?: Workspace,
): Promise<RecordedVerdict> {
  const { policyFrom, ...rest } = input;
  if (policyFrom === undefined) return recordVerdict(cwd, rest, workspace);
  const copy = await policyOf(await findRepo(cwd), policyFrom);
  return recordVerdict(cwd, { ...rest, policy: { dir: copy.dir, commit: copy.commit! } }, workspace);
}

/** A finding of one's own (`verdict --new`), queued for the next commit. */
export function queueOwnFinding(cwd: string, input: HumanFindingInput, workspace?: Workspace): Promise<QueuedVerdict> {
  return recordHumanFinding(cwd, input, workspace);
}

/** The queued entry for finding `id` taken out of the queue, or null when none was queued. */
export async function dropVerdict(cwd: string, id: string): Promise<QueuedVerdict | null> {
  const repo = await findRepo(cwd);
  return dropQueued(repo.commonDir, id.trim().toLowerCase());
}

/** What `verdict --rule` did: the verdicts queued, and the matching findings it left as they were. */
export interface BulkVerdicts {
  queued: RecordedVerdict[];
  /** Matching findings answered in the history of HEAD already, and those with a verdict queued already. */
  answered: number;
  alreadyQueued: number;
  /** Findings an answer of this kind cannot be given to (a credential's), with why. */
  refused: Array<{ id: string; why: string }>;
  /** The lines to tell first (as listFindings). */
  lines: string[];
}

/**
 * Every open finding of `rule` (its rule_source, exactly) whose file matches `path` (a glob),
 * answered at once (docs/record.md "Answers in bulk"): each checked and queued as `verdict ID`
 * would (lib/verdicts/record.ts recordVerdicts), so each is recorded once, by the next commit. A finding
 * with a queued verdict is left alone: a second run answers nothing new. Findings of a baseline
 * are open findings of the record like any other, so they are answered the same way.
 */
export async function queueVerdictsByRule(
  cwd: string,
  input: { rule: string; path?: string; verdict: string; rationale: string },
): Promise<BulkVerdicts> {
  const verdict = parseVerdict(input.verdict);
  const rationale = input.rationale.replace(/\s+/g, ' ').trim();
  // The rationale is checked once, before anything is queued: a refused one queues nothing.
  const error = checkRationale(verdict, rationale).find((g) => g.level === 'error');
  if (error) throw new InputError(m.rationaleRefused(error.message), { remedy: m.rationaleRemedy(verdict) });
  let inPath = (_file: string) => true;
  if (input.path !== undefined) {
    const checked = checkGlob(input.path);
    if (!checked.ok) throw new UsageError(m.bulkPathBad(input.path, checked.error), { remedy: m.bulkPathRemedy });
    inPath = compileGlobs([checked.glob]);
  }
  const { state, lines } = await listFindings(cwd);
  const matching = state.known.filter((k) => k.row.rule_source === input.rule && inPath(k.row.file));
  if (matching.length === 0)
    throw new InputError(m.bulkUnknown(input.rule, input.path), { remedy: m.bulkUnknownRemedy });
  const open = matching.filter((k) => k.state === 'OPEN' && !k.queued);
  const result: BulkVerdicts = {
    queued: [],
    answered: matching.filter((k) => k.state !== 'OPEN').length,
    alreadyQueued: matching.filter((k) => k.state === 'OPEN' && k.queued).length,
    refused: [],
    lines,
  };
  if (open.length === 0) return result;
  // One state, one queue write for all: a finding a credential rule refuses this answer for is
  // named, and the others are still queued.
  const done = await recordVerdicts(await openWorkspace(cwd), state, open, { verdict, rationale });
  result.queued = done.recorded;
  result.refused = done.refused;
  return result;
}
