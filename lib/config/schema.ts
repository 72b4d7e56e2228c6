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

const reviewer = z.strictObject({
  command: z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))),
  timeoutMs: z._default(count(MAX_TIMER_MS), 60000),
  required: z._default(z.boolean(), false),
});

export const configSchema = z.strictObject({
  knowledge: z._default(z.string().check(z.minLength(1)), '.okfw'),
  mainline: z.optional(z.string().check(z.minLength(1))),
  maxKnowledgeTokens: z._default(count(10_000_000), 2000),
  chunkLines: z._default(count(1_000_000), 400),
  minConfidence: z._default(z.number().check(z.gte(0), z.lte(1)), 0.8),
  builtinRules: z._default(z.union([z.boolean(), z.array(z.string())]), true),
  reviewer: z._default(reviewer, { timeoutMs: 60000, required: false }),
  softTests: z._default(z.boolean(), false),
  commitMsg: z._default(
    z.strictObject({ record: z._default(z.boolean(), true), block: z._default(z.boolean(), false) }),
    { record: true, block: false },
  ),
  gate: z._default(z.strictObject({ minRecurrence: z._default(count(1_000_000), 2) }), {
    minRecurrence: 2,
  }),
  privacy: z._default(z.strictObject({ redactAuthors: z._default(z.boolean(), false) }), { redactAuthors: false }),
  // Rules people mostly reject stop blocking (docs/gate.md "Calibration"). demoteAbove 1 never demotes.
  calibration: z._default(
    z.strictObject({
      enabled: z._default(z.boolean(), true),
      minVerdicts: z._default(count(1_000_000), 5),
      demoteAbove: z._default(z.number().check(z.gte(0), z.lte(1)), 0.3),
    }),
    { enabled: true, minVerdicts: 5, demoteAbove: 0.3 },
  ),
  /** A doc map (docs/bundle.md "Doc map"): design documents without frontmatter, mapped to globs. Repo-relative. */
  docMap: z.optional(z.string().check(z.minLength(1))),
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
