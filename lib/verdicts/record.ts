/**
 * `revtrail verdict ID VERDICT RATIONALE` (docs/trailers.md): checks the ID against the known findings and
 * the rationale against the feedback-log gates, then queues the verdict for the next commit.
 */
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { emptyTree, peel, run, unpushed } from '../core/git/commands.js';
import { InputError, UsageError } from '../core/errors.js';
import { checkRationale } from '../record/row.js';
import type { HumanVerdict } from '../core/vocabulary.js';
import { enqueueVerdict, enqueueVerdicts, pruneRecorded, type QueuedVerdict } from './queue.js';
import {
  findingState,
  idProblem,
  lookupFinding,
  MIN_PREFIX_HEX,
  type FindingState,
  type KnownFinding,
} from './open.js';
import { verdictMessages as m } from '../messages/verdicts.js';
import { isCredentialFinding } from '../review/findings/suppress.js';
import { findingRow } from '../report/trailer-rows.js';
import { review } from '../review/index.js';

const HUMAN: readonly HumanVerdict[] = ['ACCEPT', 'REJECT', 'DEFER', 'ACKNOWLEDGE'];

export function parseVerdict(input: string): HumanVerdict {
  const verdict = input.trim().toUpperCase();
  if (!(HUMAN as readonly string[]).includes(verdict))
    throw new UsageError(m.badVerdict(input), { remedy: m.badVerdictRemedy });
  return verdict as HumanVerdict;
}

export interface RecordedVerdict {
  entry: QueuedVerdict;
  finding: KnownFinding;
  /** Gate warnings (the verdict is queued anyway). */
  warnings: string[];
  /** The queued verdict this one replaced. */
  replaced: QueuedVerdict | null;
}

/**
 * Queues a verdict on a finding for the next commit. `workspace`: the caller's, already open (the
 * editor keeps one per repository); else one is opened from `cwd` once the input is known good.
 */
export async function recordVerdict(
  cwd: string,
  input: { id: string; verdict: string; rationale: string; policy?: CopiedPolicy },
  workspace?: Workspace,
): Promise<RecordedVerdict> {
  const verdict = parseVerdict(input.verdict);
  const id = input.id.trim().toLowerCase();
  const problem = idProblem(id);
  if (problem === 'too-short') throw new UsageError(m.shortId(input.id, MIN_PREFIX_HEX), { remedy: m.listRemedy });
  if (problem) throw new UsageError(m.badId(input.id), { remedy: m.listRemedy });
  const rationale = input.rationale.replace(/\s+/g, ' ').trim();
  const gate = checkRationale(verdict, rationale);
  const error = gate.find((g) => g.level === 'error');
  if (error) throw new InputError(m.rationaleRefused(error.message), { remedy: m.rationaleRemedy(verdict) });

  const ws = workspace ?? (await openWorkspace(cwd));
  const repo = ws.repo!;
  const state = await findingState(repo.top, repo.commonDir);
  let { found, ambiguous } = lookupFinding(state.known, id);
  // A commit made with --no-verify, blocked by the server gate alone: no hook kept its findings,
  // so the commits a push would carry are reviewed now (docs/record.md "Answering a `--no-verify` commit").
  // With the server's policy (`--policy-from`, as its rejection prints it), the same review
  // finds what the server found where the push also changed the bundle (docs/server.md).
  if (!found && !ambiguous.length)
    ({ found, ambiguous } = lookupFinding(await unpushedFindings(repo.top, input.policy), id));
  if (!found) {
    if (ambiguous.length)
      throw new UsageError(
        m.ambiguousId(
          id,
          ambiguous.map((a) => a.row.id),
        ),
        { remedy: m.ambiguousRemedy },
      );
    throw new InputError(m.unknownId(id), { remedy: m.listRemedy });
  }
  const warnings = gate.filter((g) => g.level === 'warning').map((g) => g.message);
  const { entry, notes } = await entryFor(ws, found, verdict, rationale, () => run(peel('HEAD'), { cwd: repo.top }));
  await pruneRecorded(repo.top, repo.commonDir, state.history);
  const replaced = await enqueueVerdict(repo.commonDir, entry);
  return { entry, finding: found, warnings: [...warnings, ...notes], replaced };
}

/** The queue entry of a verdict on `found`; an answer its kind cannot take is an InputError. */
async function entryFor(
  ws: Workspace,
  found: KnownFinding,
  verdict: HumanVerdict,
  rationale: string,
  head: () => Promise<string | null>,
): Promise<{ entry: QueuedVerdict; notes: string[] }> {
  const notes: string[] = [];
  // Answers by kind (docs/gate.md): an answer that cannot open the gate for a credential is
  // refused rather than recorded, so history never says "answered" of a key the gate still stops.
  if (isCredentialFinding(found.row)) {
    // `gate.credentialAnswers`; a config that cannot be read leaves the default (REJECT alone).
    const answers = ws.config.gate.credentialAnswers;
    if (verdict !== 'ACCEPT' && !answers.includes(verdict)) {
      throw new InputError(m.credentialAnswerRefused(verdict, found.row.id, answers), {
        remedy: m.credentialAnswerRemedy(answers),
      });
    }
    if (verdict === 'ACCEPT') notes.push(m.credentialAcceptNote);
  }
  // A finding seen in history or by a hook review of commits is in HEAD's history: the verdict
  // may go into any commit on top of it, even one whose history has no OPEN row for it yet
  // (commits made with --no-verify). One found in uncommitted changes (`revtrail review`, the
  // editor) waits for its commit; one `review --range` found is in the range's tip.
  const anchor = found.origin === 'review' || found.origin === 'editor' ? (found.commit ?? null) : await head();
  const entry: QueuedVerdict = {
    id: found.row.id,
    verdict,
    rationale,
    row: { ...found.row, verdict, rationale },
    queuedAt: new Date().toISOString(),
    ...(anchor ? { anchor } : {}),
  };
  return { entry, notes };
}

/**
 * One verdict on many known findings (`verdict --rule`, docs/record.md "Answers in bulk"): the
 * same checks and entries as recordVerdict, with the findings' state read once and the queue
 * written once. `findings`: known findings of `state` (findingState of the same repository).
 * A finding its kind refuses this answer for is returned with why, and the others are queued.
 */
export async function recordVerdicts(
  ws: Workspace,
  state: FindingState,
  findings: readonly KnownFinding[],
  input: { verdict: string; rationale: string },
): Promise<{ recorded: RecordedVerdict[]; refused: Array<{ id: string; why: string }> }> {
  const verdict = parseVerdict(input.verdict);
  const rationale = input.rationale.replace(/\s+/g, ' ').trim();
  const gate = checkRationale(verdict, rationale);
  const error = gate.find((g) => g.level === 'error');
  if (error) throw new InputError(m.rationaleRefused(error.message), { remedy: m.rationaleRemedy(verdict) });
  const warnings = gate.filter((g) => g.level === 'warning').map((g) => g.message);
  const repo = ws.repo!;
  let head: Promise<string | null> | undefined;
  const recorded: RecordedVerdict[] = [];
  const refused: Array<{ id: string; why: string }> = [];
  for (const found of findings) {
    try {
      const { entry, notes } = await entryFor(
        ws,
        found,
        verdict,
        rationale,
        () => (head ??= run(peel('HEAD'), { cwd: repo.top })),
      );
      recorded.push({ entry, finding: found, warnings: [...warnings, ...notes], replaced: null });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      refused.push({ id: found.row.id, why: e.message });
    }
  }
  if (recorded.length) {
    await pruneRecorded(repo.top, repo.commonDir, state.history);
    const replaced = await enqueueVerdicts(
      repo.commonDir,
      recorded.map((r) => r.entry),
    );
    for (const r of recorded) r.replaced = replaced.get(r.entry.id) ?? null;
  }
  return { recorded, refused };
}

/** A policy (config, bundle, doc map) copied out of a commit: `dir` stands for the top level. */
export interface CopiedPolicy {
  dir: string;
  commit: string;
}

/**
 * The findings of what HEAD adds over every remote-tracking ref, as OPEN findings in HEAD's
 * history; reviewed with `policy` where given (the server's), else the work tree's.
 */
async function unpushedFindings(top: string, policy?: CopiedPolicy): Promise<KnownFinding[]> {
  const head = await run(peel('HEAD'), { cwd: top });
  if (!head) return [];
  const { commits, boundary } = await run(unpushed(head), { cwd: top });
  if (!commits.length) return [];
  // One commit a remote has is the base; none (nothing pushed yet) reviews from the empty tree.
  const base = boundary[0] ?? (await run(emptyTree, { cwd: top }));
  const result = await review({
    cwd: top,
    source: { kind: 'range', range: `${base}..${head}` },
    ...(policy ? { policyTop: policy.dir, policyCommit: policy.commit } : {}),
    model: false,
    calibration: false,
    // As the push gate reviews it: a finding whose allow comment needs a signed answer is one to answer.
    signedAnswers: true,
  });
  return result.findings.flatMap((f) => {
    const row = findingRow(f);
    return row ? [{ row, state: 'OPEN' as const, origin: 'review' as const, commit: head }] : [];
  });
}
