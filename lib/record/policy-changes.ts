/**
 * Changes to who may answer (docs/gate.md "Changes to the reviewers"): between two commits, the
 * reviewers file's content and the config's `gate` settings. On the policy ref each change is a
 * finding that needs a listed reviewer's signed answer (lib/flows/push-policy.ts), and the audit
 * lists them (lib/stats/signed-audit.ts). A change's finding ID is made of what the change leaves
 * (the file's new blob, the new `gate` settings), so an answer approves that content, not a diff.
 */
import { createHash } from 'node:crypto';
import { policyLog, run, treeRecords } from '../core/git/commands.js';
import { fileVersions } from '../core/git/versions.js';

export const POLICY_RULE_PREFIX = 'builtin/policy:';

/** Whether a rule_source is a change to the reviewers or the gate settings (these always need a signed answer). */
export function isPolicyChange(ruleSource: string): boolean {
  return ruleSource.startsWith(POLICY_RULE_PREFIX);
}

export interface PolicyChange {
  kind: 'reviewers' | 'gate';
  rule_source: string;
  path: string;
  id: string;
}

/** The config files in the order the loader reads them (lib/config/load.ts). */
const CONFIG_FILES = ['revtrail.config.json', 'package.json'] as const;

function changeId(kind: string, path: string, content: string): string {
  return `rf-${createHash('sha256').update(`policy\0${kind}\0${path}\0${content}`).digest('hex').slice(0, 10)}`;
}

/** Keys sorted at every level: the same settings written in another order are no change. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** The blob ids of `paths` at `commit` (a path it lacks is absent). */
async function blobs(top: string, commit: string, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await run(treeRecords(commit, paths), { cwd: top });
  for (const entry of text.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

export interface GateAt {
  /** The config file that holds the settings (revtrail.config.json when there is none). */
  path: string;
  /** The `gate` settings as canonical JSON ('' with no config; the blob's id when it is no JSON). */
  gate: string;
  /** The reviewers file it names, if any. */
  reviewers: string | null;
}

/** The config's `gate` settings at `commit`, as the policy there has them. */
export async function gateAt(top: string, commit: string): Promise<GateAt> {
  const found = await blobs(top, commit, CONFIG_FILES);
  const path = CONFIG_FILES.find((p) => found.has(p));
  if (!path) return { path: CONFIG_FILES[0], gate: '', reviewers: null };
  const blob = found.get(path)!;
  try {
    const object = await fileVersions(top).object(blob);
    if (object?.type !== 'blob') throw new Error(`no blob ${blob}`);
    const text = object.bytes.toString('utf8');
    const json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Record<string, unknown>;
    const config = (path === 'package.json' ? json.revtrail : json) as { gate?: Record<string, unknown> } | undefined;
    const gate = config?.gate;
    const reviewers = (gate?.reviewers as { file?: unknown } | undefined)?.file;
    return {
      path,
      gate: JSON.stringify(canonical(gate ?? null)),
      reviewers: typeof reviewers === 'string' ? reviewers : null,
    };
  } catch {
    // A config that does not parse is a change of its own (the gate refuses it as a config error too).
    return { path, gate: `unparsed ${blob}`, reviewers: null };
  }
}

/**
 * What changes between `before` and `after` in who may answer: the reviewers file `reviewers`
 * (as the policy at `before` names it) and the config's `gate` settings.
 */
export async function policyChangesBetween(
  top: string,
  before: string,
  after: string,
  reviewers: string,
): Promise<PolicyChange[]> {
  const out: PolicyChange[] = [];
  const [a, b, gateBefore, gateAfter] = await Promise.all([
    blobs(top, before, [reviewers]),
    blobs(top, after, [reviewers]),
    gateAt(top, before),
    gateAt(top, after),
  ]);
  const was = a.get(reviewers) ?? null;
  const now = b.get(reviewers) ?? null;
  if (was !== now)
    out.push({
      kind: 'reviewers',
      rule_source: `${POLICY_RULE_PREFIX}reviewers`,
      path: reviewers,
      id: changeId('reviewers', reviewers, now ?? 'removed'),
    });
  if (gateBefore.gate !== gateAfter.gate)
    out.push({
      kind: 'gate',
      rule_source: `${POLICY_RULE_PREFIX}gate`,
      path: gateAfter.path,
      id: changeId('gate', gateAfter.path, gateAfter.gate),
    });
  return out;
}

export interface PolicyChangeCommit extends PolicyChange {
  commit: string;
  /** The commit's author e-mail, as written (git vouches for it only through a signature). */
  author: string;
  date: string;
}

/** The most commits touching the config or the reviewers file that the audit reads. */
const MAX_POLICY_COMMITS = 2000;

const ZERO_OID = /^0+$/;

/** The `gate` settings a config blob's text holds, as gateAt reads them (canonical JSON). */
function gateOfText(path: string, text: string, blob: string): { gate: string; reviewers: boolean } {
  try {
    const json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Record<string, unknown>;
    const config = (path === 'package.json' ? json.revtrail : json) as { gate?: Record<string, unknown> } | undefined;
    const gate = config?.gate;
    return { gate: JSON.stringify(canonical(gate ?? null)), reviewers: gate?.reviewers !== undefined };
  } catch {
    return { gate: `unparsed ${blob}`, reviewers: false };
  }
}

/**
 * Every change to who may answer in the history of `revs` (`--all` for every ref), newest first,
 * each against its first parent: a reviewers file `reviewers` that was there before and changes,
 * or a config whose `gate` settings named reviewers and change. Two git calls in all (one `log
 * --raw` for the blobs each commit changes, one `cat-file --batch` for the configs), however long
 * the history: package.json changes with every dependency bump.
 */
export async function policyChangesIn(
  top: string,
  revs: readonly string[],
  reviewers: string,
): Promise<PolicyChangeCommit[]> {
  const text = await run(policyLog(MAX_POLICY_COMMITS, revs, [...CONFIG_FILES, reviewers]), { cwd: top });
  type Raw = { path: string; old: string; now: string };
  const commits: Array<{ commit: string; author: string; date: string; changed: Raw[] }> = [];
  for (const chunk of text.split('\x1e')) {
    if (!chunk.trim()) continue;
    const fields = chunk.split('\0');
    const [commit, author = '', date = ''] = fields[0]!.replace(/\n+$/, '').split('\x1f');
    const changed: Raw[] = [];
    // After the header: ":<mode> <mode> <old> <new> <status>" then the path, NUL-separated.
    for (let i = 1; i + 1 < fields.length; i += 2) {
      const m = /^\n?:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) \w+$/.exec(fields[i]!);
      if (m) changed.push({ path: fields[i + 1]!, old: m[1]!, now: m[2]! });
    }
    if (commit) commits.push({ commit, author, date, changed });
  }
  const configBlobs = new Set<string>();
  for (const c of commits)
    for (const r of c.changed)
      if (r.path !== reviewers) for (const b of [r.old, r.now]) if (!ZERO_OID.test(b)) configBlobs.add(b);
  const read = await fileVersions(top).objects(configBlobs);
  const gates = new Map<string, { gate: string; reviewers: boolean }>();
  const gateOf = (path: string, blob: string) => {
    if (ZERO_OID.test(blob)) return { gate: JSON.stringify(null), reviewers: false };
    const key = `${path}\0${blob}`;
    let g = gates.get(key);
    if (!g) {
      const object = read.get(blob);
      gates.set(
        key,
        (g = object ? gateOfText(path, object.bytes.toString('utf8'), blob) : { gate: '', reviewers: false }),
      );
    }
    return g;
  };
  const out: PolicyChangeCommit[] = [];
  for (const { commit, author, date, changed } of commits) {
    for (const r of changed) {
      if (r.path === reviewers) {
        // A reviewers file that comes in is the first one (as the push gate takes it); one that changes or goes is listed.
        if (ZERO_OID.test(r.old)) continue;
        const now = ZERO_OID.test(r.now) ? 'removed' : r.now;
        out.push({
          kind: 'reviewers',
          rule_source: `${POLICY_RULE_PREFIX}reviewers`,
          path: reviewers,
          id: changeId('reviewers', reviewers, now),
          commit,
          author,
          date,
        });
        continue;
      }
      const before = gateOf(r.path, r.old);
      const after = gateOf(r.path, r.now);
      if (!before.reviewers || before.gate === after.gate) continue;
      out.push({
        kind: 'gate',
        rule_source: `${POLICY_RULE_PREFIX}gate`,
        path: r.path,
        id: changeId('gate', r.path, after.gate),
        commit,
        author,
        date,
      });
    }
  }
  return out;
}
