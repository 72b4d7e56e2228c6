/**
 * `revtrail hook post-rewrite amend|rebase` (old → new commit lines on stdin): every record of a
 * rewritten commit whose finding still applies must be in its new commit. The hooks put them
 * there as the rewrite happens (commit-msg for an amend, prepare-commit-msg for a squash or
 * fixup); what is still missing (an amend with --no-verify, rows deleted in an editor) is
 * queued for the next commit on top of the new one, with one line that says so. The queue's
 * anchors follow the rewrite, and records now in a new commit leave the queue
 * (docs/record.md "Rebase").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findRepo, type Repo } from '../core/git/repo.js';
import { commitMessages, readHistoryOf, recordKey } from '../record/history.js';
import type { TrailerRow } from '../record/row.js';
import { lintMessage } from '../record/lint.js';
import { enqueueCarried, pruneRows, readQueue, remapAnchors, type QueuedVerdict } from '../verdicts/queue.js';
import { commitDiffSource } from './commit-plan.js';
import { runnableRuleSources } from './rule-sources.js';
import type { Outcome } from './outcome.js';
import { hookMessages as m } from '../messages/hooks.js';
import { settleRebase } from '../verdicts/dropped.js';
import { runReview } from '../review/index.js';
import { openWorkspace } from '../workspace/index.js';

const LINE = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64})(?: .*)?$/;

export function parseRewrites(input: string): Array<{ from: string; to: string }> {
  return input
    .split('\n')
    .map((l) => LINE.exec(l.trim()))
    .filter((x): x is RegExpExecArray => x !== null)
    .map((x) => ({ from: x[1]!, to: x[2]! }));
}

interface Missing {
  row: TrailerRow;
  from: string;
  to: string;
}

/** The rewrite flow: git's `amend`/`rebase` and its old → new lines, in the repository at `cwd`. */
export async function rewriteFlow(cwd: string, kind: string, input: string): Promise<Outcome> {
  const lines: string[] = [];
  const pairs = parseRewrites(input);
  if (pairs.length === 0) return { exit: 0, lines };
  const repo = await findRepo(cwd);
  const targets = [...new Set(pairs.map((p) => p.to))];
  const messages = await commitMessages(repo.top, [...new Set([...pairs.map((p) => p.from), ...targets])]);
  const rowsOf = (commit: string) => {
    const text = messages.get(commit) ?? '';
    return /^review-finding[ \t]*:/im.test(text) ? lintMessage(text, { commentChar: '\0' }).rows.map((r) => r.row) : [];
  };
  // A record anywhere in the rewritten commits is kept (a split commit may move rows around).
  const present = new Set(targets.flatMap((t) => rowsOf(t).map(recordKey)));
  const missing: Missing[] = [];
  const seen = new Set<string>();
  for (const { from, to } of pairs) {
    for (const row of rowsOf(from)) {
      const key = recordKey(row);
      if (present.has(key) || seen.has(key)) continue;
      seen.add(key);
      missing.push({ row, from, to });
    }
  }
  const carried = missing.length ? await stillApplying(repo, missing) : [];

  const rewritten = new Map(pairs.map((p) => [p.from, p.to]));
  const queue = await readQueue(repo.commonDir);
  if (queue.length) {
    await remapAnchors(repo.commonDir, rewritten);
    await pruneRows(repo.commonDir, targets.flatMap(rowsOf));
  }
  if (carried.length) {
    const now = new Date().toISOString();
    const entries: QueuedVerdict[] = carried.map((c) => ({
      id: c.row.id,
      verdict: c.row.verdict,
      rationale: c.row.rationale,
      row: c.row,
      queuedAt: now,
      anchor: c.to,
      carriedFrom: c.from,
    }));
    const added = await enqueueCarried(repo.commonDir, entries);
    if (added.length)
      lines.push(
        m.rewriteCarried(
          added.map((a) => `${a.verdict} ${a.id} (${a.carriedFrom!.slice(0, 7)} → ${a.anchor!.slice(0, 7)})`),
        ),
      );
  }
  // The commits the rebase dropped are in no line of the input: compare its before and after.
  if (kind === 'rebase')
    lines.push(
      ...(await reportDropped(repo, {
        rewritten: new Set(pairs.map((p) => p.from)),
        before: await rebaseOrigHead(repo.gitDir),
      })),
    );
  return { exit: 0, lines };
}

/** Queues the verdicts of commits a rebase dropped (../verdicts/dropped.ts): the one line that says so, if any. */
export async function reportDropped(
  repo: Repo,
  options: { rewritten?: ReadonlySet<string>; before?: string } = {},
): Promise<string[]> {
  const added = await settleRebase(repo, options);
  return added.length
    ? [m.rebaseDropped(added.map((a) => `${a.verdict} ${a.id} (${a.carriedFrom!.slice(0, 7)})`))]
    : [];
}

async function rebaseOrigHead(gitDir: string): Promise<string | undefined> {
  try {
    return (await readFile(join(gitDir, 'rebase-merge', 'orig-head'), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Which missing records still apply. An OPEN row: while the new commit's own review still
 * raises its finding (a finding of a rule this review does not run is kept: ./rule-sources.ts). A verdict: while
 * its finding is on record in the new history, raised by the new commit, or carried too.
 */
async function stillApplying(repo: Repo, missing: readonly Missing[]): Promise<Missing[]> {
  const session = await openWorkspace(repo.top, { repo });
  const raisedBy = new Map<string, Set<string>>();
  // A review that cannot run keeps everything: a record kept is better than one lost.
  const raised = async (commit: string): Promise<{ has(id: string): boolean }> => {
    let ids = raisedBy.get(commit);
    if (!ids) {
      try {
        const result = await runReview(session, {
          cwd: repo.top,
          source: await commitDiffSource(repo.top, commit),
          verdictTip: null,
          reviewer: false,
        });
        ids = new Set([...result.findings, ...result.suppressed].map((f) => f.id));
      } catch {
        return { has: () => true };
      }
      raisedBy.set(commit, ids);
    }
    return ids;
  };
  const runnable = await runnableRuleSources(session);
  const checkable = (ruleSource: string) => runnable.has(ruleSource);

  const keep: Missing[] = [];
  for (const item of missing.filter((x) => x.row.verdict === 'OPEN')) {
    if (!checkable(item.row.rule_source) || (await raised(item.to)).has(item.row.id)) keep.push(item);
  }
  const carriedIds = new Set(keep.map((k) => k.row.id));
  const verdicts = missing.filter((x) => x.row.verdict !== 'OPEN');
  if (verdicts.length) {
    const history = new Set(
      (await readHistoryOf(repo.top, [...new Set(verdicts.map((v) => v.to))])).map((h) => h.row.id),
    );
    for (const item of verdicts) {
      if (history.has(item.row.id) || carriedIds.has(item.row.id) || (await raised(item.to)).has(item.row.id))
        keep.push(item);
    }
  }
  return keep; // OPEN rows first: a finding's row before the verdicts that answer it
}
