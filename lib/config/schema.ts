/**
 * revtrail.config.json (docs/trust.md, "Configuration"). zod/mini keeps the hook path light; an unknown key is
 * an error (strict objects) so a typo never silently falls back to a default. Every number has
 * bounds: a value past them is an error, never a silent wrap (Node's timers take at most
 * 2^31-1 ms and turn anything larger into 1 ms).
 */
import * as z from 'zod/mini';

/** The longest delay a Node timer keeps (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const count = (max: number) => z.number().check(z.int(), z.positive(), z.lte(max));

/** Hooks a model reviewer may run in (docs/model.md): pre-push by default, commit-msg only when named. */
// Where the model may be asked: the two hooks, and the editor's server (docs/editor.md "Trust").
export const MODEL_HOOKS = ['commit-msg', 'pre-push', 'editor'] as const;

/** A local OpenAI-compatible chat completions server (docs/model.md). */
const model = z.strictObject({
  endpoint: z.string().check(z.minLength(1)),
  model: z.string().check(z.minLength(1)),
  timeoutMs: z._default(count(MAX_TIMER_MS), 60000),
  maxConcurrency: z._default(count(64), 1),
  hooks: z._default(z.array(z.enum(MODEL_HOOKS)), ['pre-push']),
});

const reviewer = z.strictObject({
  command: z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))),
  timeoutMs: z._default(count(MAX_TIMER_MS), 60000),
  required: z._default(z.boolean(), false),
  model: z.optional(model),
});

/** The answers that may open the gate for a credential finding (docs/gate.md "Answers by kind"). */
export const CREDENTIAL_ANSWERS = ['REJECT', 'DEFER', 'ACKNOWLEDGE'] as const;

const globs = z.array(z.string().check(z.minLength(1)));

export const configSchema = z.strictObject({
  /** The JSON Schema an editor validates this file with (revtrail.schema.json, docs/cli.md); ignored here. */
  $schema: z.optional(z.string()),
  knowledge: z._default(z.string().check(z.minLength(1)), '.okfw'),
  mainline: z.optional(z.string().check(z.minLength(1))),
  maxKnowledgeTokens: z._default(count(10_000_000), 2000),
  chunkLines: z._default(count(1_000_000), 400),
  minConfidence: z._default(z.number().check(z.gte(0), z.lte(1)), 0.8),
  builtinRules: z._default(z.union([z.boolean(), z.array(z.string())]), true),
  reviewer: z._default(reviewer, { timeoutMs: 60000, required: false }),
  softTests: z._default(z.boolean(), false),
  commitMsg: z._default(
    z.strictObject({
      record: z._default(z.boolean(), true),
      block: z._default(z.boolean(), false),
      // A credential never enters a commit by default, whatever `block` says (docs/gate.md).
      blockCredentials: z._default(z.boolean(), true),
    }),
    { record: true, block: false, blockCredentials: true },
  ),
  gate: z._default(
    z.strictObject({
      minRecurrence: z._default(count(1_000_000), 2),
      // several_authors: how many people the evidence of a candidate must come from (1: a team of one).
      minAuthors: z._default(count(1_000_000).check(z.gte(1)), 2),
      credentialAnswers: z._default(z.array(z.enum(CREDENTIAL_ANSWERS)).check(z.minLength(1)), ['REJECT']),
      // Whether an allow comment (revtrail-allow, gitleaks:allow) takes a credential finding out (docs/review.md).
      credentialAllow: z._default(z.boolean(), true),
      // Answers that need a second person's signature (docs/gate.md "Signed answers"): the
      // reviewers file (git's allowed_signers format, in the policy) and the kinds it covers.
      reviewers: z.optional(
        z.strictObject({
          file: z.string().check(z.minLength(1)),
          for: z._default(z.array(z.string().check(z.minLength(1))).check(z.minLength(1)), ['credentials']),
        }),
      ),
    }),
    { minRecurrence: 2, minAuthors: 2, credentialAnswers: ['REJECT'], credentialAllow: true },
  ),
  /** Per-rule path excludes: rule_source or rule id -> globs (docs/review.md "Allow comments and excludes"). */
  exclude: z._default(z.record(z.string().check(z.minLength(1)), globs), {}),
  /** Trailer rows folded in git's continuation form past this width; 0 never folds (docs/trailers.md). */
  trailers: z._default(
    z.strictObject({ foldAt: z._default(z.number().check(z.int(), z.gte(0), z.lte(100_000)), 100) }),
    {
      foldAt: 100,
    },
  ),
  privacy: z._default(z.strictObject({ redactAuthors: z._default(z.boolean(), false) }), { redactAuthors: false }),
  // Rules people mostly reject stop blocking (docs/gate.md "Calibration"). demoteAbove 1 never demotes.
  calibration: z._default(
    z.strictObject({
      enabled: z._default(z.boolean(), true),
      minVerdicts: z._default(count(1_000_000), 5),
      demoteAbove: z._default(z.number().check(z.gte(0), z.lte(1)), 0.3),
      // Rules (rule_source) whose `security` findings calibration may demote; none by default.
      security: z._default(z.array(z.string().check(z.minLength(1))), []),
      // Opt-in: a shared bundle's rules calibrated from the verdicts of other repositories too, read
      // from the `repo=*/rules.parquet` files of an org folder (docs/org.md "Pooled calibration").
      pooled: z.optional(
        z.strictObject({
          // The folder `revtrail org mine` writes: relative to the repository's top, or absolute; a path, never a URL.
          dir: z
            .string()
            .check(
              z.minLength(1),
              z.regex(/^(?![A-Za-z][A-Za-z0-9+.-]*:\/\/)/, { error: 'a folder on this machine, not a URL' }),
            ),
          // This repository's name in the folder (default: its folder's name, as org mine names it): its own partition is left out.
          repository: z.optional(z.string().check(z.minLength(1))),
        }),
      ),
    }),
    { enabled: true, minVerdicts: 5, demoteAbove: 0.3, security: [] },
  ),
  /** A doc map (docs/bundle.md "Doc map"): design documents without frontmatter, mapped to globs. Repo-relative. */
  docMap: z.optional(z.string().check(z.minLength(1))),
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
