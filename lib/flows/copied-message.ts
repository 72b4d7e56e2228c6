/**
 * `git commit -C/-c <commit>`: git copies that commit's message, verdict rows and all, onto
 * whatever branch is checked out. The cherry-pick rule applies (docs/record.md "Copied
 * messages"): a copied row stays only where it belongs to this commit, its finding on record
 * in this branch's history (a verdict) or raised by this commit's own review, and never as a
 * second copy of a record the history holds. Other rows leave the message, with one line that
 * says so; they stay in the commit they were copied from.
 */
import { readFile } from 'node:fs/promises';
import type { Repo } from '../core/git/repo.js';
import { configValue, peel, run } from '../core/git/commands.js';
import { readHistoryOf, recordKey } from '../record/history.js';
import type { TrailerRow } from '../record/row.js';
import { commentCharFor, splitLines } from '../record/message.js';
import { lintMessage } from '../record/lint.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { isAmendCommit } from '../core/git/invocation.js';
import { hookMessages as m } from '../messages/hooks.js';
import { runReview } from '../review/index.js';
import { openWorkspace } from '../workspace/index.js';

export async function filterCopiedRows(repo: Repo, path: string, from: string): Promise<string[]> {
  const lookupAlias = (name: string) => run(configValue(`alias.${name}`), { cwd: repo.top });
  // `--amend` (git says "commit HEAD" for it too) keeps the amended commit's records: commit-msg's work.
  if (await isAmendCommit(lookupAlias)) return [];
  const original = await readFile(path);
  const text = original.toString('utf8');
  const commentChar = await commentCharFor(repo.top, text);
  const lint = lintMessage(text, { commentChar });
  if (lint.rows.length === 0) return [];

  const head = await run(peel('HEAD'), { cwd: repo.top });
  const history = head ? await readHistoryOf(repo.top, [head]) : [];
  const inHistory = new Set(history.map((h) => recordKey(h.row)));
  const idsInHistory = new Set(history.map((h) => h.row.id));
  const raised = await raisedByStaged(
    repo,
    lint.rows.some((r) => !idsInHistory.has(r.row.id)),
  );
  const belongs = (row: TrailerRow) => {
    if (inHistory.has(recordKey(row))) return false; // a second copy of a record
    if (row.verdict === 'OPEN') return raised.has(row.id) && !idsInHistory.has(row.id);
    return idsInHistory.has(row.id) || raised.has(row.id);
  };
  const drop = lint.rows.filter((r) => !belongs(r.row));
  if (drop.length === 0) return [];

  const gone = new Set<number>();
  const lines = splitLines(text);
  for (const { line } of drop) {
    gone.add(line);
    for (let i = line; i < lines.length && /^[ \t]+\S/.test(lines[i]!); i++) gone.add(i + 1);
  }
  const kept = lines.filter((_, i) => !gone.has(i + 1)).join('\n') + (text.endsWith('\n') ? '\n' : '');
  await writeFileAtomic(path, kept.replace(/\n{3,}/g, '\n\n'));
  const name = (await run(peel(from), { cwd: repo.top }))?.slice(0, 7) ?? from;
  return [
    m.copiedRowsLeftOut(
      name,
      drop.map((d) => `${d.row.verdict} ${d.row.id}`),
    ),
  ];
}

/** Finding IDs the staged change raises (none needed: none read). A review that cannot run raises nothing. */
async function raisedByStaged(repo: Repo, needed: boolean): Promise<Set<string>> {
  if (!needed) return new Set();
  try {
    const session = await openWorkspace(repo.top, { repo });
    const result = await runReview(session, {
      cwd: repo.top,
      source: { kind: 'staged' },
      verdictTip: null,
      reviewer: false,
    });
    return new Set([...result.findings, ...result.suppressed].map((f) => f.id));
  } catch {
    return new Set();
  }
}
