/**
 * `revtrail hook prepare-commit-msg FILE [SOURCE [COMMIT]]` during a rebase's squash or fixup
 * step, and for the commit after `git merge --squash` (the hook script calls it only then).
 * git builds that message from the commits being folded together: a fixup's message is
 * dropped, an `amend!` replaces the message, and a squash leaves the first commit's rows in the
 * body where git's trailer view misses them. Here the records of the commits folded together
 * are put back into the message's trailer block, oldest first, each once (docs/record.md
 * "Rebase", "Squash merge").
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Outcome } from './outcome.js';
import { findRepo } from '../core/git/repo.js';
import { formatRow, type TrailerRow } from '../record/row.js';
import { commitMessages } from '../record/history.js';
import { commentCharFor, splitLines } from '../record/message.js';
import { lintMessage } from '../record/lint.js';
import { appendTrailers, configuredFoldAt } from '../record/write.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { namesChangedBy, run, stagedNames } from '../core/git/commands.js';

const STEP = /^(fixup|f|squash|s)\s+(?:-[cC]\s+)?([0-9a-f]{7,64})\b/;

/** The message flow: git's message file being prepared at `cwd`, and where git says it came from. */
export async function prepareMessageFlow(
  cwd: string,
  file: string,
  source?: string,
  commit?: string,
): Promise<Outcome> {
  const done = (lines: string[] = []): Outcome => ({ exit: 0, lines });
  const repo = await findRepo(cwd);
  // `commit -C/-c <commit>` outside a rebase (whose own steps are handled below): ./copied-message.ts.
  if (source === 'commit' && commit && !existsSync(join(repo.gitDir, 'rebase-merge'))) {
    const { filterCopiedRows } = await import('./copied-message.js');
    return done(await filterCopiedRows(repo, resolve(cwd, file), commit));
  }
  const folded = (await currentFold(repo.gitDir)) ?? (await squashedCommits(repo.top, repo.gitDir));
  if (!folded) return done();
  const path = resolve(cwd, file);
  const original = await readFile(path);
  const text = original.toString('utf8');
  const commentChar = await commentCharFor(repo.top, text);
  const messages = [...(await commitMessages(repo.top, folded)).values()];
  const rowsOf = (t: string) => lintMessage(t, { commentChar: '\0' }).rows.map((r) => r.row);
  const lint = lintMessage(text, { commentChar });
  const wanted: TrailerRow[] = [...messages.flatMap(rowsOf), ...lint.rows.map((r) => r.row)];
  if (wanted.length === 0) return done();

  // Take every row line out (with its continuation lines), then add each row once at the end.
  const drop = new Set<number>();
  const lines = splitLines(text);
  for (const { line } of lint.rows) {
    drop.add(line);
    for (let i = line; i < lines.length && /^[ \t]+\S/.test(lines[i]!); i++) drop.add(i + 1);
  }
  const kept = lines.filter((_, i) => !drop.has(i + 1)).join('\n') + (text.endsWith('\n') ? '\n' : '');
  const seen = new Set<string>();
  const rows = wanted.filter((r) => {
    const value = formatRow(r);
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
  const after = await appendTrailers(Buffer.from(kept), rows, {
    cwd: repo.top,
    commentChar,
    foldAt: await configuredFoldAt(repo.top),
  });
  if (!after.equals(original)) await writeFileAtomic(path, after);
  return done();
}

/**
 * A rebase's squash or fixup step: the commit being amended (HEAD) and the one it folds in,
 * from the rebase's list of done commands.
 */
async function currentFold(gitDir: string): Promise<string[] | null> {
  let done: string;
  try {
    done = await readFile(join(gitDir, 'rebase-merge', 'done'), 'utf8');
  } catch {
    return null;
  }
  const last =
    done
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
      .pop() ?? '';
  const step = STEP.exec(last.trim())?.[2];
  return step ? ['HEAD', step] : null;
}

/**
 * `git merge --squash`: the commits it squashed, oldest first, as git listed them in SQUASH_MSG
 * (`commit <id>` lines, newest first). Their records go into the one commit that replaces them,
 * whether it is written with git's prepared message or with `-m` (docs/record.md "Squash merge").
 */
async function squashedCommits(top: string, gitDir: string): Promise<string[] | null> {
  let text: string;
  try {
    text = await readFile(join(gitDir, 'SQUASH_MSG'), 'utf8');
  } catch {
    return null;
  }
  const commits = [...text.matchAll(/^commit ([0-9a-f]{40}|[0-9a-f]{64})$/gm)].map((m) => m[1]!).reverse();
  if (!commits.length) return null;
  return (await squashInIndex(top, commits)) ? commits : null;
}

/**
 * SQUASH_MSG outlives an abandoned squash (`git restore --staged --worktree :/` leaves it), so
 * it alone says nothing: the squash is in the index only while a path its commits changed is
 * staged (differs from HEAD). An unrelated commit after an abandoned squash takes nothing from
 * it (docs/record.md "Squash merge").
 */
async function squashInIndex(top: string, commits: readonly string[]): Promise<boolean> {
  const touched = new Set(
    (await run(namesChangedBy(commits), { cwd: top }))
      .split('\0')
      .map((p) => p.replace(/^\n+/, ''))
      .filter(Boolean),
  );
  if (touched.size === 0) return false;
  const staged = (await run(stagedNames, { cwd: top })).split('\0');
  return staged.some((p) => p && touched.has(p));
}
