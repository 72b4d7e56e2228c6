/**
 * pre-push's start (docs/hooks.md "Push", "A clean push from its own start bundle"): the push
 * planned, and a push no rule can reach decided, from a bundle of its own before the hook bundle
 * loads, as a clean commit is (./commit-start.ts). Clean is the push's one decision
 * (./push-decide.ts) answering "pass": the clean check's record is current (review/clean-check.ts)
 * and holds the credential screen's needles, every ref's combined diff has pieces and no needle
 * of any rule, and every pushed commit's own diff has no credential needle on an added line
 * (nor a file cut to the cap or called binary). The full hook would then find nothing and say
 * nothing. Otherwise the planning, the diffs read and the commits screened go on to the full
 * hook (../hooks/hook/pre-push.ts), which reads none of them again.
 */
import { cleanCheckFile } from '../core/state.js';
import type { CappedDiff } from '../diff/cap.js';
import { readDiff } from '../diff/source.js';
import { currentCleanRecord, preCheck, type CleanRecord, type Decision } from '../review/clean-check.js';
import { mayHaveLastFindings } from '../verdicts/peek.js';
import { addedFileDiff, commitPatches, patchPaths, type CommitPatch } from './push-commits.js';
import { commitMetadata } from './push-metadata.js';
import { planPush, type PushPlan, type PushPlanning } from './push-plan.js';
import { pushProgress } from './push-progress.js';
import { decidePush, pushFacts, type PushFacts, type PushNeed } from './push-decide.js';

/** What the full hook takes over when the push was not clean. */
export interface PushReads extends PushPlanning {
  /**
   * Combined diffs read, by range, with the pre-check's decision for each where it was asked
   * (review/clean-check.ts preCheck), so the full hook does not ask again.
   */
  diffs: Array<[range: string, read: { diff: CappedDiff; decision?: Decision }]>;
  /** `TIP COMMIT` of each commit the credential screen passed over. */
  screened: string[];
  /** What the start gathered for the push's decision (./push-decide.ts), for the full hook to go on from. */
  facts?: PushFacts;
  /** The clean check's record of this clone's policy, as the start read it (null: none current). */
  record?: CleanRecord | null;
  /** Each ref's pushed metadata (./push-metadata.ts) as the start read it, by `RANGE TIP TAG`. */
  metadata?: Array<[key: string, text: Promise<string>]>;
  /**
   * The first ref's commit patches still being read when the start gave up (one git log, not
   * started twice): exactly the commits of `tip` not in `screened`, each once. The full hook
   * reads it to the end or closes it.
   */
  patches?: HandedPatches;
}

export interface HandedPatches {
  tip: string;
  stream: AsyncGenerator<CommitPatch>;
  /** Stops git, read or not: a git left running would keep the hook process from exiting. */
  close(): Promise<void>;
}

/** The clean-start entry: whether the push is clean, and what was read for the full hook when it is not. */
export async function prePushClean(
  remote: string,
  input: string,
  cwd: string,
  stderr: NodeJS.WriteStream,
): Promise<{ clean: true } | { clean: false; reads: PushReads | null }> {
  // A push of one ref: its commits' patches start streaming as soon as their revisions are
  // known, beside the `git rev-list` that lists them.
  let early: Reading | undefined;
  // The walk's merges are known once the plan is: their patches come from a list (push-commits.ts).
  let planned: (merges: readonly string[]) => void = () => {};
  const merges = new Promise<readonly string[]>((resolve) => (planned = resolve));
  const onWalk = (top: string, revs: string[]) => {
    const patches = commitPatches(top, { walk: revs, merges });
    const next = patches.next();
    next.catch(() => {});
    early = { patches, next, walked: true };
  };
  let reads: PushReads;
  try {
    try {
      reads = { ...(await planPush(remote, input, cwd, onWalk)), diffs: [], screened: [] };
      planned(reads.plans[0]?.merges ?? []);
    } catch {
      planned([]);
      return { clean: false, reads: null }; // the full hook plans again and says why
    }
    try {
      return (await isCleanPush(reads, stderr, early)) ? { clean: true } : { clean: false, reads };
    } catch {
      return { clean: false, reads };
    }
  } finally {
    // Stops git if it was not read to the end, unless the full hook reads on from it.
    const reading = early as Reading | undefined;
    if (reading && !handed.has(reading.patches)) await reading.patches.return(undefined);
  }
}

/** A `git log -p` of commits being read: by their list, or by the revisions they were walked from. */
interface Reading {
  patches: AsyncGenerator<CommitPatch>;
  next: Promise<IteratorResult<CommitPatch>>;
  /** From a walk: each commit it yields is checked to be one the plan lists. */
  walked: boolean;
}

/**
 * The push's decision (./push-decide.ts) as far as the start can take it: the facts are read in
 * the order it asks for them, two git processes at a time, and the start stops as soon as it
 * cannot answer "pass". What was read goes to the full hook in `reads`.
 */
async function isCleanPush(reads: PushReads, stderr: NodeJS.WriteStream, early?: Reading): Promise<boolean> {
  const { repo, plans } = reads;
  const facts = pushFacts(reads.bad.length, plans);
  reads.facts = facts;
  const asks = (fact: PushNeed, ref?: number) => {
    const next = decidePush(facts);
    return next.kind === 'need' && next.fact === fact && next.ref === ref;
  };
  if (decidePush(facts).kind === 'pass') return true;
  // Bad lines, a tree or blob pushed by a tag: the full hook names and reviews them (./push-review.ts).
  if (!asks('state')) return false;
  const work = [...plans.entries()].filter(([, p]) => p.range !== null);
  // The first ref's reads start before the record is checked: git works while it is read, and
  // the full hook needs the combined diff either way.
  let reading = startReads(reads, work[0]![1], work.length === 1 ? early : undefined);
  reads.record = currentCleanRecord(cleanCheckFile(repo.commonDir), repo.top);
  const check = preCheck(reads.record, 'pre-push');
  facts.check = !check ? 'none' : check.screensPatches ? 'screens' : 'combined';
  facts.lastFindings = await mayHaveLastFindings(repo.commonDir, 'pre-push');
  if (!check || !asks('combined', work[0]![0])) {
    // Not handed over (more than one ref, or nothing to stream): stopped here, as before.
    if (!handOver(reads, work[0]![1], reading, reading.next)) await reading.patches.return(undefined);
    const diff = await reading.diff.catch(() => null); // the full hook reads it again and says why
    if (diff) reads.diffs.push([work[0]![1].range!, { diff }]);
    return false;
  }
  // Each ref's commits' header lines and its annotated tag's (./push-metadata.ts), beside the
  // patches; handed on, so the full hook's review of the files at the tip does not read them again.
  reads.metadata = [];
  const metadata = work.map(([, plan]) => {
    const tag = plan.tip !== plan.update.localSha ? plan.update.localSha : undefined;
    const text = commitMetadata(
      reads.repo.top,
      plan.commits,
      tag ? { oid: tag, ref: plan.update.localRef } : undefined,
    );
    text.catch(() => {});
    reads.metadata!.push([`${plan.range} ${plan.tip} ${tag ?? ''}`, text]);
    return text;
  });
  const shown = pushProgress(stderr);
  try {
    for (const [n, [ref, plan]] of work.entries()) {
      if (n > 0) reading = startReads(reads, plan);
      const { patches, next, todo, walked } = reading;
      const planned = new Set(todo);
      const known = facts.refs[ref]!;
      let handed = false;
      try {
        const diff = await reading.diff;
        const decision = check.decide(diff);
        reads.diffs.push([plan.range!, { diff, decision }]);
        known.combined = decision;
        if (!asks('carried', ref)) {
          handed = n === 0 && handOver(reads, plan, reading, next);
          return false;
        }
        // The paths the combined diff names (a key as a file's name: the full hook reviews them as
        // `(paths of REF)`), and the metadata.
        const paths = addedFileDiff(
          `(paths of ${plan.update.localRef})`,
          patchPaths(Buffer.from(diff.text)).join('\n'),
        );
        const carried = { diff: Buffer.from(paths + (await metadata[n]!)), capped: [] };
        known.carried = check.decidePatch(carried);
        if (!asks('commits', ref)) {
          handed = n === 0 && handOver(reads, plan, reading, next);
          return false;
        }
        let done = 0;
        for (let step = await next; !step.done; step = await patches.next()) {
          const patch = step.value;
          // A walk reaches what the plan lists, no more (checked, not assumed).
          if (walked && !planned.has(patch.commit)) return false;
          if (check.decidePatch(patch) === 'review') {
            known.commits = 'review';
            handed = n === 0 && handOver(reads, plan, reading, Promise.resolve(step));
            return false;
          }
          reads.screened.push(`${plan.tip} ${patch.commit}`);
          shown.checking(plan.update.localRef, ++done, todo.length);
        }
        // ...and no less.
        if (done !== todo.length) return false;
        known.commits = 'clean';
      } finally {
        if (!handed) await patches.return(undefined); // stops git when the check gave up early
      }
    }
    return decidePush(facts).kind === 'pass';
  } finally {
    shown.clear();
  }
}

/**
 * Gives the full hook the first ref's patches still being read (`next`: the one read and not yet
 * screened, or the first asked). Only a single ref's reading is handed over: the full hook
 * reviews that ref first. What a walk reaches beyond the plan is dropped, and a planned commit it
 * did not reach is read by list at the end, so the stream holds the plan's commits, each once.
 */
function handOver(
  reads: PushReads,
  plan: PushPlan,
  reading: ReturnType<typeof startReads>,
  next: Promise<IteratorResult<CommitPatch>>,
): boolean {
  if (reads.plans.filter((p) => p.range !== null).length !== 1 || !plan.tip || plan.single) return false;
  const screened = new Set(reads.screened);
  const todo = plan.commits.filter((c) => !screened.has(`${plan.tip} ${c}`));
  const merges = new Set(plan.merges);
  const top = reads.repo.top;
  async function* stream(): AsyncGenerator<CommitPatch> {
    const left = new Set(todo);
    try {
      for (let step = await next; !step.done; step = await reading.patches.next()) {
        if (left.delete(step.value.commit)) yield step.value;
      }
    } finally {
      await reading.patches.return(undefined);
    }
    if (left.size) yield* commitPatches(top, { commits: todo.filter((c) => left.has(c)), merges });
  }
  const handedStream = stream();
  reads.patches = {
    tip: plan.tip,
    stream: handedStream,
    // A generator closed before its first step never runs its own finally: close the reading too.
    close: async () => {
      await handedStream.return(undefined).catch(() => {});
      await reading.patches.return(undefined).catch(() => {});
    },
  };
  handed.add(reading.patches);
  return true;
}

/** The readings handed to the full hook: not to be stopped here. */
const handed = new WeakSet<AsyncGenerator<CommitPatch>>();

/**
 * A ref's combined diff and, beside it, the one `git log -p` of its commits not screened yet: two
 * git processes at once. `early`: that log, started from the ref's revisions before they were listed.
 */
function startReads(reads: PushReads, plan: PushPlan, early?: Reading) {
  const diff = readDiff(reads.repo.top, { kind: 'range', range: plan.range! });
  diff.catch(() => {});
  const seen = new Set(reads.screened);
  const todo = plan.single ? [] : plan.commits.filter((c) => !seen.has(`${plan.tip} ${c}`));
  if (early && todo.length === plan.commits.length && todo.length > 0) return { diff, todo, ...early };
  const patches = commitPatches(reads.repo.top, { commits: todo, merges: new Set(plan.merges) });
  const next = patches.next();
  next.catch(() => {});
  return { diff, todo, patches, next, walked: false };
}
