/**
 * What a push asks to review (docs/hooks.md "Push"): git's ref lines on pre-push's stdin, and
 * for each, the commits it adds and their combined diff's range. Apart from the review's modules:
 * the start-up's clean push (./push-start.ts) plans from here before the hook bundle loads.
 */
import {
  emptyTree as emptyTreeCommand,
  independentOf,
  newestOf,
  reachesAll,
  mergeBase,
  commitsWithParents,
  peel as peelCommand,
  peeledObject,
  remoteTips,
  run,
} from '../core/git/commands.js';
import { findRepo, type Repo } from '../core/git/repo.js';

export interface RefUpdate {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

/** The all-zero object name git gives for a ref that does not exist (sha1 or sha256). */
export const ZERO = /^(0{40}|0{64})$/;
/** An object name as git writes it in a hook's ref lines. */
export const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** Parses git's pre-push stdin; malformed lines are returned separately (git never sends them). */
export function parseRefLines(input: string): { updates: RefUpdate[]; bad: string[] } {
  const updates: RefUpdate[] = [];
  const bad: string[] = [];
  for (const raw of input.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const [localRef, localSha, remoteRef, remoteSha, extra] = line.split(/\s+/);
    if (extra !== undefined || !localRef || !remoteRef || !SHA.test(localSha ?? '') || !SHA.test(remoteSha ?? ''))
      bad.push(line);
    else updates.push({ localRef, localSha: localSha!, remoteRef, remoteSha: remoteSha! });
  }
  return { updates, bad };
}

/** What one ref line asks to review: a diff range and the commits it adds. */
export interface PushPlan {
  update: RefUpdate;
  /** Combined diff range; null: nothing to review (deletion, nothing new, not a commit). */
  range: string | null;
  commits: string[];
  /** Those of `commits` with more than one parent (their own diff is what they add: ./push-commits.ts). */
  merges: string[];
  /** The pushed commit (tags peeled): verdicts come from its history. */
  tip: string | null;
  /** One commit with one parent: its own diff is the combined diff. */
  single: boolean;
  /**
   * A ref (a tag, mostly) that names a tree or a blob: no commits, but content the push carries,
   * reviewed whole for credentials (./push-review.ts); or an annotated tag of commits the other
   * side has, whose own message is new (`tag`). Absent otherwise.
   */
  object?: { oid: string; type: 'tree' | 'blob' | 'tag' };
}

/**
 * `known`: the rev-list arguments that name what the other side has already, for a new ref or
 * an old tip this repository lacks (pre-push: `--not --remotes=REMOTE`; the server: `--not --all`).
 */
export async function planRef(
  top: string,
  known: readonly string[] | (() => Promise<readonly string[]>),
  update: RefUpdate,
  emptyTree: () => Promise<string>,
  peel: (rev: string) => Promise<string | null> = (rev) => run(peelCommand(rev), { cwd: top }),
  onWalk?: (revs: string[]) => void,
): Promise<PushPlan> {
  const none = { update, range: null, commits: [], merges: [], tip: null, single: false };
  if (ZERO.test(update.localSha)) return none; // a deletion is never blocked
  const tip = await peel(update.localSha);
  if (!tip) {
    // A tag of a tree or a blob (or a ref straight at one): no commits, yet content is pushed.
    if (update.localSha === update.remoteSha) return none;
    const object = await run(peeledObject(update.localSha), { cwd: top });
    if (object?.type === 'tree' || object?.type === 'blob')
      return { ...none, object: { oid: object.oid, type: object.type } };
    return none;
  }
  const remoteTip = ZERO.test(update.remoteSha) ? null : await peel(update.remoteSha);
  if (remoteTip) {
    // rev-list first: the combined diff waits for its answer, the walk's reader does not.
    const listing = revList(top, [tip, `^${remoteTip}`]);
    onWalk?.([tip, `^${remoteTip}`]);
    const listed = await listing;
    const commits = listed.map((c) => c.commit);
    if (commits.length === 0) return tagOnly(update, tip);
    // A history that shares no commit with the old tip (a force push of another root) has no
    // merge base for `OLD...NEW`: all of it is new, reviewed from the empty tree. Only a push
    // that adds a root commit can be one, so only then is git asked.
    const unrelated =
      listed.some((c) => c.parents.length === 0) && (await run(mergeBase(remoteTip, tip), { cwd: top })) === null;
    const range = unrelated ? `${await emptyTree()}..${tip}` : `${remoteTip}...${tip}`;
    return { update, tip, commits, merges: mergesOf(listed), range, single: !unrelated && isSingle(listed) };
  }
  // New ref, or the remote has a commit we lack (a force push over it): review what the other
  // side does not have already.
  const knownArgs = typeof known === 'function' ? await known() : known;
  const listing = revList(top, ['--topo-order', tip, ...knownArgs]);
  onWalk?.([tip, ...knownArgs]);
  const listed = await listing;
  const commits = listed.map((c) => c.commit);
  if (commits.length === 0) return tagOnly(update, tip);
  const base = (await knownBase(top, listed)) ?? (await emptyTree());
  return { update, tip, commits, merges: mergesOf(listed), range: `${base}..${tip}`, single: isSingle(listed) };
}

const mergesOf = (listed: ReadonlyArray<{ commit: string; parents: string[] }>) =>
  listed.filter((c) => c.parents.length > 1).map((c) => c.commit);

/**
 * The diff base of a new ref: the commit the other side has that the new commits stand on. A
 * branch that merged main in stands on two (its fork point and main's tip): the one that reaches
 * every other is the base, so main's lines, already there, are not the branch's (docs/hooks.md
 * "Push"). Where none reaches all, the oldest new commit's first parent, as git's own
 * `OLD...NEW` would not apply either. Null: a root commit (the empty tree).
 */
async function knownBase(
  top: string,
  listed: ReadonlyArray<{ commit: string; parents: string[] }>,
): Promise<string | null> {
  const fallback = listed[listed.length - 1]!.parents[0] ?? null;
  const inPush = new Set(listed.map((c) => c.commit));
  const boundary = [...new Set(listed.flatMap((c) => c.parents).filter((p) => !inPush.has(p)))];
  if (boundary.length < 2) return boundary[0] ?? fallback;
  // Mostly the newest of them reaches the others (main's tip): two quick walks ask that (on
  // git/git's 43 bounds 0.14 s against merge-base --independent's 0.98 s, docs/hooks.md "Merges in
  // the credential pass"); only otherwise does git compare them all.
  const newest = await run(newestOf(boundary), { cwd: top });
  if (newest && (await run(reachesAll(newest, boundary), { cwd: top }))) return newest;
  const independent = await run(independentOf(boundary), { cwd: top });
  return independent.length === 1 ? independent[0]! : fallback;
}

/** No commits to review; an annotated tag the other side lacks still carries its message. */
function tagOnly(update: RefUpdate, tip: string): PushPlan {
  const plan: PushPlan = { update, tip, commits: [], merges: [], range: null, single: false };
  if (tip !== update.localSha && update.localSha !== update.remoteSha)
    plan.object = { oid: update.localSha, type: 'tag' };
  return plan;
}

function isSingle(listed: ReadonlyArray<{ parents: string[] }>): boolean {
  return listed.length === 1 && listed[0]!.parents.length === 1;
}

/** The commits with their parents (first parent first): one git process answers both. */
async function revList(top: string, args: string[]): Promise<Array<{ commit: string; parents: string[] }>> {
  const lines = await run(commitsWithParents(args), { cwd: top });
  return lines.map((line) => {
    const [commit, ...parents] = line.split(' ');
    return { commit: commit!, parents };
  });
}

/** A pre-push's plans: where, git's ref lines (and any malformed ones), and what each adds. */
export interface PushPlanning {
  repo: Repo;
  updates: RefUpdate[];
  bad: string[];
  plans: PushPlan[];
}

/**
 * Plans every ref line of pre-push's `input` against `remote` (what it advertises is known). `onWalk`: for a push of one ref, called with the revision arguments of what it
 * adds as soon as they are known, before git lists them (the clean push's start reads the
 * commits' patches from them meanwhile, ./push-start.ts).
 */
export async function planPush(
  remote: string,
  input: string,
  cwd: string,
  onWalk?: (top: string, revs: string[]) => void,
): Promise<PushPlanning> {
  const { updates, bad } = parseRefLines(input);
  // Where, and what the first pushed commit is, from one git process; what each other pushed
  // name is, asked beside it (git runs the hook at the top level, where any folder of the work
  // tree answers alike): git round trips fewer before the review.
  const first = updates.find((u) => !ZERO.test(u.localSha))?.localSha;
  const located = first ? findRepo(cwd, { commit: first }) : findRepo(cwd).then((repo) => ({ repo, commit: null }));
  const peeled = new Map<string, Promise<string | null>>();
  if (first)
    peeled.set(
      first,
      located.then((l) => l.commit),
    );
  const peel = (rev: string) => {
    let known = peeled.get(rev);
    if (!known) peeled.set(rev, (known = run(peelCommand(rev), { cwd })));
    return known;
  };
  for (const u of updates) for (const sha of [u.localSha, u.remoteSha]) if (!ZERO.test(sha)) peel(sha).catch(() => {});
  const { repo } = await located;
  let emptyTreeId: string | undefined;
  const emptyTree = async () => (emptyTreeId ??= await run(emptyTreeCommand, { cwd: repo.top }));
  const plans: PushPlan[] = [];
  const walk = onWalk && updates.length === 1 ? (revs: string[]) => onWalk(repo.top, revs) : undefined;
  // What the remote has is what it advertises now, never a remote-tracking ref, which may name
  // a branch deleted there since (docs/hooks.md "Push"): asked once, and only for a new ref or
  // an old tip this clone lacks. Names it has and this clone lacks are skipped (--ignore-missing).
  let advertised: Promise<readonly string[]> | undefined;
  const known = () =>
    (advertised ??= run(remoteTips(remote), { cwd: repo.top }).then((tips) => ['--ignore-missing', '--not', ...tips]));
  for (const update of updates) plans.push(await planRef(repo.top, known, update, emptyTree, peel, walk));
  return { repo, updates, bad, plans };
}
