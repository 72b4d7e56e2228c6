/**
 * The whole loaded bundle, kept for the next load (docs/bundle.md "Snapshot"). The concept
 * cache (./cache.ts) spares the parse of each file, but a load still walks every index, resolves
 * every link and looks each file up; on a 1,000-concept bundle that is most of the load. A
 * snapshot is the result of a load whose every file was known by its stat() signature
 * (bundle.sources) and which said nothing: while every one of those files still has its
 * signature, loading again would give the same concepts, so they are taken as they are.
 *
 * Derived and deletable, like the concept cache: kept for one build and one bundle folder (the
 * configured one: a policy copied out for the server gate gets none), and a missing, damaged or
 * stale snapshot only means the full load, which writes a new one.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { currentBuild } from '../core/build.js';
import { writeFileAtomicSync } from '../core/fs/atomic.js';
import { readRegularFile } from '../core/fs/read.js';
import {
  lazyRegex,
  rememberOverrun,
  signaturesHold,
  stillRemembered,
  storeConcept,
  type StoredConcept,
} from './cache.js';
import type { Bundle, Concept } from './types.js';

/** Bumped when the stored shape changes. */
const FORMAT = 2;

/** A line of concepts parses in about a millisecond and a half on a small machine. */
const CONCEPTS_PER_LINE = 200;

/** The most of a snapshot that is read: a larger (or non-regular) file is no snapshot. */
const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/**
 * The first line of the file: small, so the files are asked about before any concept is parsed.
 * The `lines` lines after it are the concepts without their bodies (StoredConcept[] each,
 * CONCEPTS_PER_LINE), and the rest of the file is their bodies as they are, one after another:
 * each concept's body is then a slice of the file's text (V8 keeps a slice of a long string as a
 * reference into it), not a string JSON.parse scans, unescapes and copies (docs/bundle.md "Snapshot").
 */
interface SnapshotHead {
  format: number;
  build: string;
  /** The bundle folder (absolute; its real path, as every source is under it). */
  root: string;
  sources: Array<[file: string, signature: string]>;
  /** Overruns remembered when it was written (./cache.ts rememberOverrun), with when. */
  overran: Record<string, number>;
  /** How many lines of concepts follow the head. */
  lines: number;
  /** The length of each concept's body (UTF-16 units), in the concepts' order. */
  bodies: number[];
}

/** Where the snapshot and the concept cache are (`cacheFile`: the concept cache's file). */
export interface SnapshotFiles {
  snapshotFile: string;
  cacheFile: string;
}

/**
 * The bundle at `root` as the last load left it, when every file it read still has its
 * signature; else null (and the caller loads it).
 */
export async function loadSnapshot(root: string, files: SnapshotFiles): Promise<Bundle | null> {
  let text: string;
  let head: SnapshotHead;
  let split: number;
  try {
    text = readRegularFile(files.snapshotFile, { maxBytes: MAX_SNAPSHOT_BYTES }).bytes.toString('utf8');
    split = text.indexOf('\n');
    head = JSON.parse(text.slice(0, split)) as SnapshotHead;
  } catch {
    return null; // none yet, or damaged: the full load writes one
  }
  if (head?.format !== FORMAT || head.build !== currentBuild() || head.root !== root || !Array.isArray(head.sources))
    return null;
  // Asked of each file at once, on this thread: the thread pool, asked for all of them while this
  // thread parsed, left the editor's own process (and git) less of the other core and was no
  // faster (docs/bundle.md "Snapshot").
  if (!signaturesHold(head.sources)) return null;
  if (!Number.isSafeInteger(head.lines) || !Array.isArray(head.bodies)) return null;
  const concepts: Concept[] = [];
  let from = split + 1;
  try {
    // Parsed here, for this load alone: restored in place, not copied. A line at a time, the
    // event loop turning between them, so an editor's first messages and a review's git
    // processes are not held up by the whole parse (docs/editor.md "Start-up").
    for (let line = 0; line < head.lines; line++) {
      const end = text.indexOf('\n', from);
      if (end === -1) return null;
      const json = text.slice(from, end);
      from = end + 1;
      await new Promise<void>((turned) => setImmediate(turned));
      const stored = JSON.parse(json) as Array<Omit<StoredConcept, 'body'>>;
      for (const concept of stored) for (const rule of concept.rules) lazyRegex(rule);
      // Each gets its body below, before the bundle is handed out.
      concepts.push(...(stored as Concept[]));
    }
  } catch {
    return null;
  }
  // The bodies, each where the head says; a file cut short or grown is no snapshot.
  const { bodies } = head;
  if (bodies.length !== concepts.length || bodies.reduce((at, n) => at + n, from) !== text.length) return null;
  for (const [i, concept] of concepts.entries()) {
    const length = bodies[i]!;
    if (!Number.isSafeInteger(length) || length < 0) return null;
    concept.body = text.slice(from, from + length);
    from += length;
  }
  return {
    root,
    concepts,
    diagnostics: [],
    sources: head.sources,
    overran: new Set(Object.keys(stillRemembered(head.overran))),
    rememberOverrun: (key) => {
      rememberOverrun(files.cacheFile, root, key);
      forgetSnapshot(files);
    },
  };
}

/**
 * The snapshot no longer holds every overrun: it goes, and the next load reads them from the
 * cache. Never an error, as the cache's own write: a .git that cannot be written only means the
 * next review waits for the rule once more.
 */
export function forgetSnapshot(files: SnapshotFiles): void {
  try {
    rmSync(files.snapshotFile, { force: true });
  } catch {
    // left as it is
  }
}

/**
 * Keeps `bundle`, just loaded in full, for the next load: only when its every file was known by
 * its signature and it said nothing (a warning is said again by each load). Never an error.
 */
export function keepSnapshot(bundle: Bundle, overran: Record<string, number>, files: SnapshotFiles): void {
  if (!bundle.sources || bundle.diagnostics.length) return;
  const lines: string[] = [];
  for (let i = 0; i < bundle.concepts.length; i += CONCEPTS_PER_LINE)
    lines.push(
      JSON.stringify(
        bundle.concepts.slice(i, i + CONCEPTS_PER_LINE).map(({ body: _body, ...concept }) => storeConcept(concept)),
      ),
    );
  const head: SnapshotHead = {
    format: FORMAT,
    build: currentBuild(),
    root: bundle.root,
    sources: bundle.sources.map(([file, signature]) => [file, signature]),
    overran,
    lines: lines.length,
    bodies: bundle.concepts.map((c) => c.body.length),
  };
  try {
    mkdirSync(dirname(files.snapshotFile), { recursive: true });
    // JSON has no raw newline: the head and each line of concepts end at theirs.
    writeFileAtomicSync(
      files.snapshotFile,
      `${[JSON.stringify(head), ...lines].join('\n')}\n${bundle.concepts.map((c) => c.body).join('')}`,
    );
  } catch {
    // a read-only .git or a full disk: the next load is a full one too
  }
}
