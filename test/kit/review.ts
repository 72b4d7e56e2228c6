/** Hand-built chunks, concepts and selections for the review stages' unit tests. */
import { programRun, type ReviewerSettings } from '../../lib/review/program/open.js';
import { compileRule, parseRuleDefinition } from '../../lib/bundle/rules.js';
import type { Concept, Rule } from '../../lib/bundle/types.js';
import type { Chunk, DiffFile, Hunk } from '../../lib/diff/types.js';
import type { ChunkSelection, SelectedDocument } from '../../lib/select/types.js';
import type { ReviewRule } from '../../lib/review/engine/rules.js';
import { RuleRunner } from '../../lib/review/engine/rules.js';
import type { FindingDraft } from '../../lib/review/findings/index.js';
import { reviewSelections, type PipelineOptions } from '../../lib/review/pipeline.js';
import type { PathAttributes } from '../../lib/diff/attributes.js';
import type { ReviewResult } from '../../lib/review/types.js';

/** A chunk whose added lines are `lines`, numbered from `start` (one hunk, an added file by default). */
export function chunkOf(
  path: string,
  lines: readonly string[],
  options: { start?: number; piece?: number; language?: string | null } = {},
): Chunk {
  const start = options.start ?? 1;
  const added = lines.map((text, i) => ({ line: start + i, text }));
  const hunk: Hunk = {
    oldStart: 0,
    oldLines: 0,
    newStart: start,
    newLines: lines.length,
    section: '',
    lines: added.map((a) => ({ kind: 'add' as const, text: a.text, oldLine: null, newLine: a.line })),
  };
  const file: DiffFile = {
    oldPath: null,
    newPath: path,
    status: 'added',
    binary: false,
    oldMode: null,
    newMode: '100644',
    hunks: [hunk],
  };
  const diff = [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +${start},${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
  return {
    path,
    oldPath: null,
    piece: options.piece ?? 1,
    language: options.language ?? null,
    namespace: null,
    file,
    hunks: [hunk],
    added,
    changedLines: new Set(added.map((a) => a.line)),
    diff,
  };
}

/** A bundle rule as the loader would compile it (defaults applied by the bundle's own parser). */
export function bundleRule(documentId: string, raw: Record<string, unknown>): Rule {
  const parsed = parseRuleDefinition({ severity: 'bug', title: 'Rule', ...raw });
  if (!parsed.ok) throw new Error(`bad test rule: ${JSON.stringify(parsed.issues)}`);
  return compileRule(parsed.definition, `${documentId}:${parsed.definition.id}`, documentId);
}

export function concept(id: string, rules: Array<Record<string, unknown>> = [], body = `Body of ${id}.`): Concept {
  return {
    id,
    file: `${id}.md`,
    type: 'Architecture Decision',
    title: `Title of ${id}`,
    description: null,
    body,
    paths: ['**'],
    domain: [],
    tags: [],
    rules: rules.map((r) => bundleRule(id, r)),
  };
}

/** Every concept matched; the first `budgeted` (default all) handed to a reviewer program. */
export function selectionOf(chunk: Chunk, concepts: readonly Concept[], budgeted = concepts.length): ChunkSelection {
  const matched: SelectedDocument[] = concepts.map((c) => ({
    concept: c,
    match: 'paths',
    matched: '**',
    tokens: Math.ceil(c.body.length / 4),
    truncated: false,
    text: c.body,
  }));
  return { chunk, matched, documents: matched.slice(0, budgeted) };
}

/**
 * Pipeline options with no reviewer, no verdicts, default confidence; `reviewer` asks that
 * program as the reviewers' table would (lib/review/program/open.ts programRun).
 */
export function pipelineOptions(
  overrides: Partial<PipelineOptions> & { reviewer?: ReviewerSettings } = {},
): PipelineOptions {
  const { reviewer, ...rest } = overrides;
  const options: PipelineOptions = {
    top: process.cwd(),
    builtin: [],
    minConfidence: 0.8,
    softTests: false,
    verdicts: async () => new Map(),
    ...rest,
  };
  return reviewer ? { ...options, reviewers: [programRun(reviewer, options.top, options.minConfidence)] } : options;
}

/** Runs rules on one chunk and closes the runner. */
export async function runOn(
  chunk: Chunk,
  rules: readonly ReviewRule[],
): Promise<{ drafts: FindingDraft[]; warnings: string[] }> {
  const runner = new RuleRunner();
  try {
    return await runner.run(chunk, rules);
  } finally {
    await runner.close();
  }
}

export function draft(overrides: Partial<FindingDraft> = {}): FindingDraft {
  return {
    path: 'src/a.ts',
    start_line: 1,
    line: 1,
    side: 'RIGHT',
    severity: 'nit',
    category: 'style',
    title: 'A finding',
    body: 'Body.',
    rule_source: 'test:rule',
    citations: [],
    suggestion_code: null,
    confidence: 1,
    ...overrides,
  };
}

/**
 * The whole rule phase on chunks, as a review runs it (file facts, attributes, drops), with no
 * reviewer program; `attributes` stands for what git check-attr would say (asked only when a rule has a finding).
 */
export async function reviewChunks(
  chunks: readonly Chunk[],
  rules: readonly ReviewRule[],
  attributes: Record<string, Partial<PathAttributes>> = {},
): Promise<ReviewResult & { asked: string[][] }> {
  const asked: string[][] = [];
  const result = await reviewSelections(
    chunks.map((c) => selectionOf(c, [])),
    pipelineOptions({
      builtin: rules,
      attributes: async (paths) => {
        asked.push([...paths]);
        const known = new Map<string, PathAttributes>();
        for (const [path, a] of Object.entries(attributes))
          known.set(path, { markerSize: null, binary: false, generated: false, vendored: false, ...a });
        return known;
      },
    }),
  );
  return { ...result, asked };
}

/** A new file holding `lines`, as the diff parser gives it: one hunk from line 1 (the corpora and the noise bench). */
export function addedFile(path: string, lines: readonly string[]): DiffFile {
  const hunk = {
    oldStart: 0,
    oldLines: 0,
    newStart: 1,
    newLines: lines.length,
    section: '',
    lines: lines.map((text, i) => ({ kind: 'add' as const, text, oldLine: null, newLine: i + 1 })),
  };
  return {
    oldPath: null,
    newPath: path,
    status: 'added',
    binary: false,
    oldMode: null,
    newMode: '100644',
    hunks: [hunk],
  };
}
