/**
 * What a change introduces, for `pattern` rules of the bundle (docs/review.md "What a change
 * introduces", "Code, not prose"). The rule runner flags added lines; here each flagged file's
 * two versions are read once, and a finding stays only where the new version has a violation of
 * its rule, read as the rule reads (code by default), that the old version did not have: a
 * reformatted call, a moved block, a rename beside an old violation, or a match in a comment or
 * a string raise nothing. Where a version cannot be read or a regex may only run sandboxed, the
 * finding stays as the runner found it (today's added-line rule). Credential and other built-in
 * rules never come here: every added line is screened for them.
 */
import type { DiffFile } from '../../diff/types.js';
import type { FindingDraft } from '../findings/contract.js';
import type { ReviewRule } from '../engine/types.js';
import { introducedViolations, type Violation } from './match.js';
import { patternViolations } from './pattern.js';
import { TOO_LARGE_VERSION, type Version, type VersionBook } from './versions.js';

/** The whole comparison's time: past it, what is left keeps the runner's findings. */
export const COMPARE_BUDGET_MS = 2_000;

export interface Flagged {
  draft: FindingDraft;
  rule: ReviewRule;
  file: DiffFile;
  /** The lines the change added to the file (every piece of it). */
  added: ReadonlySet<number>;
  /** Whether the rule governs a path (its own paths and its document's): an old path's violations count only there. */
  governs: (path: string) => boolean;
}

/** The flagged findings that stand for no introduced violation: to be dropped. */
export async function notIntroduced(flagged: readonly Flagged[], book: VersionBook): Promise<Set<FindingDraft>> {
  const drop = new Set<FindingDraft>();
  const byFile = new Map<DiffFile, Flagged[]>();
  for (const f of flagged) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  book.prefetch([...byFile.keys()]);
  const deadline = performance.now() + COMPARE_BUDGET_MS;
  for (const [file, items] of byFile) {
    const after = await book.version(file, 'new');
    if (after === null || after === TOO_LARGE_VERSION) continue;
    const before = await book.version(file, 'old');
    // A modified file whose old version cannot be read is still read as code: only masking applies.
    const old = before === TOO_LARGE_VERSION ? null : before;
    const { added, governs } = items[0]!;
    const path = file.newPath!;
    for (const rule of new Set(items.map((i) => i.rule))) {
      // A renamed file's old version counts where the rule governed its old path (a file moved
      // into a folder a rule governs brings its violations in new).
      const counted = old && (file.oldPath === null || file.oldPath === path || governs(file.oldPath)) ? old : null;
      const moved = (v: Violation) => book.takeMoved(v.lineKey, path, governs);
      const fresh = freshLines(rule, after, counted, added, deadline, moved);
      if (!fresh) continue;
      for (const item of items) if (item.rule === rule && !fresh.has(item.draft.line)) drop.add(item.draft);
    }
  }
  return drop;
}

/** The added lines holding a violation of `rule` the old version lacks; null where it cannot be known. */
function freshLines(
  rule: ReviewRule,
  after: Version,
  before: Version | null,
  added: ReadonlySet<number>,
  deadline: number,
  moved: (v: Violation) => boolean,
): Set<number> | null {
  const now = patternViolations(rule, after.text, after.view(), deadline);
  if (!now) return null;
  let then: Violation[] = [];
  if (before) {
    const found = patternViolations(rule, before.text, before.view(), deadline);
    if (!found) return null;
    then = found;
  }
  const fresh = introducedViolations(then, now, (v) => added.has(v.line), moved);
  return new Set(fresh.filter((v) => added.has(v.line)).map((v) => v.line));
}
