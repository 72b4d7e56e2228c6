/**
 * Changes to who may answer (docs/gate.md "Changes to the reviewers"): between two commits, the
 * reviewers file's content and the config's `gate` settings. On the policy ref each change is a
 * finding that needs a listed reviewer's signed answer (lib/flows/push-policy.ts), and the audit
 * lists them (lib/stats/signed-audit.ts). A change's finding ID is made of what the change leaves
 * (the file's new blob, the new `gate` settings), so an answer approves that content, not a diff.
 */
import { createHash } from 'node:crypto';
import { gitOut } from '../core/git/run.js';

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
  const text = await gitOut(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], { cwd: top });
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
    const text = await gitOut(['cat-file', 'blob', blob], { cwd: top });
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

/**
 * Every change to who may answer in the history of `revs` (`--all` for every ref), newest first:
 * commits whose first parent's policy names a reviewers file and that change it or `gate`.
 */
export async function policyChangesIn(
  top: string,
  revs: readonly string[],
  reviewers: string,
): Promise<PolicyChangeCommit[]> {
  const text = await gitOut(
    [
      'log',
      `--max-count=${MAX_POLICY_COMMITS}`,
      '--format=%H%x1f%P%x1f%ae%x1f%cI',
      ...revs,
      '--',
      ...CONFIG_FILES,
      reviewers,
    ],
    { cwd: top },
  );
  const out: PolicyChangeCommit[] = [];
  for (const line of text.split('\n')) {
    const [commit, parents, author = '', date = ''] = line.split('\x1f');
    const parent = parents?.split(' ')[0];
    if (!commit || !parent) continue;
    const before = await gateAt(top, parent);
    if (!before.reviewers) continue;
    for (const change of await policyChangesBetween(top, parent, commit, before.reviewers))
      out.push({ ...change, commit, author, date });
  }
  return out;
}
