/**
 * The review an open buffer gets (docs/editor.md "What is reviewed"): the one a commit would
 * run on the change against HEAD, through the review stage's own entries. One review session
 * per repository is kept while the server runs, so the configuration and the bundle are read
 * once; saving the configuration or a file of the bundle opens a new one.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { findRepo, type Repo } from '../core/git/repo.js';
import { contains, toPosix } from '../core/fs/path.js';
import { runReview } from '../review/index.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { isCredentialSource } from '../review/builtin.js';
import type { Finding, ReviewResult } from '../review/types.js';
import { readHistoryRows, type HistoryRow } from '../record/history.js';
import { cachedHistoryRows } from '../record/history-cache.js';
import { readAttributes } from '../diff/attributes.js';
import type { AttributeLoader } from '../review/engine/file-facts.js';
import { bufferDiff } from './buffer-diff.js';
import { fileVersions } from '../core/git/versions.js';
import { readQueueIfAny } from '../verdicts/queued.js';

/** An open repository: where it is, and the workspace its buffers are reviewed in. */
export interface OpenRepository {
  repo: Repo;
  session: Workspace;
}

export interface BufferReview {
  /** The repository-relative path reviewed. */
  path: string;
  workspace: OpenRepository;
  /** null: a commit would not review this file (ignored), so nothing is said of it. */
  result: ReviewResult | null;
  ms: number;
  /**
   * The review's own tidying, for the caller to run once the result is published: the scratch
   * folder removed, the next review's cat-file started and the history kept for the next start,
   * work the diagnostics need not wait for. Ends once what it writes is written.
   */
  after(): Promise<void>;
}

// The repository of each folder a buffer was in, asked of git once per folder while the server
// runs: every review of a buffer would otherwise start with a `git rev-parse`.
const repos = new Map<string, Promise<Repo | null>>();
/** The repositories git named so far (their tops are real paths, as the folders asked about are). */
const known: Repo[] = [];
/**
 * Per repository top, the commit HEAD named when git was first asked of it (null: an unborn
 * branch), for the start-up's history read (Workspaces.preload); taken once.
 */
const headsAsked = new Map<string, string | null>();
function repoOf(folder: string): Promise<Repo | null> {
  let found = repos.get(folder);
  if (!found) {
    // A folder above it being asked (the workspace's, at start-up) may answer for it too.
    const asking = [...repos].find(([f]) => f !== folder && contains(f, folder))?.[1];
    found = (asking ?? Promise.resolve(null)).then(() => knownAbove(folder) ?? askGit(folder));
    repos.set(folder, found);
  }
  return found;
}

function askGit(folder: string): Promise<Repo | null> {
  // HEAD from the same `git rev-parse`: the start-up's history read is keyed by it (record/history-cache.ts).
  return findRepo(folder, { commit: 'HEAD' }).then(
    ({ repo, commit }) => {
      known.push(repo);
      if (!headsAsked.has(repo.top)) headsAsked.set(repo.top, commit);
      return repo;
    },
    () => {
      // A folder outside any repository is asked again next time (a `git init` meanwhile).
      repos.delete(folder);
      return null;
    },
  );
}

/**
 * The known repository `folder` is in, without a `git rev-parse`, when git's own search would
 * end there: no folder between them has a `.git` (a nested repository or a submodule), none is on
 * another file system, and no environment variable changes the search. Else null: git is asked.
 */
function knownAbove(folder: string): Repo | null {
  const env = process.env;
  if (env.GIT_DIR || env.GIT_WORK_TREE || env.GIT_CEILING_DIRECTORIES || env.GIT_DISCOVERY_ACROSS_FILESYSTEM)
    return null;
  const repo = known.find((r) => contains(r.top, folder) && r.top !== folder);
  if (!repo) return null;
  try {
    const device = statSync(repo.top).dev;
    for (let d = folder; d !== repo.top; d = dirname(d)) {
      if (existsSync(join(d, '.git')) || statSync(d).dev !== device || dirname(d) === d) return null;
    }
  } catch {
    return null;
  }
  return { ...repo, cwd: folder };
}

/** Where a file's repository is and what the file is called in it; null outside any repository. */
async function locate(file: string): Promise<{ repo: Repo; path: string } | null> {
  // The folder may be a symbolic link to the work tree (git answers with the real path); the
  // file, and folders above it, may not exist yet (a new buffer): the nearest folder that does.
  let folder = dirname(file);
  const rest = [basename(file)];
  let real: string | null = null;
  for (;;) {
    // One syscall, at once: an awaited one would wait for a turn of the event loop, which a
    // first review's bundle load gives only now and then.
    try {
      real = realpathSync.native(folder);
    } catch {
      real = null;
    }
    if (real !== null || dirname(folder) === folder) break;
    rest.unshift(basename(folder));
    folder = dirname(folder);
  }
  if (real === null) return null;
  const repo = await repoOf(real);
  if (repo === null) return null;
  const path = toPosix(relative(repo.top, join(real, ...rest)));
  if (path === '' || path.startsWith(`..${sep}`) || path.startsWith('../')) return null;
  return { repo, path };
}

export interface WorkspacesOptions {
  /**
   * What a preload waits for before it loads a bundle: the start-up's answer to the editor's
   * initialize request, written first, so that the editor's first buffer reaches the server
   * while the bundle loads, not after it (docs/editor.md "Start-up").
   */
  bundlesAfter?: Promise<void>;
}

export class Workspaces {
  constructor(private readonly options: WorkspacesOptions = {}) {}

  private readonly open = new Map<string, Promise<OpenRepository>>();
  /** The workspaces whose bundle has loaded. */
  private readonly loaded = new WeakSet<Workspace>();
  /** Per workspace, the history its first review is to take, read from the preload on (preload). */
  private readonly history = new WeakMap<Workspace, { rows: Promise<HistoryRow[]>; keep(): Promise<void> }>();
  /**
   * The repository tops whose one reader of file versions (core/git/versions.ts) was started
   * ahead of the next review of one of its buffers and kept: the HEAD blob then comes without the
   * wait for git to start (docs/editor.md "Start-up").
   */
  private readonly ahead = new Set<string>();
  private closed = false;

  /** Starts (or keeps) the reader's cat-file for `top`'s next review. */
  private startAhead(top: string): void {
    if (this.closed) return;
    this.ahead.add(top);
    fileVersions(top).start();
  }

  /** Ends the cat-files started ahead (the server is shutting down). */
  close(): void {
    this.closed = true;
    for (const top of this.ahead) fileVersions(top).close();
    this.ahead.clear();
  }

  /** The workspace of the repository at `repo.top`, opened on first use. */
  private workspace(repo: Repo): Promise<OpenRepository> {
    let found = this.open.get(repo.top);
    if (!found) {
      found = openWorkspace(repo.top, { repo }).then((session) => ({ repo, session }));
      // A failure is not kept: the next review tries again.
      found.catch(() => this.open.delete(repo.top));
      this.open.set(repo.top, found);
    }
    return found;
  }

  /** The workspace `file` belongs to, or null outside a repository. */
  async of(file: string): Promise<{ workspace: OpenRepository; path: string } | null> {
    const located = await locate(file);
    if (located === null) return null;
    return { workspace: await this.workspace(located.repo), path: located.path };
  }

  /** Opens the workspace of the repository `folder` is in and loads its bundle; a failure is the first review's to say. */
  async preload(folder: string): Promise<void> {
    try {
      // The real path at once (one syscall): git is started before this returns, so it runs
      // while the caller goes on (the start-up loads the protocol library meanwhile).
      const repo = await repoOf(realpathSync.native(folder));
      if (repo === null) return;
      const { session } = await this.workspace(repo);
      await this.options.bundlesAfter;
      // After the initialize answer: starting a process is milliseconds of this thread, and the
      // answer is what the editor's first buffer waits for.
      this.startAhead(repo.top);
      // The history the first review checks its findings against: on a long history (vue core's
      // 6,000 commits) reading it is the longest of the review's git work, so it starts now, on
      // the other core, while the bundle loads and the editor sends its first buffer.
      // Read from the history cache when HEAD is the commit the last start read it at: then no
      // `git log` at all (record/history-cache.ts).
      const head = headsAsked.get(repo.top);
      headsAsked.delete(repo.top);
      if (!this.loaded.has(session) && !this.history.has(session)) {
        const history = head
          ? cachedHistoryRows(repo.top, repo.commonDir, head)
          : { rows: readHistoryRows(repo.top, 'HEAD'), keep: async () => {} };
        history.rows.catch(() => {}); // the review's own read says why
        this.history.set(session, history);
      }
      await session.bundle();
    } catch {
      // outside a repository, or a bundle the first review will name
    }
  }

  /** Every workspace opened so far. */
  async all(): Promise<OpenRepository[]> {
    const settled = await Promise.allSettled(this.open.values());
    return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  }

  /**
   * Forgets the workspace whose policy `file` is part of (its configuration, a file of its
   * bundle or its doc map), so the next review reads them again. True when one was forgotten.
   */
  async policyChanged(file: string): Promise<boolean> {
    let forgot = false;
    for (const workspace of await this.all()) {
      const { session } = workspace;
      const policy = [
        join(session.policyTop, 'revtrail.config.json'),
        join(session.policyTop, 'package.json'),
        ...(session.config.docMap ? [join(session.policyTop, session.config.docMap)] : []),
      ];
      if (policy.includes(file) || contains(session.knowledge, file)) {
        this.open.delete(workspace.repo.top);
        forgot = true;
      }
    }
    return forgot;
  }

  /** The review of `text`, the buffer of `file`; null outside a repository. */
  async review(file: string, text: string): Promise<BufferReview | null> {
    const started = performance.now();
    const found = await this.of(file);
    if (found === null) return null;
    const { workspace, path } = found;
    const { top } = workspace.repo;
    // A first review waits for the bundle to load: the history its findings are checked against
    // (answers, calibration) is read meanwhile, by a git process of its own (started by the
    // preload when there was one). Later reviews read it only when there are findings, as the CLI does.
    // So are the buffer's attributes from the work tree, as a review of local changes reads them.
    // Both start once git diffs the buffer: the diff is what the review waits for, and starting a
    // git process is a few milliseconds of this thread (docs/editor.md "Start-up").
    let history: Promise<HistoryRow[]> | undefined;
    let attributes: AttributeLoader | undefined;
    // Taken once, now (whileDiffing runs later): a later review reads the history of HEAD as it is then.
    const preloaded = this.history.get(workspace.session);
    this.history.delete(workspace.session);
    const whileDiffing = this.loaded.has(workspace.session)
      ? undefined
      : () => {
          // The attributes first: the rules need them before the findings need the history.
          const early = readAttributes(top, [path], { kind: 'worktree' });
          early.catch(() => {}); // the review's own read says why
          attributes = (paths) =>
            paths.length === 1 && paths[0] === path ? early : readAttributes(top, paths, { kind: 'worktree' });
          history = preloaded?.rows ?? readHistoryRows(top, 'HEAD');
          history.catch(() => {}); // likewise
        };
    const later: Array<() => void> = [];
    let handed = false;
    const after = async () => {
      for (const tidy of later.splice(0)) tidy();
      this.startAhead(top);
      // Rows read from git are kept for the next start once the diagnostics are out (never an error).
      await preloaded?.keep();
    };
    try {
      const diff = await bufferDiff(top, path, text, { whileDiffing, later: (tidy) => later.push(tidy) });
      handed = true;
      if (diff === null) return { path, workspace, result: null, ms: performance.now() - started, after };
      const bundle = workspace.session.bundle();
      void bundle.then(
        () => this.loaded.add(workspace.session),
        () => {},
      );
      const read = history;
      const result = await runReview(workspace.session, {
        history: read && (() => read),
        attributes,
        cwd: workspace.repo.top,
        source: { kind: 'text', text: diff.text, name: path, capped: diff.capped },
        // The editor runs no reviewer program, and asks the model only where the config names the
        // editor among its places, under the same trust as a hook (docs/editor.md "Trust").
        program: false,
        model: workspace.session.config.reviewer.model?.hooks.includes('editor') ?? false,
        buffer: { path, text },
        // As `revtrail review` and the commit-msg hook: a queued answer takes its finding out.
        queued: readQueueIfAny,
      });
      return { path, workspace, result, ms: performance.now() - started, after };
    } catch (error) {
      // No result to publish: tidied now.
      if (handed) void after();
      else for (const tidy of later.splice(0)) tidy();
      throw error;
    }
  }
}

/** Whether `finding` is a credential finding (its allow comments and answers follow the gate's policy). */
export function isCredential(finding: Pick<Finding, 'rule_source'>): boolean {
  return isCredentialSource(finding.rule_source);
}
