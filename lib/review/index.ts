/**
 * `review()`: the one entry the CLI and the hooks share (SPEC §4). Gathers the inputs (repo,
 * config, diff, bundle, verdicts) and hands them to the pipeline. The bundle and the history
 * are read only when a diff has something to review: an empty commit costs one `git diff`.
 *
 * Lower level, for callers that review several diffs with one setup (pre-push: the combined
 * diff, then credential rules per commit): `openReview()` once, then `runReview()` per diff
 * with `ruleFilter` and `reviewer: false`.
 */
import { resolve } from 'node:path';
import { findRepo, type Repo } from '../core/git/repo.js';
import { NotARepositoryError } from '../core/git/errors.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { readDiffText } from '../diff/source.js';
import { parseDiff } from '../diff/parse.js';
import { toChunks } from '../diff/chunk.js';
import { loadBundle } from '../bundle/load.js';
import { bundleCacheFile } from '../bundle/cache.js';
import type { Bundle } from '../bundle/types.js';
import { selectDocuments } from '../select/index.js';
import { builtinRules, unknownBuiltinIds } from './builtin.js';
import { reviewSelections, type ReviewerSettings } from './pipeline.js';
import { loadVerdicts } from './suppress.js';
import type { DiffSource, ReviewOptions, ReviewResult } from './types.js';
import { reviewMessages as m } from '../messages/review.js';

export type { ReviewOptions, ReviewResult, Finding, DiffSource } from './types.js';
export { CREDENTIAL_RULE_SOURCES } from './builtin.js';

export interface ReviewSession {
  cwd: string;
  /** Work tree top level (the folder itself for a `--diff` file outside any repository). */
  top: string;
  /** Git common dir (verdict queue); null outside a repository. */
  commonDir: string | null;
  config: Config;
  /** Absolute path of the knowledge bundle. */
  knowledge: string;
  /** The bundle, loaded on first use and kept for the session. */
  bundle(): Promise<Bundle>;
}

/** Repo, config and (lazily) the bundle, for one or more reviews. */
export async function openReview(
  cwd: string,
  overrides: { knowledge?: string; allowOutsideRepo?: boolean; repo?: Repo; config?: Config } = {},
): Promise<ReviewSession> {
  let top: string;
  let commonDir: string | null;
  try {
    const repo = overrides.repo ?? (await findRepo(cwd));
    top = repo.top;
    commonDir = repo.commonDir;
  } catch (error) {
    if (!(error instanceof NotARepositoryError) || !overrides.allowOutsideRepo) throw error;
    top = resolve(cwd);
    commonDir = null;
  }
  const config = overrides.config ?? (await loadConfig(top)).config;
  // --knowledge is what the user typed (relative to where they are); config.knowledge is relative to the top level.
  const knowledge = overrides.knowledge !== undefined ? resolve(cwd, overrides.knowledge) : resolve(top, config.knowledge);
  let loaded: Promise<Bundle> | undefined;
  return {
    cwd,
    top,
    commonDir,
    config,
    knowledge,
    bundle: () => (loaded ??= loadBundle(knowledge, { base: cwd, cacheFile: commonDir === null ? undefined : bundleCacheFile(commonDir) })),
  };
}

/** The commit whose history holds the verdicts for a review of `source`. */
function defaultVerdictTip(source: DiffSource): string {
  if (source.kind !== 'range') return 'HEAD';
  const range = source.range.trim();
  const at = range.includes('...') ? range.indexOf('...') + 3 : range.includes('..') ? range.indexOf('..') + 2 : -1;
  return at === -1 ? 'HEAD' : range.slice(at) || 'HEAD';
}

function reviewerSettings(session: ReviewSession, options: ReviewOptions): ReviewerSettings | null {
  if (options.reviewer === false) return null;
  const argv = options.reviewer ?? session.config.reviewer.command;
  if (!argv || argv.length === 0) return null;
  return {
    argv,
    timeoutMs: session.config.reviewer.timeoutMs,
    required: session.config.reviewer.required,
    label: argv.map((a) => (/[\s"'\\]/.test(a) ? JSON.stringify(a) : a)).join(' '),
  };
}

function emptyResult(warnings: string[]): ReviewResult {
  return {
    version: 1,
    summary: m.summary(0, 0, [], 0, 0),
    event: 'APPROVE',
    findings: [],
    suppressed: [],
    knowledge_docs: [],
    merged_findings: 0,
    dropped: { low_confidence: 0, off_diff: 0, bad_citation: 0, invalid: 0 },
    warnings,
  };
}

/** One review with an open session (its bundle and config; `options.knowledge` was the session's to take). */
export async function runReview(session: ReviewSession, options: ReviewOptions): Promise<ReviewResult> {
  const { config } = session;
  const warnings: string[] = [];
  const text = await readDiffText(session.cwd, options.source);
  const files = parseDiff(text, options.source.kind === 'text' ? options.source.name : 'git diff');
  const chunks = toChunks(files, config.chunkLines);
  if (Array.isArray(config.builtinRules)) {
    const unknown = unknownBuiltinIds(config.builtinRules);
    if (unknown.length) warnings.push(m.unknownBuiltin(unknown));
  }
  if (chunks.length === 0) return emptyResult(warnings);

  const bundle = await session.bundle();
  for (const d of bundle.diagnostics) {
    warnings.push(`${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : ''}${d.level === 'error' ? 'knowledge error: ' : ''}${d.message}`);
  }
  const selections = selectDocuments(bundle, chunks, { maxKnowledgeTokens: config.maxKnowledgeTokens });
  const tip = options.verdictTip === undefined ? defaultVerdictTip(options.source) : options.verdictTip;
  return reviewSelections(
    selections,
    {
      top: session.top,
      builtin: builtinRules(config.builtinRules),
      reviewer: reviewerSettings(session, options),
      minConfidence: options.minConfidence ?? config.minConfidence,
      softTests: options.softTests ?? config.softTests,
      ruleFilter: options.ruleFilter,
      verdicts: async () => loadVerdicts(session.top, session.commonDir === null ? null : tip, options.queued && session.commonDir !== null ? await options.queued(session.commonDir) : [], options.history),
      onProgress: options.onProgress,
      ruleTime: { overran: (bundle.overran ??= new Set()), onOverrun: (key) => bundle.rememberOverrun?.(key) },
    },
    warnings,
  );
}

/** Reviews a diff (SPEC §4). Used by `revtrail review` and the hooks. */
export async function review(options: ReviewOptions): Promise<ReviewResult> {
  const session = await openReview(options.cwd, {
    knowledge: options.knowledge,
    allowOutsideRepo: options.source.kind === 'text',
    repo: options.repo,
    config: options.config,
  });
  return runReview(session, options);
}
