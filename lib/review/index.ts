/**
 * `review()`: the one entry the CLI and the hooks share (docs/review.md). Gathers the inputs (repo,
 * config, diff, bundle, verdicts) and hands them to the pipeline. The bundle and the history
 * are read only when a diff has something to review: an empty commit costs one `git diff`.
 *
 * Lower level, for callers that review several diffs with one setup (pre-push: the combined
 * diff, then credential rules per commit): `openWorkspace()` once, then `runReview()` per diff
 * with `ruleFilter` and `reviewer: false`.
 */
import { saveDerivedCache } from '../core/derived-cache.js';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { readDiff } from '../diff/source.js';
import type { CappedDiff } from '../diff/cap.js';
import { DEFAULT_CAPS } from '../diff/cap.js';
import { parseDiff } from '../diff/parse.js';
import { toChunks } from '../diff/chunk.js';
import type { Bundle } from '../bundle/types.js';
import type { Chunk } from '../diff/types.js';
import type { ChunkSelection } from '../select/types.js';
import { selectDocuments } from '../select/index.js';
import {
  builtinIds,
  builtinRules,
  credentialOverrides,
  unknownBuiltinIds,
  CREDENTIAL_RULE_SOURCES,
} from './builtin.js';
import { reviewSelections } from './pipeline.js';
import { openReviewers } from './reviewers.js';
import { excludeMatcher } from './engine/excludes.js';
import { loadVerdicts } from './findings/suppress.js';
import { signedKinds } from './findings/signed.js';
import { readAttributes, type AttributeSource } from '../diff/attributes.js';
import { readBinaryAsText } from '../diff/blob-text.js';
import { readPooled } from './findings/pooled.js';
import { calibrationOf } from './findings/calibrate.js';
import { bufferIO, structuralIO } from './structural/io.js';
import { readBaseline, withBaseline } from './findings/baseline.js';
import type { HistoryRow } from '../record/history.js';
import type { StructuralIO } from './structural/index.js';
import { noDrops, type ReviewOptions, type ReviewResult } from './types.js';
import type { DiffSource } from '../diff/types.js';
import { newSideOf } from '../diff/version.js';
import { reviewMessages as m } from '../messages/review.js';
import { answerSigners, reviewersFileAt } from '../record/answer-signers.js';

export type { ReviewOptions, ReviewResult, Finding, DiffSource } from './types.js';
export { CREDENTIAL_RULE_SOURCES } from './builtin.js';

/** The commit whose history holds the verdicts for a review of `source`. */
function defaultVerdictTip(source: DiffSource): string {
  if (source.kind !== 'range') return 'HEAD';
  const range = source.range.trim();
  const at = range.includes('...') ? range.indexOf('...') + 3 : range.includes('..') ? range.indexOf('..') + 2 : -1;
  return at === -1 ? 'HEAD' : range.slice(at) || 'HEAD';
}

/**
 * Whose .gitattributes describe the reviewed files: the work tree's for local changes and a
 * diff file, the index's for staged changes, the tip's for a range (docs/review.md).
 */
function attributeSource(source: DiffSource): AttributeSource {
  if (source.kind === 'staged') return { kind: 'index' };
  if (source.kind === 'range') return { kind: 'tree', treeish: defaultVerdictTip(source) };
  return { kind: 'worktree' };
}

function emptyResult(warnings: string[]): ReviewResult {
  return {
    version: 1,
    summary: m.summary(0, 0, [], 0, 0),
    event: 'APPROVE',
    findings: [],
    suppressed: [],
    allowed: [],
    knowledge_docs: [],
    merged_findings: 0,
    dropped: noDrops(),
    warnings,
  };
}

/**
 * The diff of `source` in chunks, with the documents each chunk selected (`knowledge select`
 * shows this). `documentsMatter` false for the loaded bundle: no document could change the
 * review, so none is selected.
 */
export async function selectChunks(
  session: Workspace,
  source: DiffSource,
  documentsMatter: (bundle: Bundle) => boolean = () => true,
  readBinary = false,
  started?: Promise<CappedDiff>,
): Promise<{ chunks: Chunk[]; selections: ChunkSelection[]; bundle: Bundle | null; capped: string[] }> {
  const diff = started ?? readDiff(session.cwd, source);
  // The bundle loads while git writes the diff: reading it is this thread's work, writing the
  // diff is git's, on the other core (docs/bundle.md "Fresh clone"). It starts once git is spawned;
  // for an empty diff it is not used, nor is an error it met.
  const loading = new Promise<Bundle>((resolve, reject) => setImmediate(() => session.bundle().then(resolve, reject)));
  loading.catch(() => {});
  const { text } = await diff;
  const capped = [...(await diff).capped];
  const files = parseDiff(text, source.kind === 'text' ? source.name : 'git diff');
  // Files git calls binary are read as text for the credential rules: only a git call when there are any.
  if (readBinary && session.commonDir !== null && files.some((f) => f.binary && f.newPath !== null)) {
    const side = newSideOf(source, null)?.kind === 'worktree' ? 'worktree' : 'objects';
    capped.push(...(await readBinaryAsText(session.top, files, side)));
  }
  const chunks = toChunks(files, session.config.chunkLines);
  if (chunks.length === 0) return { chunks, selections: [], bundle: null, capped };
  const bundle = await loading;
  if (!documentsMatter(bundle))
    return { chunks, selections: chunks.map((chunk) => ({ chunk, matched: [], documents: [] })), bundle, capped };
  const selections = selectDocuments(bundle, chunks, { maxKnowledgeTokens: session.config.maxKnowledgeTokens });
  // The globs' regexes selection made, kept for the next run (`knowledge select` ends here).
  await saveDerivedCache();
  return { chunks, selections, bundle, capped };
}

/**
 * Whether selected documents can change this review: they bring bundle rules and context for a
 * reviewer program. With no reviewer and a rule filter no bundle rule passes (pre-push's
 * per-commit credential review), they cannot.
 */
function documentsMatter(options: ReviewOptions): (bundle: Bundle) => boolean {
  const filter = options.ruleFilter;
  if (options.reviewer !== false || !filter) return () => true;
  return (bundle) =>
    bundle.concepts.some(
      (c) => c.rules.some((r) => filter(r.ruleSource)) || (c.structural ?? []).some((r) => filter(r.ruleSource)),
    );
}

/** The queued verdicts that suppress here; a queue that cannot be read suppresses nothing (a warning says why). */
async function queuedVerdicts(session: Workspace, options: ReviewOptions, warnings: string[]) {
  if (!options.queued || session.commonDir === null) return [];
  try {
    return await options.queued(session.commonDir);
  } catch (error) {
    warnings.push(m.queueUnreadable(error instanceof Error ? error.message : String(error)));
    return [];
  }
}

/**
 * What every review with this session warns about first: a config that could not be used, what
 * a config tried to take from the credential rules, a `builtinRules` entry that names nothing.
 */
function configWarnings(session: Workspace): string[] {
  const { config } = session;
  const out: string[] = session.configProblem ? [session.configProblem] : [];
  for (const o of credentialOverrides(config)) out.push(m.credentialRulesStay(o.key, o.what));
  if (Array.isArray(config.builtinRules)) {
    const unknown = unknownBuiltinIds(config.builtinRules);
    if (unknown.length) out.push(m.unknownBuiltin(unknown, builtinIds()));
  }
  return out;
}

/** The bundle's diagnostics, as every review that loads it warns them. */
function bundleWarnings(bundle: Bundle): string[] {
  return bundle.diagnostics.map(
    (d) =>
      `${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : ''}${d.level === 'error' ? 'knowledge error: ' : ''}${d.message}`,
  );
}

/**
 * One review with an open session (its bundle and config; `options.knowledge` was the session's to take).
 * `diff`: the diff of `options.source`, already asked of git from the session's folder.
 */
export async function runReview(
  session: Workspace,
  options: ReviewOptions,
  diff?: Promise<CappedDiff>,
): Promise<ReviewResult> {
  const { config } = session;
  const warnings = configWarnings(session);
  const filter = options.ruleFilter;
  const credentialsRun = !filter || [...CREDENTIAL_RULE_SOURCES].some((s) => filter(s));
  const { selections, bundle, capped } = await selectChunks(
    session,
    options.source,
    documentsMatter(options),
    credentialsRun,
    diff,
  );
  // A file over the per-file cap was reviewed up to it: said once per file (docs/review.md "Big files").
  for (const path of capped) warnings.push(m.fileCapped(path, DEFAULT_CAPS));
  if (bundle === null) return emptyResult(warnings);
  warnings.push(...bundleWarnings(bundle));
  const tip = options.verdictTip === undefined ? defaultVerdictTip(options.source) : options.verdictTip;
  // One read of the tip's history serves suppression and calibration, and only when there are findings.
  let rows: Promise<HistoryRow[]> | undefined;
  const history = () =>
    (rows ??= options.history
      ? options.history()
      : import('../record/history.js').then((h) => h.readHistoryRows(session.top, tip!)));
  const minConfidence = options.minConfidence ?? config.minConfidence;
  const calibrate =
    tip !== null && session.commonDir !== null && options.calibration !== false && config.calibration.enabled;
  // The review's file versions, opened once: the rules' pass and the baseline's suppression read
  // the same files, each asked of git once (core/git/versions.ts).
  let opened: Promise<StructuralIO> | undefined;
  const reviewFiles = () => (opened ??= openFiles(session, options));
  const result = await reviewSelections(
    selections,
    {
      top: session.top,
      builtin: builtinRules(config.builtinRules),
      reviewers: await openReviewers({ session, options, minConfidence, warnings }),
      // What syntax-tree and import rules read, loaded only when a selected document carries one.
      structural: async () => {
        if (options.fileVersions) return options.fileVersions;
        const files = await reviewFiles();
        return files && options.ruleTime?.budgetMs !== undefined
          ? { ...files, budgetMs: options.ruleTime.budgetMs }
          : files;
      },
      minConfidence,
      softTests: options.softTests ?? config.softTests,
      ruleFilter: options.ruleFilter,
      // Loaded on first use: a review without findings runs no git check-attr.
      attributes:
        session.commonDir === null
          ? undefined
          : (options.attributes ??
            (async (paths) =>
              readAttributes(
                session.top,
                paths,
                // A copied policy brings its attributes: the pushed tree's own cannot hide a file.
                session.policyCommit
                  ? { kind: 'tree', treeish: session.policyCommit }
                  : attributeSource(options.source),
              ))),
      verdicts: async () =>
        loadVerdicts(
          session.top,
          session.commonDir === null ? null : tip,
          await queuedVerdicts(session, options, warnings),
          history,
        ),
      calibration: calibrate
        ? async () => {
            const { pooled } = config.calibration;
            // Other repositories' answers (docs/org.md "Pooled calibration"): opt-in, and never an error.
            const others = pooled ? await readPooled(session.top, pooled, warnings) : undefined;
            // Demotion needs REJECTs from gate.minAuthors people (docs/gate.md "Calibration"); where
            // the policy names reviewers, people are the answers' verified signers, not their authors.
            const answered = await history();
            const reviewers = config.gate.reviewers;
            const signers = reviewers
              ? await answerSigners(
                  session.top,
                  // Only a REJECT's person counts toward a demotion: the other answers' signatures are not read here.
                  answered.filter((r) => r.row.verdict === 'REJECT').map((r) => r.commit),
                  reviewersFileAt(session.policyTop, reviewers.file),
                )
              : undefined;
            return calibrationOf(
              answered,
              { ...config.calibration, minAuthors: config.gate.minAuthors, ...(signers ? { signers } : {}) },
              others,
            );
          }
        : undefined,
      calibrationSecurity: config.calibration.security,
      credentialAnswers: config.gate.credentialAnswers,
      onProgress: options.onProgress,
      pause: options.pause,
      ruleTime: {
        overran: (bundle.overran ??= new Set()),
        onOverrun: (key) => bundle.rememberOverrun?.(key),
        ...options.ruleTime,
      },
      credentialAllow: config.gate.credentialAllow,
      excluded: excludeMatcher(config.exclude),
      needsSignature:
        options.signedAnswers && config.gate.reviewers
          ? signedKinds(config.gate.reviewers.for, (s) => CREDENTIAL_RULE_SOURCES.has(s))
          : undefined,
    },
    warnings,
  );
  await saveDerivedCache();
  if (options.baseline === false || !result.findings.length) return result;
  return baselined(session, options, selections, result, reviewFiles);
}

/** What the structural pass and the baseline read: the buffer's files, or the source's new side. */
async function openFiles(session: Workspace, options: ReviewOptions): Promise<StructuralIO> {
  if (options.buffer) return bufferIO(session.top, options.buffer);
  return structuralIO(
    session.top,
    options.source,
    options.source.kind === 'range' ? defaultVerdictTip(options.source) : null,
  );
}

/**
 * The adoption baseline's findings taken out of the count (findings/baseline.ts): read from the
 * policy's folder, only once a review has findings; a file that cannot be read takes none out.
 */
async function baselined(
  session: Workspace,
  options: ReviewOptions,
  selections: readonly ChunkSelection[],
  result: ReviewResult,
  reviewFiles: () => Promise<StructuralIO>,
): Promise<ReviewResult> {
  let file: Awaited<ReturnType<typeof readBaseline>>;
  try {
    file = await readBaseline(session.policyTop);
  } catch (error) {
    result.warnings.push(m.baselineUnreadable(error instanceof Error ? error.message : String(error)));
    return result;
  }
  if (!file?.entries.length) return result;
  const added = new Map<string, Map<number, string>>();
  for (const { chunk } of selections) {
    const lines = added.get(chunk.path) ?? new Map<number, string>();
    for (const a of chunk.added) lines.set(a.line, a.text);
    added.set(chunk.path, lines);
  }
  const files = await reviewFiles();
  // The new versions of the files the baseline may speak for, asked of git in one process.
  const recorded = new Set(file.entries.map((e) => e.path));
  files?.prefetch?.([...new Set(result.findings.map((f) => f.path).filter((p) => recorded.has(p)))]);
  return withBaseline(
    result,
    file.entries,
    (path, line) => added.get(path)?.get(line) ?? '',
    async (path) => {
      const version = await files?.fileText(path);
      return typeof version === 'string' ? version : null;
    },
    options.softTests ?? session.config.softTests,
  );
}

/** Reviews a diff (docs/review.md). Used by `revtrail review` and the hooks. */
export async function review(options: ReviewOptions): Promise<ReviewResult> {
  // git writes the diff on the other core while the repository is found and the configuration
  // read (docs/review.md "Time of a large review"); should the session fail, its error is the one
  // said, as before, and the diff's is dropped.
  const diff = options.source.kind === 'text' ? undefined : readDiff(options.cwd, options.source);
  diff?.catch(() => {});
  const session = await openWorkspace(options.cwd, {
    knowledge: options.knowledge,
    needRepo: options.source.kind !== 'text',
    repo: options.repo,
    config: options.config,
    policyTop: options.policyTop,
    policyCommit: options.policyCommit,
  });
  return runReview(session, options, diff);
}
