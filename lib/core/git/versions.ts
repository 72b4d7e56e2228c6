/**
 * The one reader of file versions (docs/architecture.md "The one reader of file versions"): what
 * a path holds at a commit, in the index, in the work tree, or an object by its id (a server's
 * quarantined objects included: git hands the hook its object directories in the environment,
 * and the process inherits them). Every object question of a process goes to one `git cat-file
 * --batch-command` per repository, started on the first question and kept while questions come,
 * so a hook that reads blobs for several stages (the binary files read as text, the structural
 * pass, what a change introduces, the baseline, the push's tip files and metadata) starts one
 * git process for all of them instead of one each.
 *
 * Each answer is cut at the asker's cap as it arrives (a hostile blob of gigabytes is read past,
 * never held), and questions are answered in the order asked.
 */
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readRegularFile } from '../fs/read.js';
import { catFileSession } from './commands/objects.js';
import { spawnGit } from './run.js';

/** One object, or the start of it up to the cap the asker gave. */
export interface ObjectRead {
  /** Its object id (hex). */
  oid: string;
  /** git's object type: blob, tree, commit, tag. */
  type: string;
  /** The whole object's size in bytes. */
  size: number;
  /** Its content, or its first `cap` bytes. */
  bytes: Buffer;
  /** Longer than the cap: `bytes` is its start. */
  cut: boolean;
}

/** An entry of a tree object: `<mode> <name>\0<id>` as git stores it. */
export interface TreeObjectEntry {
  mode: string;
  name: string;
  oid: string;
}

/** The entries of a tree object's content; `oidBytes` is the repository's id length (20, or 32 for SHA-256). */
export function parseTreeObject(content: Buffer, oidBytes: number): TreeObjectEntry[] {
  const entries: TreeObjectEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space === -1 || nul === -1 || nul + 1 + oidBytes > content.length) break;
    entries.push({
      // git writes a tree's mode without its leading zero (40000); ls-tree shows it as 040000.
      mode: content.toString('latin1', at, space).padStart(6, '0'),
      name: content.toString('utf8', space + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 1 + oidBytes),
    });
    at = nul + 1 + oidBytes;
  }
  return entries;
}

/** Where a file's version is: a commit's tree, the index, or the work tree. */
export type VersionSide = { kind: 'commit'; commit: string } | { kind: 'index' } | { kind: 'worktree' };

/**
 * git's name of `path` on an object side (`:0:path`, `commit:path`), as cat-file takes it: the
 * index's with its stage written out, so a path that starts `1:` is not read as stage 1 of another.
 */
export function versionName(side: Exclude<VersionSide, { kind: 'worktree' }>, path: string): string {
  return side.kind === 'index' ? `:0:${path}` : `${side.commit}:${path}`;
}

interface Question {
  name: string;
  /** Bytes of the content kept; null: an `info` question (no content asked). */
  cap: number | null;
  give(answer: ObjectRead | null): void;
}

/** How long an idle process is kept before its stdin is closed (a later question starts another). */
const IDLE_MS = 2000;

/** One running `git cat-file --batch-command` and the questions it has not answered yet. */
class BatchProcess {
  private readonly child: ReturnType<typeof spawnGit>;
  private readonly waiting: Question[] = [];
  private pending: Buffer = Buffer.alloc(0);
  /** The answer being read: its header is known, its content is arriving. */
  private current: {
    question: Question;
    oid: string;
    type: string;
    size: number;
    left: number;
    parts: Buffer[];
    kept: number;
  } | null = null;
  /** The newline git writes after a content, still to be skipped. */
  private skipNewline = false;
  ended = false;
  /** Its stdin is closed (idle, or replaced): it takes no more questions. */
  closing = false;
  answered = false;
  /** It ended with questions waiting and had answered none: git refused (no repository here). */
  refused = false;
  /** The index file's state when this process first read it (git reads it once per process). */
  indexSeen: string | undefined;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(cwd: string) {
    // An input that never settles: stdin stays a pipe this process writes its questions into.
    this.child = spawnGit(catFileSession(), { cwd });
    this.child.stderr!.resume();
    this.child.stdout!.on('data', (b: Buffer) => this.read(b));
    const end = () => {
      if (!this.answered && this.waiting.length) this.refused = true;
      this.ended = true;
      if (this.idle) clearTimeout(this.idle);
      for (const q of this.waiting.splice(0)) q.give(null);
      if (this.current) this.current.question.give(null);
      this.current = null;
    };
    this.child.on('error', end);
    this.child.on('close', end);
    this.hold(false);
  }

  ask(question: Question): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.waiting.push(question);
    this.hold(true);
    this.child.stdin!.write(`${question.cap === null ? 'info' : 'contents'} ${question.name}\n`);
  }

  /** Keeps it for the next question, however long that takes (no idle close until then). */
  keep(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }

  close(): void {
    if (this.closing) return;
    this.closing = true;
    if (this.idle) clearTimeout(this.idle);
    if (!this.ended) this.child.stdin!.end();
  }

  /**
   * While a question waits, the process and its pipes keep Node running; idle, they do not, so a
   * hook ends when its work does (git then reads the end of its input and exits).
   */
  private hold(on: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<{
      ref?(): void;
      unref?(): void;
    } | null>)
      on ? handle?.ref?.() : handle?.unref?.();
  }

  private read(data: Buffer): void {
    let rest = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    this.pending = Buffer.alloc(0);
    while (rest.length) {
      if (this.skipNewline) {
        this.skipNewline = false;
        if (rest[0] === 0x0a) rest = rest.subarray(1);
        continue;
      }
      const current = this.current;
      if (current) {
        const take = Math.min(current.left, rest.length);
        const cap = current.question.cap ?? 0;
        if (current.kept < cap) {
          const room = Math.min(take, cap - current.kept);
          current.parts.push(Buffer.from(rest.subarray(0, room)));
          current.kept += room;
        }
        current.left -= take;
        rest = rest.subarray(take);
        if (current.left === 0) this.finish();
        continue;
      }
      const eol = rest.indexOf(0x0a);
      if (eol === -1) {
        this.pending = Buffer.from(rest);
        return;
      }
      const header = rest.subarray(0, eol).toString('utf8');
      rest = rest.subarray(eol + 1);
      const question = this.waiting.shift();
      if (!question) continue;
      this.answered = true;
      // `<oid> <type> <size>`; anything else (`<name> missing`, `ambiguous`) is no object.
      const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(header);
      if (!m) {
        question.give(null);
        this.settled();
        continue;
      }
      const size = Number(m[3]);
      const left = question.cap === null ? 0 : size;
      this.current = { question, oid: m[1]!, type: m[2]!, size, left, parts: [], kept: 0 };
      if (question.cap === null || size === 0) this.finish();
    }
  }

  private finish(): void {
    const c = this.current!;
    this.current = null;
    if (c.question.cap !== null) this.skipNewline = true;
    c.question.give({ oid: c.oid, type: c.type, size: c.size, bytes: Buffer.concat(c.parts), cut: c.size > c.kept });
    this.settled();
  }

  private settled(): void {
    if (this.waiting.length || this.current) return;
    this.hold(false);
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
  }
}

/** Every file version one process reads from the repository at `top`. */
export class FileVersions {
  private process: BatchProcess | null = null;
  /** A process that ended before answering anything: no repository here, every object is none. */
  private broken = false;
  private index: string | null | undefined;

  constructor(readonly top: string) {}

  /** An object by name (an oid, `rev:path`, `:path`), its content cut at `cap` bytes; null when git has none. */
  object(name: string, cap = Number.POSITIVE_INFINITY): Promise<ObjectRead | null> {
    return this.ask(name, cap);
  }

  /** An object's type and size, no content; null when git has none. */
  info(name: string): Promise<{ oid: string; type: string; size: number } | null> {
    return this.ask(name, null);
  }

  /** Several objects at once (each asked once), by name. */
  async objects(names: Iterable<string>, cap = Number.POSITIVE_INFINITY): Promise<Map<string, ObjectRead | null>> {
    const unique = [...new Set(names)];
    const answers = await Promise.all(unique.map((n) => this.object(n, cap)));
    return new Map(unique.map((n, i) => [n, answers[i]!]));
  }

  /**
   * `path` (repository-relative) on `side`, cut at `cap`. The work tree's through the one safe
   * reader (core/fs/read.ts: a regular file only, never a FIFO or device); a symbolic link is
   * none unless `followLinks` (to git a link's version is its target's name, not the file's bytes).
   */
  async file(side: VersionSide, path: string, cap: number, followLinks = false): Promise<ObjectRead | null> {
    if (side.kind !== 'worktree') return this.object(versionName(side, path), cap);
    return this.worktree(join(this.top, path), cap, followLinks);
  }

  /** A work tree file by its full path (see `file`). */
  async worktree(file: string, cap: number, followLinks = false): Promise<ObjectRead | null> {
    try {
      if (!followLinks && lstatSync(file).isSymbolicLink()) return null;
      const read = readRegularFile(file, { maxBytes: cap, truncate: true });
      return { oid: '', type: 'blob', size: read.size, bytes: read.bytes, cut: read.truncated };
    } catch {
      return null;
    }
  }

  /**
   * Starts the process now, ahead of questions that come later (an editor's next review: the
   * answer then comes without the wait for git to start), and keeps it until they do.
   */
  start(): void {
    if (this.broken) return;
    if (!this.process || this.process.ended || this.process.closing) this.process = new BatchProcess(this.top);
    else this.process.keep();
  }

  /** Ends the process (a later question starts another). */
  close(): void {
    this.process?.close();
    this.process = null;
  }

  private ask(name: string, cap: number | null): Promise<ObjectRead | null> {
    if (this.broken || /[\r\n]/.test(name) || name === '') return Promise.resolve(null);
    // git reads the index once per process: a question about it after the index changed goes to a new one.
    const index = name.startsWith(':') ? this.indexState() : undefined;
    if (index !== undefined && this.process?.indexSeen !== undefined && this.process.indexSeen !== index) this.close();
    if (!this.process || this.process.ended || this.process.closing) {
      const previous = this.process;
      if (previous?.refused) {
        this.broken = true;
        return Promise.resolve(null);
      }
      this.process = new BatchProcess(this.top);
    }
    const proc = this.process;
    if (index !== undefined) proc.indexSeen ??= index;
    return new Promise((give) => proc.ask({ name, cap, give }));
  }

  /** The index file's identity and times now ('' when there is none to look at). */
  private indexState(): string {
    if (this.index === undefined) this.index = indexFile(this.top);
    if (this.index === null) return '';
    try {
      const s = statSync(this.index);
      return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return 'none';
    }
  }
}

/** The index file git reads at `top`: GIT_INDEX_FILE (a hook's temporary index), else the git dir's. */
function indexFile(top: string): string | null {
  const env = process.env.GIT_INDEX_FILE;
  if (env) return isAbsolute(env) ? env : resolve(top, env);
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return join(dotGit, 'index');
    // A linked worktree: `.git` is a file naming its git dir.
    const dir = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return dir ? join(resolve(top, dir), 'index') : null;
  } catch {
    return existsSync(join(top, 'index')) ? join(top, 'index') : null;
  }
}

/**
 * The readers by repository top, kept on the global object: a hook's start bundle and the hook
 * bundle it hands over to (docs/hooks.md "Start-up") each hold their own copy of this module, and
 * the process is one for both.
 */
const readers: Map<string, FileVersions> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('revtrail.fileVersions')
] ??= new Map()) as Map<string, FileVersions>;

/** This process's one reader of file versions for the repository at `top`. */
export function fileVersions(top: string): FileVersions {
  let reader = readers.get(top);
  if (!reader) readers.set(top, (reader = new FileVersions(top)));
  return reader;
}
