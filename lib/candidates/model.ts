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
import * as z from 'zod/mini';
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
  gate: {
    passed: boolean;
    min_recurrence: number;
    threads: number;
    files: string[];
    signals: Record<SignalName, boolean>;
  };
  generated_at: string;
  trust_level?: never;
  status?: never;
}

const evidenceSchema = z.strictObject({
  finding: z.string().check(z.minLength(1)),
  commit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  file: z.string().check(z.minLength(1)),
  line: z.string().check(z.minLength(1)),
  fix_commit: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  rationale: z.string(),
});

const inputSchema = z.strictObject({
  rule_source: z.string().check(z.minLength(1)),
  title: z.string().check(z.minLength(1)),
  body: z.string(),
  category: z.string().check(z.minLength(1)),
  evidence: z.array(evidenceSchema),
  gate: z.strictObject({
    passed: z.boolean(),
    min_recurrence: z.number().check(z.int(), z.positive()),
    threads: z.number().check(z.int()),
    files: z.array(z.string()),
    signals: z.record(z.enum(SIGNALS), z.boolean()),
  }),
  generated_at: z.string().check(z.minLength(1)),
});

export class CandidateRefused extends RevtrailError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
  }
}

/** `kc-` and a slug of the rule_source: lower case, runs of other characters as one `-`. */
export function slugOf(ruleSource: string): string {
  return (
    ruleSource
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'rule'
  );
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The only way to make a candidate. */
export function createCandidate(input: CandidateInput, slug: string = slugOf(input.rule_source)): KnowledgeCandidate {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? ` (${(issue as { keys: string[] }).keys.join(', ')})` : '';
    throw new CandidateRefused(m.badInput(`${issue.path.join('.') || 'input'}: ${issue.message}${keys}`));
  }
  const data = parsed.data;
  if (data.evidence.length === 0) throw new CandidateRefused(m.emptyEvidence);
  if (!data.body.trim()) throw new CandidateRefused(m.emptyBody);
  const unmetSignals = SIGNALS.filter((s) => data.gate.signals[s] !== true);
  if (!data.gate.passed || unmetSignals.length)
    throw new CandidateRefused(m.gateUnmet(unmetSignals.length ? unmetSignals : ['passed']));
  const signals = Object.fromEntries(SIGNALS.map((s) => [s, true])) as Record<SignalName, true>;
  return deepFreeze({
    id: `kc-${slug}`,
    rule_source: data.rule_source,
    title: data.title,
    body: data.body,
    category: data.category,
    evidence: data.evidence.map((e) => ({ ...e })),
    gate: {
      passed: true as const,
      min_recurrence: data.gate.min_recurrence,
      threads: data.gate.threads,
      files: [...data.gate.files],
      signals,
    },
    trust_level: TRUST_LEVEL,
    status: 'generated' as const,
    generated_at: data.generated_at,
  });
}
