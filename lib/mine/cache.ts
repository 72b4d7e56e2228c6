/**
 * The incremental mining cache: derived, deletable, in the git common dir. What keys it besides
 * the tips: docs/trust.md, "The mine cache and history's shape".
 *
 * One entry per list of revision arguments: `<key>.json` (the signature the run was made for,
 * and the name of its data file) and `<key>-<nonce>.jsonl` (the records' canonical JSON lines,
 * commit after commit in git log's order: exactly what `mine` prints by default). The meta
 * file is replaced atomically after its data file is complete, so a reader sees a whole run or
 * none; a data file deleted under a reader stays readable through the reader's open
 * descriptor, and one deleted before it is opened is a miss.
 *
 * Why not "list every commit again and parse only the new ones": listing is git's walk, and the
 * walk (reading every commit object) is what `git log` costs; at 100,000 commits it is as
 * slow as mining itself. So a re-run compares the tips instead: same tips, same output; tips
 * that only moved forward ask git for the new commits alone (see planIncremental).
 */
import { writeSync } from 'node:fs';
import { mkdir, open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { cleanStaleTemps, writeFileAtomic } from '../core/fs/atomic.js';
import { mineCacheDir } from '../core/state.js';
import { crypto } from '../core/node-module.js';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  commitCount,
  commitTimes,
  commitTimesWithBoundary,
  peel,
  refObjects,
  revParseAnswer,
  revsOnly,
  run,
} from '../core/git/commands.js';
import type { MinedCommit, StringPool } from './record.js';

/** Bumped whenever a CommitResult's shape, the parser's reading or the signature changes. */
export const CACHE_VERSION = 2;

export interface Signature {
  version: number;
  args: string[];
  /** `git rev-parse --revs-only` of the arguments (plus HEAD with --all): what the walk starts from. */
  tips: string[];
  /** The shallow boundary changes the walk without changing a tip. */
  shallow: string;
  /**
   * What else changes history's shape without moving a tip: replace refs (and the environment
   * that turns them off or moves them) and grafts. A hash; '' when there is none of it.
   */
  shape: string;
}

/** A warning or a rejected line, as the CLI reports it after the output. */
export interface Notice {
  kind: 'warning' | 'rejected';
  commit: string;
  text: string;
}

/** The notices a cached run keeps for a replay that copies the data file without reading it. */
export const KEPT_NOTICES = 10;

export interface CacheMeta extends Signature {
  data: string;
  commits: number;
  /** How many records (lines) the data holds; absent in an entry written before it was kept. */
  records?: number;
  bytes: number;
  /** The first KEPT_NOTICES notices, in output order, and how many there are in all. */
  notices: Notice[];
  noticeCount: number;
}

export const cacheDir = mineCacheDir;

/**
 * The entry's name for a list of arguments: FNV-1a (64 bits) of their JSON, so that a cached
 * re-run loads no crypto (a collision is only a miss: the entry holds its arguments).
 */
function keyOf(args: readonly string[]): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(JSON.stringify(args), 'utf8'))
    h = BigInt.asUintN(64, (h ^ BigInt(byte)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

const SHA = /^[0-9a-f]{40,64}$/;

/** Where GIT_REPLACE_REF_BASE puts replace refs (git's default when unset). */
export const replaceBaseOf = () => process.env.GIT_REPLACE_REF_BASE || 'refs/replace/';

/** A `--git-path` line parts the sections of signatureQuestion's answer: a path never reads as an object name. */
const MARK = 'revtrail-signature';
const isMark = (line: string) => line === MARK || line.endsWith(`/${MARK}`);
const REV_LINE = /^\^?[0-9a-f]{40,64}$/;

/**
 * Everything signatureOf asks git, as arguments of one `git rev-parse` (alone, or after
 * findRepo's questions: lib/core/git/repo.ts findRepo with `more`): the tips of `args`, HEAD peeled
 * (with --all), then the replace refs' object names and, last (`--symbolic-full-name` holds for
 * the rest of the line), their names. `--git-path` lines part the sections. Only for arguments
 * that are revisions or `--all` (an option could change how rev-parse prints what follows);
 * null otherwise.
 */
export function signatureQuestion(args: readonly string[]): string[] | null {
  if (!args.every((a) => a === '--all' || (a !== '' && !a.startsWith('-')))) return null;
  const glob = `--glob=${replaceBaseOf()}`;
  const head = args.includes('--all') ? ['HEAD^{commit}'] : [];
  const mark = ['--git-path', MARK];
  return ['--revs-only', ...args, ...mark, ...head, ...mark, glob, ...mark, '--symbolic-full-name', glob];
}

/**
 * signatureQuestion's answer for revisions whose commits the caller already knows (`tips`, in
 * the order of the arguments, as `rev-parse --revs-only` prints them) and the replace refs it
 * listed (name, object; in refname order): what that rev-parse would print, without running it.
 * No `--all` (its HEAD section stays empty).
 */
export function signatureAnswerOf(
  tips: readonly string[],
  replaced: ReadonlyArray<readonly [name: string, object: string]>,
): string[] {
  return [...tips, MARK, MARK, ...replaced.map(([, object]) => object), MARK, ...replaced.map(([name]) => name)];
}

interface Asked {
  revs: string[];
  head: string;
  /** `for-each-ref --format='%(refname) %(objectname)'` of the replace refs, as the separate call prints it. */
  replaced: string;
}

/**
 * signatureQuestion's answer read back, or null when a section is missing: rev-parse stops
 * printing at the first argument it cannot resolve (an unborn HEAD, a revision that names
 * nothing), so what came after was not asked. The separate calls answer then.
 */
function readAnswer(lines: readonly string[]): Asked | null {
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (sections.length === 4) {
      if (line) sections[3]!.push(line);
    } else if (isMark(line)) sections.push([]);
    else if (REV_LINE.test(line) && (sections.length === 1 || !line.startsWith('^'))) sections.at(-1)!.push(line);
    else if (line) return null;
  }
  const [revs, head, values, names] = sections;
  if (!names || head!.length > 1 || values!.length !== names.length) return null;
  return {
    revs: revs!,
    head: head![0] ?? '',
    replaced: names.map((name, i) => `${name} ${values![i]}\n`).join(''),
  };
}

/** The same questions as separate git calls, side by side: for any arguments, and when one rev-parse did not answer. */
async function askSeparately(cwd: string, args: readonly string[]): Promise<Asked> {
  const [revs, head, replaced] = await Promise.all([
    run(revsOnly(args), { cwd }),
    args.includes('--all') ? run(peel('HEAD'), { cwd }).then((sha) => sha ?? '') : Promise.resolve(''),
    run(refObjects(replaceBaseOf()), { cwd }).catch(() => ''),
  ]);
  return { revs: revs.split('\n').filter(Boolean), head: head.trim(), replaced };
}

/**
 * The signature of a run over `args`: one `git rev-parse` (signatureQuestion), or, for other
 * arguments or when it did not answer every section, the separate calls; either way the same
 * signature. `answer`: signatureQuestion's output lines when the caller already asked
 * (lib/start/mine.ts asks it together with findRepo's questions).
 */
export async function signatureOf(
  cwd: string,
  commonDir: string,
  args: readonly string[],
  answer?: readonly string[],
): Promise<Signature> {
  const question = answer ? null : signatureQuestion(args);
  const [asked, shallow, grafts] = await Promise.all([
    (async () => {
      const lines = answer ?? (question ? (await run(revParseAnswer(question), { cwd })).split('\n') : null);
      return (lines && readAnswer(lines)) ?? askSeparately(cwd, args);
    })(),
    readFile(join(commonDir, 'shallow'), 'utf8').catch(() => ''),
    readFile(process.env.GIT_GRAFT_FILE || join(commonDir, 'info', 'grafts'), 'utf8').catch(() => ''),
  ]);
  const tips = [...asked.revs];
  // `git log --all` also walks a detached HEAD; rev-parse --all does not list it.
  if (asked.head) tips.push(asked.head);
  const { replaced } = asked;
  const noReplace = process.env.GIT_NO_REPLACE_OBJECTS !== undefined;
  const replaceBase = replaceBaseOf();
  const shape =
    replaced || grafts ? hash(JSON.stringify({ replaced: noReplace ? '' : replaced, replaceBase, grafts })) : '';
  return { version: CACHE_VERSION, args: [...args], tips, shallow: shallow ? hash(shallow) : '', shape };
}

const hash = (text: string) => crypto().createHash('sha256').update(text).digest('hex');

export function sameSignature(a: Signature, b: Signature): boolean {
  return (
    a.version === b.version &&
    a.shallow === b.shallow &&
    a.shape === b.shape &&
    JSON.stringify(a.args) === JSON.stringify(b.args) &&
    JSON.stringify(a.tips) === JSON.stringify(b.tips)
  );
}

export class MineCache {
  constructor(readonly dir: string) {}

  async lookup(args: readonly string[]): Promise<CacheMeta | null> {
    try {
      const meta = JSON.parse(await readFile(join(this.dir, `${keyOf(args)}.json`), 'utf8')) as CacheMeta;
      return meta && meta.version === CACHE_VERSION && Array.isArray(meta.tips) && Array.isArray(meta.notices)
        ? meta
        : null;
    } catch {
      return null;
    }
  }

  /** The run's data file, open, when it is what the meta says (for a straight copy). */
  async openFile(meta: CacheMeta): Promise<FileHandle | null> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(join(this.dir, meta.data), 'r');
      if ((await handle.stat()).size === meta.bytes) return handle;
    } catch {
      // gone: a miss
    }
    await handle?.close().catch(() => {});
    return null;
  }

  /**
   * Opens a run's data for replay, or null when it is gone or not what the meta says. The file
   * is open before anything is read, so deleting the cache afterwards changes nothing. With a
   * pool, the records are made to be held (StringPool.hold).
   */
  async open(meta: CacheMeta, pool?: StringPool): Promise<AsyncGenerator<MinedCommit[]> | null> {
    // The record code loads only for a replay that reads the records (a straight copy does not).
    const { MinedCommit, commitOfLine } = await import('./record.js');
    const h = await this.openFile(meta);
    if (!h) return null;
    return (async function* () {
      // One batch per read. A read of 64 KiB stays in V8's young generation (a text of 128 KiB
      // or more is a large object, freed only by a full collection: a history held whole by
      // candidates peaked 10 MiB higher with 1 MiB reads).
      const decoder = new StringDecoder('utf8');
      const buffer = Buffer.allocUnsafe(1 << 16);
      let rest = '';
      let commit = '';
      let group: string[] = [];
      try {
        for (;;) {
          const { bytesRead } = await h.read(buffer, 0, buffer.length, null);
          const text = rest + (bytesRead ? decoder.write(buffer.subarray(0, bytesRead)) : decoder.end());
          const lines = text.split('\n');
          rest = bytesRead ? lines.pop()! : '';
          const batch: MinedCommit[] = [];
          for (const line of lines) {
            if (!line) continue;
            const of = commitOfLine(line);
            if (of !== commit && group.length) {
              batch.push(new MinedCommit(commit, { lines: group, pool }));
              group = [];
            }
            commit = of;
            group.push(line);
          }
          if (!bytesRead && group.length) batch.push(new MinedCommit(commit, { lines: group, pool }));
          if (batch.length) yield batch;
          if (!bytesRead) break;
        }
      } finally {
        await h.close().catch(() => {});
      }
    })();
  }

  /** A new run's data, written as it is produced; only commit() makes it visible. */
  writer(signature: Signature, previous: CacheMeta | null): CacheWriter {
    return new CacheWriter(this.dir, keyOf(signature.args), signature, previous);
  }
}

/** As record.ts ownCopy, without loading the record code here (a cached re-run loads this file). */
const ownCopy = (text: string) => (text.length < 13 ? text : (' ' + text).slice(1));

export class CacheWriter {
  /** The data file, open; null until `ready`, and after a failure. */
  private file: FileHandle | null = null;
  private failed = false;
  private commits = 0;
  private records: number | undefined = 0;
  private bytes = 0;
  private notices: Notice[] = [];
  private noticeCount = 0;

  private notice(n: Notice): void {
    if (this.notices.length < KEPT_NOTICES) this.notices.push(n);
    this.noticeCount += 1;
  }
  private readonly data: string;
  private ready: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly key: string,
    private readonly signature: Signature,
    private readonly previous: CacheMeta | null,
  ) {
    this.data = `${key}-${crypto().randomBytes(6).toString('hex')}.jsonl`;
    this.ready = mkdir(dir, { recursive: true })
      .then(() => open(join(dir, this.data), 'w'))
      .then(
        (file) => {
          this.file = file;
        },
        () => {
          this.failed = true;
        },
      );
  }

  /**
   * Writes at once, blocking (a file in the page cache takes microseconds): what is written is
   * garbage before V8's next scavenge. Through a write stream, each batch waited for the thread
   * pool, long enough to be promoted to the old generation, and a first run over 1,000,000
   * commits held 10 MB of such buffers (docs/mining.md "At history scale"). A cache problem
   * never stops mining: the run just is not cached.
   */
  private put(bytes: Buffer): void {
    if (this.failed || !this.file) return;
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.file.fd, bytes, at, bytes.length - at);
      this.bytes += bytes.length;
    } catch {
      this.failed = true;
    }
  }

  async add(batch: readonly MinedCommit[]): Promise<void> {
    await this.ready;
    if (this.failed || !this.file) return;
    for (const commit of batch) {
      for (const line of commit.lines) this.line(line);
      if (this.records !== undefined) this.records += commit.lines.length;
      const { warnings, rejected } = commit.notices();
      // Copies: a text cut from git's output keeps the whole read it came from alive.
      for (const w of warnings) this.notice({ kind: 'warning', commit: ownCopy(w.commit), text: ownCopy(w.message) });
      for (const r of rejected) this.notice({ kind: 'rejected', commit: ownCopy(r.commit), text: ownCopy(r.reason) });
    }
    this.commits += batch.length;
    this.flush();
  }

  /** Bytes encoded and not yet written: reused at once, the writes being blocking. */
  private pending = Buffer.allocUnsafe(1 << 16);
  private used = 0;

  /** One line and its newline into the pending bytes, which are written when full. */
  private line(text: string): void {
    // A UTF-16 unit is at most three bytes of UTF-8: count them only when it may not fit.
    const room = this.pending.length - this.used - 1;
    if (text.length * 3 > room && Buffer.byteLength(text) > room) {
      this.flush();
      if (Buffer.byteLength(text) + 1 > this.pending.length) {
        this.put(Buffer.from(`${text}\n`, 'utf8'));
        return;
      }
    }
    this.used += this.pending.write(text, this.used);
    this.pending[this.used++] = 10;
  }

  private flush(): void {
    if (!this.used) return;
    this.put(this.pending.subarray(0, this.used));
    this.used = 0;
  }

  /**
   * The lines of a cached run as they are (its data file's bytes, whole lines, in order): an
   * incremental run's older commits, copied; addNotices counts that run's commits, records and notices.
   */
  async addBytes(bytes: Buffer): Promise<void> {
    await this.ready;
    this.put(bytes);
  }

  /** The commits, records and notices of the cached run whose bytes addBytes copies (after this run's own). */
  addNotices(meta: CacheMeta): void {
    this.commits += meta.commits;
    this.records = this.records !== undefined && meta.records !== undefined ? this.records + meta.records : undefined;
    for (const n of meta.notices) this.notice(n);
    this.noticeCount += meta.noticeCount - meta.notices.length;
  }

  async commit(): Promise<void> {
    await this.ready;
    const file = this.file;
    if (!file) return;
    this.file = null;
    try {
      await file.close();
    } catch {
      this.failed = true;
    }
    if (this.failed) return this.abort();
    const meta: CacheMeta = {
      ...this.signature,
      data: this.data,
      commits: this.commits,
      records: this.records,
      bytes: this.bytes,
      notices: this.notices,
      noticeCount: this.noticeCount,
    };
    const metaFile = join(this.dir, `${this.key}.json`);
    try {
      await cleanStaleTemps(metaFile);
      // A derived cache: after a crash it is only mined again (no fsync).
      await writeFileAtomic(metaFile, JSON.stringify(meta), { durable: false });
    } catch {
      return this.abort();
    }
    if (this.previous && this.previous.data !== this.data)
      await unlink(join(this.dir, this.previous.data)).catch(() => {});
  }

  async abort(): Promise<void> {
    await this.ready;
    const file = this.file;
    this.file = null;
    this.failed = true;
    await file?.close().catch(() => {});
    await unlink(join(this.dir, this.data)).catch(() => {});
  }
}

// Revision arguments whose walk depends on nothing but the tips they resolve to.
const PLAIN_OPTION = /^--(all|branches|tags|remotes)(=.*)?$|^--(glob|exclude)=/;

/**
 * When the tips moved since the cached run, can the new output be the new commits followed by
 * the cached ones, exactly as a full `git log` would order them? git's walk pops the newest
 * commit (committer date) from a list seeded with the tips, so the answer is yes when:
 * - the arguments are plain revisions (no ranges, no negatives, no filters);
 * - everything the old tips reached is still reached (nothing was rewritten away);
 * - the old commits the new walk meets first (the boundary of the new commits plus the tips that
 *   did not move) are exactly the old tips, with distinct dates; and
 * - every new commit is strictly newer than all of those, so git shows every new commit first.
 * Returns the revisions (stdin lines for `git log --stdin`) that list only the new commits, or
 * null: then the run is mined in full (always correct, only slower).
 */
export async function planIncremental(cwd: string, old: Signature, now: Signature): Promise<string[] | null> {
  const revs = incrementalRevs(old, now);
  if (!revs) return null;
  const oldTips = [...new Set(old.tips)];
  const newTips = [...new Set(now.tips)];
  try {
    // Two questions side by side (each a git process): what the old tips reach that the new
    // ones do not, and the new commits with the boundary.
    const [lost, walk] = await Promise.all([
      run(commitCount([...oldTips, ...newTips.map((t) => `^${t}`)]), { cwd }),
      run(commitTimesWithBoundary([...newTips, ...oldTips.map((t) => `^${t}`)]), { cwd }),
    ]);
    if (lost.trim() !== '0') return null;
    const fresh = new Map<string, number>();
    const boundary = new Map<string, number>();
    for (const line of walk.split('\n')) {
      const m = /^(\d+) (-?)([0-9a-f]+)$/.exec(line);
      if (!m) continue;
      (m[2] ? boundary : fresh).set(m[3]!, Number(m[1]));
    }
    const retained = newTips.filter((t) => !fresh.has(t));
    const retainedDates: number[] = [];
    if (retained.length) {
      const out = await run(commitTimes(retained), { cwd });
      for (const line of out.split('\n')) if (line) retainedDates.push(Number(line.split(' ')[0]));
      if (retainedDates.length !== retained.length) return null;
    }
    const meets = new Set([...boundary.keys(), ...retained]);
    if (meets.size !== oldTips.length || !oldTips.every((t) => meets.has(t))) return null;
    const meetDates = [...boundary.values(), ...retainedDates];
    if (new Set(meetDates).size !== meetDates.length) return null;
    if (fresh.size) {
      let newest = -Infinity;
      for (const d of meetDates) newest = Math.max(newest, d);
      let oldestFresh = Infinity;
      for (const d of fresh.values()) oldestFresh = Math.min(oldestFresh, d);
      if (newest >= oldestFresh) return null;
      // New tips with equal dates could start the walk in another order.
      const tipDates = newTips.filter((t) => fresh.has(t)).map((t) => fresh.get(t)!);
      if (new Set(tipDates).size !== tipDates.length) return null;
    }
    return revs;
  } catch {
    return null;
  }
}

/**
 * What planIncremental answers when git's checks hold, from the signatures alone (null when they
 * already rule it out): the new commits' log can start before git has answered (lib/mine/index.ts).
 */
export function incrementalRevs(old: Signature, now: Signature): string[] | null {
  if (old.version !== now.version || old.shallow !== now.shallow || old.shape !== now.shape) return null;
  if (JSON.stringify(old.args) !== JSON.stringify(now.args)) return null;
  if (!now.args.every((a) => (a.startsWith('-') ? PLAIN_OPTION.test(a) : !a.includes('..') && !a.startsWith('^'))))
    return null;
  if (!old.tips.every((t) => SHA.test(t)) || !now.tips.every((t) => SHA.test(t))) return null;
  return [...new Set(now.tips), ...[...new Set(old.tips)].map((t) => `^${t}`)];
}
