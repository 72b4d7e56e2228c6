/**
 * The knowledge candidate (docs/gate.md). A candidate is a draft for a human: what history shows,
 * never approved knowledge. That is enforced here, in types and at run time:
 * - `trust_level` is the literal "inferred": the constructor takes no trust level, and an
 *   input carrying one (or any unknown key) is refused;
 * - the status enum has one member, "generated": there is no approved state to be in;
 * - this module has no approve, promote or publish operation, and candidates are frozen;
 * - construction refuses empty evidence, an empty body and an unmet gate.
 * test/candidates/model.test.ts fails if any of this is loosened.
 */
import { RevtrailError } from '../core/errors.js';
import { SIGNALS, type SignalName } from '../gate/types.js';
import { candidatesMessages as m } from '../messages/candidates.js';

export const CANDIDATE_STATUSES = ['generated'] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];
export const TRUST_LEVEL = 'inferred';
export type TrustLevel = typeof TRUST_LEVEL;

export interface CandidateEvidence {
  finding: string;
  commit: string;
  file: string;
  line: string;
  fix_commit: string;
  rationale: string;
}

/** What the gate decided for the rule_source; every signal true, or there is no candidate. */
export interface CandidateGate {
  passed: true;
  min_recurrence: number;
  threads: number;
  files: string[];
  signals: Record<SignalName, true>;
}

export interface KnowledgeCandidate {
  readonly id: string;
  readonly rule_source: string;
  readonly title: string;
  readonly body: string;
  readonly category: string;
  readonly evidence: readonly Readonly<CandidateEvidence>[];
  readonly gate: Readonly<CandidateGate>;
  readonly trust_level: TrustLevel;
  readonly status: CandidateStatus;
  readonly generated_at: string;
}

/** What a caller may give. No trust level, no status: those are not the caller's to choose. */
export interface CandidateInput {
  rule_source: string;
  title: string;
  body: string;
  category: string;
  evidence: CandidateEvidence[];
  gate: { passed: boolean; min_recurrence: number; threads: number; files: string[]; signals: Record<SignalName, boolean> };
  generated_at: string;
  trust_level?: never;
  status?: never;
}

/**
 * The input's shape, checked by hand: exactly these keys at every level (an unknown key, a
 * trust level or a status included, is refused), each of its type. (zod did this before; it was
 * the one module candidates loaded for it, and its parse a tenth of a large run.)
 */
type Check = (value: unknown) => string | null;
const SHA_PATTERN = /^[0-9a-f]{40,64}$/;
const isText = (v: unknown): v is string => typeof v === 'string';
const text: Check = (v) => (isText(v) ? null : m.badType('a string', v));
const filled: Check = (v) => text(v) ?? ((v as string).length >= 1 ? null : m.badEmpty);
const sha: Check = (v) => text(v) ?? (SHA_PATTERN.test(v as string) ? null : m.badCommit);
const bool: Check = (v) => (typeof v === 'boolean' ? null : m.badType('true or false', v));
const whole: Check = (v) => (Number.isSafeInteger(v) ? null : m.badType('a whole number', v));
const positive: Check = (v) => whole(v) ?? ((v as number) > 0 ? null : m.badPositive);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem of `value` against `shape` (exactly its keys), as [path, why]. */
function problem(value: unknown, shape: Record<string, Check | ((v: unknown) => [string, string] | null)>, at: string): [string, string] | null {
  if (!isRecord(value)) return [at, m.badType('an object', value)];
  const unknown = Object.keys(value).filter((k) => !Object.prototype.hasOwnProperty.call(shape, k));
  if (unknown.length) return [at, m.badKeys(unknown)];
  for (const key of Object.keys(shape)) {
    const found = shape[key]!(value[key]);
    if (found === null) continue;
    const path = at ? `${at}.${key}` : key;
    return typeof found === 'string' ? [path, found] : [found[0] ? `${path}.${found[0]}` : path, found[1]];
  }
  return null;
}

const evidenceShape = { finding: filled, commit: sha, file: filled, line: filled, fix_commit: sha, rationale: text };
const signalShape = Object.fromEntries(SIGNALS.map((s) => [s, bool])) as Record<SignalName, Check>;
const gateShape = {
  passed: bool,
  min_recurrence: positive,
  threads: whole,
  files: (v: unknown): [string, string] | null => {
    if (!Array.isArray(v)) return ['', m.badType('a list', v)];
    const i = v.findIndex((f) => !isText(f));
    return i < 0 ? null : [String(i), m.badType('a string', v[i])];
  },
  signals: (v: unknown) => problem(v, signalShape, ''),
};
const inputShape = {
  rule_source: filled,
  title: filled,
  body: text,
  category: filled,
  evidence: (v: unknown): [string, string] | null => {
    if (!Array.isArray(v)) return ['', m.badType('a list', v)];
    for (let i = 0; i < v.length; i++) {
      const found = problem(v[i], evidenceShape, String(i));
      if (found) return found;
    }
    return null;
  },
  gate: (v: unknown) => problem(v, gateShape, ''),
  generated_at: filled,
};

export class CandidateRefused extends RevtrailError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
  }
}

/** `kc-` and a slug of the rule_source: lower case, runs of other characters as one `-`. */
export function slugOf(ruleSource: string): string {
  return ruleSource.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'rule';
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The only way to make a candidate. */
export function createCandidate(input: CandidateInput, slug?: string): KnowledgeCandidate {
  const found = problem(input, inputShape, '');
  if (found) throw new CandidateRefused(m.badInput(`${found[0] || 'input'}: ${found[1]}`));
  const data = input as CandidateInput;
  if (data.evidence.length === 0) throw new CandidateRefused(m.emptyEvidence);
  if (!data.body.trim()) throw new CandidateRefused(m.emptyBody);
  const unmetSignals = SIGNALS.filter((s) => data.gate.signals[s] !== true);
  if (!data.gate.passed || unmetSignals.length) throw new CandidateRefused(m.gateUnmet(unmetSignals.length ? unmetSignals : ['passed']));
  const signals = Object.fromEntries(SIGNALS.map((s) => [s, true])) as Record<SignalName, true>;
  return deepFreeze({
    id: `kc-${slug ?? slugOf(data.rule_source)}`,
    rule_source: data.rule_source,
    title: data.title,
    body: data.body,
    category: data.category,
    evidence: data.evidence.map((e) => ({ finding: e.finding, commit: e.commit, file: e.file, line: e.line, fix_commit: e.fix_commit, rationale: e.rationale })),
    gate: { passed: true as const, min_recurrence: data.gate.min_recurrence, threads: data.gate.threads, files: [...data.gate.files], signals },
    trust_level: TRUST_LEVEL,
    status: 'generated' as const,
    generated_at: data.generated_at,
  });
}
