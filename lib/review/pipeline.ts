/**
 * The review of selected chunks: rules (bundle + baseline), the reviewer program, the finding
 * contract, folding, ids, verdicts and the event. No git, no files: index.ts gathers the
 * inputs, so this stage can be driven directly (tests, pre-push rule subsets).
 */
import type { Chunk } from '../diff/types.js';
import type { ChunkSelection } from '../select/types.js';
import { assignIds, checkInScope, type ChunkScope, type FindingDraft } from './findings/contract.js';
import { foldFindings } from './findings/fold.js';
import { blocks, computeEvent } from './findings/event.js';
import type { ReviewerAnswer, ReviewerRun } from './reviewers.js';
import { runStructural, type StructuralIO, type StructuralItem } from './structural/index.js';
import type { StructuralRule } from '../bundle/structural.js';
import { VersionBook } from './introduced/versions.js';
import { notIntroduced } from './introduced/index.js';
import { applyAllowComments } from './findings/allow-comments.js';
import type { Rule } from '../bundle/types.js';
import { governing } from './introduced/governs.js';
import { ruleAppliesTo } from '../bundle/rule-paths.js';
import { RuleRunner, type ReviewRule, type RuleTimeOptions } from './engine/rules.js';
import { applyVerdicts, type VerdictEntry } from './findings/suppress.js';
import { SEVERITY_RANK } from '../core/vocabulary.js';
import { CREDENTIAL_RULE_SOURCES, isCredentialSource } from './builtin.js';
import type { FindingCalibration } from '../record/rule-tally.js';
import { noDrops, type Finding, type ReviewResult } from './types.js';
import { FileFactsBook, type AttributeLoader } from './engine/file-facts.js';
import { reviewMessages as m } from '../messages/review.js';

/** The most lines of a key block after its header that go into its finding's ID (an RSA-4096 PEM has 51). */
const KEY_BLOCK_LINES = 200;

export interface PipelineOptions {
  /** Repository top level: the reviewer program's cwd. */
  top: string;
  /** The built-in baseline (already filtered by config). */
  builtin: readonly ReviewRule[];
  /** The reviewers beyond the rules this review asks (./reviewers.ts openReviewers), in order; none when absent. */
  reviewers?: readonly ReviewerRun[];
  /** What the syntax-tree and import rules read (docs/structural.md); absent: they do not run (a diff file). */
  structural?: () => Promise<StructuralIO | undefined>;
  minConfidence: number;
  softTests: boolean;
  ruleFilter?: (ruleSource: string) => boolean;
  /**
   * Git's attributes of changed paths (one batch per review), read only when needed: a
   * reviewer program is configured, or a rule has a finding. Absent: no repository.
   */
  attributes?: AttributeLoader;
  /** Latest verdict per finding id; loaded only when there are findings. */
  verdicts: () => Promise<ReadonlyMap<string, VerdictEntry>>;
  /** The calibration of each demoted rule (by rule_source); loaded only when findings still count. */
  calibration?: () => Promise<ReadonlyMap<string, FindingCalibration>>;
  /** Rules (rule_source) whose `security` findings calibration may demote (config `calibration.security`). */
  calibrationSecurity?: readonly string[];
  /** The answers that take a credential finding out of the count (config `gate.credentialAnswers`); default REJECT. */
  credentialAnswers?: readonly string[];
  onProgress?: (done: number, total: number, path: string) => void;
  /** Awaited between chunks: lets other work of the caller go on during a long review. */
  pause?: () => Promise<void>;
  /** Rules known to overrun, and where to report new overruns (the bundle cache). */
  ruleTime?: RuleTimeOptions;
  /** `gate.credentialAllow`: whether an allow comment takes a credential finding out (default true). */
  credentialAllow?: boolean;
  /** Per-rule path excludes (config `exclude`), never applied to credential rules. */
  excluded?: (rule: ReviewRule, path: string) => boolean;
  /** The push gate's kinds whose answers and allow comments count only when signed (findings/signed.ts). */
  needsSignature?: (finding: Finding) => boolean;
}

// Words of approval in a reviewer's summary (docs/review.md): checked against blocking findings.
const APPROVING = /\b(?:approve[ds]?|approving|lgtm|looks good|no concerns|non-blocking)\b/i;

function where(chunk: Chunk): string {
  return `${chunk.path}${chunk.piece > 1 ? ` (piece ${chunk.piece})` : ''}`;
}

function scopeOf(selection: ChunkSelection): ChunkScope {
  return {
    path: selection.chunk.path,
    changedLines: selection.chunk.changedLines,
    allowedCitations: new Set(selection.matched.map((d) => d.concept.id)),
  };
}

/** The rules for one chunk: the baseline, then the rules of every matched document (not only the budgeted ones). */
function rulesFor(selection: ChunkSelection, options: PipelineOptions): ReviewRule[] {
  const rules: ReviewRule[] = [...options.builtin];
  const seen = new Set<string>();
  for (const doc of selection.matched) {
    if (seen.has(doc.concept.id)) continue;
    seen.add(doc.concept.id);
    rules.push(...doc.concept.rules);
  }
  const path = selection.chunk.path;
  const excluded = options.excluded;
  if (!options.ruleFilter && !excluded) return rules;
  return rules.filter(
    (r) =>
      (!options.ruleFilter || options.ruleFilter(r.ruleSource)) && !(excluded && !r.credential && excluded(r, path)),
  );
}

/** The `ast` and `imports` rules of a chunk's selected documents that govern its path. */
function structuralFor(selection: ChunkSelection, options: PipelineOptions): StructuralItem['rules'] {
  const out: Array<StructuralItem['rules'][number]> = [];
  const seen = new Set<string>();
  for (const doc of selection.matched) {
    if (!doc.concept.structural || seen.has(doc.concept.id)) continue;
    seen.add(doc.concept.id);
    for (const rule of doc.concept.structural) {
      // ruleAppliesTo and the config's excludes read only `paths`, `exclude` and `ruleSource`, which structural rules share with regex rules.
      const path = selection.chunk.path;
      if (!ruleAppliesTo(rule as unknown as Rule, path) || (options.ruleFilter && !options.ruleFilter(rule.ruleSource)))
        continue;
      if (options.excluded?.(rule as unknown as ReviewRule, path)) continue;
      out.push(rule);
    }
  }
  return out;
}

function dedupe(drafts: readonly FindingDraft[]): FindingDraft[] {
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const key = `${d.rule_source}\0${d.path}\0${d.start_line}\0${d.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function byLocation(a: Finding, b: Finding): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return (
    a.line - b.line ||
    a.start_line - b.start_line ||
    (a.rule_source < b.rule_source ? -1 : a.rule_source > b.rule_source ? 1 : 0)
  );
}

export async function reviewSelections(
  selections: readonly ChunkSelection[],
  options: PipelineOptions,
  warnings: string[] = [],
): Promise<ReviewResult> {
  const dropped = noDrops();
  const notes: string[] = [];
  const drafts: FindingDraft[] = [];
  const summaries: Array<{ selection: ChunkSelection; summary: string }> = [];
  const runner = new RuleRunner(options.ruleTime);
  const facts = new FileFactsBook(options.attributes);
  // Rule findings wait for the files' attributes (read once, after the last chunk, if any exist).
  // `of`: a syntax-tree or import rule's finding names its rule here (its equivalents).
  const pending: Array<{
    draft: FindingDraft;
    selection: ChunkSelection;
    rule: ReviewRule | undefined;
    of?: StructuralRule;
  }> = [];
  const binary = new Set<string>();
  const reviewers = options.reviewers ?? [];
  // What a reviewer answered, counted and kept like any finding (a program's and a model's alike).
  const take = (selection: ChunkSelection, asked: ReviewerAnswer) => {
    warnings.push(...asked.warnings);
    for (const d of asked.dropped) {
      dropped[d.reason]++;
      if (d.reason !== 'low_confidence') warnings.push(m.reviewerFindingDropped(where(selection.chunk), d.message));
    }
    drafts.push(
      ...(options.ruleFilter ? asked.drafts.filter((d) => options.ruleFilter!(d.rule_source)) : asked.drafts),
    );
    if (asked.summary) summaries.push({ selection, summary: asked.summary });
    if (asked.stopped) warnings.push(asked.stopped);
  };
  try {
    // A reviewer is not sent binary, generated or vendored files: their attributes come first.
    if (reviewers.length)
      await readAttributes(
        facts,
        selections.map((s) => s.chunk.path),
        warnings,
      );
    // A reviewer is asked about added lines of text files that are not credential-only.
    const asked = (s: ChunkSelection) => {
      const known = facts.of(s.chunk);
      return s.chunk.added.length > 0 && !known.binary && known.credentialsOnly === null;
    };
    if (reviewers.length) {
      const eligible = selections.filter(asked);
      for (const r of reviewers) r.start?.(eligible);
    }
    for (const [index, selection] of selections.entries()) {
      const { chunk } = selection;
      const known = facts.of(chunk);
      if (known.binary) {
        binary.add(chunk.path);
        options.onProgress?.(index + 1, selections.length, chunk.path);
        continue;
      }
      let rules = rulesFor(selection, options);
      if (known.credentialsOnly !== null) {
        if (rules.some((r) => !r.credential && !r.everyFile))
          facts.noteCredentialsOnly(chunk.path, known.credentialsOnly);
        rules = rules.filter((r) => r.credential || r.everyFile);
      }
      const ran = await runner.run(chunk, rules);
      warnings.push(...ran.warnings);
      for (const d of ran.dropped) {
        dropped[d.reason]++;
        // A credential-shaped value taken for a placeholder is said every time, not with
        // --verbose only: a real key that looked like one would otherwise pass without a word.
        (d.reason === 'placeholder' ? warnings : notes).push(m.ruleDropNote(d.path, d.line, d.ruleSource, d.why));
      }
      for (const draft of ran.drafts)
        pending.push({ draft, selection, rule: rules.find((r) => r.ruleSource === draft.rule_source) });
      if (reviewers.length && asked(selection)) {
        for (const r of reviewers) {
          const answer = r.answer(selection);
          if (answer) take(selection, await answer);
        }
      }
      options.onProgress?.(index + 1, selections.length, chunk.path);
      if (options.pause) await options.pause();
    }
    warnings.push(...runner.summary());
    // The file versions both comparisons read, opened once (docs/review.md "What a change introduces").
    let opened: Promise<StructuralIO | undefined> | undefined;
    let book: VersionBook | undefined;
    const versions = async () => {
      const io = await (opened ??= options.structural?.() ?? Promise.resolve(undefined));
      if (io && !book)
        book = new VersionBook(
          io,
          selections.map((s) => s.chunk.file),
        );
      return io && book ? { io, book } : undefined;
    };
    // Syntax-tree and import rules: the parser loads only when a selected document carries one.
    const structural = selections.flatMap((selection) => {
      const rules =
        facts.of(selection.chunk).binary || selection.chunk.added.length === 0 ? [] : structuralFor(selection, options);
      return rules.length ? [{ selection, rules }] : [];
    });
    const open = structural.length ? await versions() : undefined;
    if (open) {
      const ran = await runStructural(structural, open.io, open.book);
      warnings.push(...ran.warnings);
      for (const { draft, selection, rule } of ran.drafts)
        pending.push({ draft, selection, rule: undefined, of: rule });
    }
    // The bundle's pattern rules: a finding stands only for a violation the change introduces,
    // read as code unless the rule says otherwise (docs/review.md "Code, not prose").
    const flagged = pending.filter((p) => p.rule && !p.rule.trusted);
    const compare = flagged.length ? await versions() : undefined;
    if (compare) {
      const addedOf = new Map<string, Set<number>>();
      for (const { chunk } of selections) {
        let lines = addedOf.get(chunk.path);
        if (!lines) addedOf.set(chunk.path, (lines = new Set()));
        for (const a of chunk.added) lines.add(a.line);
      }
      const drop = await notIntroduced(
        flagged.map((p) => ({
          draft: p.draft,
          rule: p.rule!,
          file: p.selection.chunk.file,
          added: addedOf.get(p.selection.chunk.path)!,
          governs: governing(p.selection, p.rule!),
        })),
        compare.book,
      );
      if (drop.size) {
        dropped.existing += drop.size;
        for (let k = pending.length - 1; k >= 0; k--) if (drop.has(pending[k]!.draft)) pending.splice(k, 1);
      }
    }
    if (pending.length)
      await readAttributes(
        facts,
        pending.map((p) => p.selection.chunk.path),
        warnings,
      );
  } finally {
    await runner.close();
  }
  // The schema (and zod) load only when a rule found something: a clean commit never starts them.
  const { checkShape } = pending.length ? await import('./findings/schema.js') : { checkShape: null as never };
  const credentialLines = new Set(
    pending.filter((p) => p.rule?.credential).map((p) => `${p.draft.path}\0${p.draft.line}`),
  );
  for (const { draft, selection, rule } of pending) {
    const { chunk } = selection;
    if (rule?.secondary && credentialLines.has(`${draft.path}\0${draft.line}`)) continue;
    const known = facts.of(chunk);
    if (known.binary) {
      binary.add(chunk.path);
      continue;
    }
    if (known.credentialsOnly !== null && !rule?.credential && !rule?.everyFile) {
      facts.noteCredentialsOnly(chunk.path, known.credentialsOnly);
      continue;
    }
    if (rule?.standsWith && !rule.standsWith(chunk.added.find((a) => a.line === draft.line)?.text ?? '', known))
      continue;
    const checked = checkShape(draft);
    // minConfidence never reaches a credential rule (docs/trust.md "Credential rules").
    const inScope = checked.ok
      ? checkInScope(draft, scopeOf(selection), rule?.credential ? 0 : options.minConfidence)
      : checked;
    if (inScope.ok) drafts.push(draft);
    else {
      dropped[inScope.reason]++;
      if (inScope.reason !== 'low_confidence') warnings.push(m.badRuleFinding(draft.rule_source, inScope.message));
    }
  }
  for (const path of binary) notes.push(m.binaryNote(path));
  for (const [path, reason] of facts.credentialsOnly) notes.push(m.credentialsOnlyNote(path, reason));
  dropped.credentials_only = facts.credentialsOnly.size;

  const fromRules = new Set(pending.map((p) => p.draft));
  const folded = foldFindings(dedupe(drafts), (d) => fromRules.has(d));
  // The added lines of a file with a finding, by line: made only for those files.
  let piecesOf: Map<string, Chunk[]> | undefined;
  const lineTexts = new Map<string, Map<number, string>>();
  const textOf = (path: string, line: number) => {
    let lines = lineTexts.get(path);
    if (!lines) {
      if (!piecesOf) {
        piecesOf = new Map();
        for (const { chunk } of selections) {
          const list = piecesOf.get(chunk.path);
          if (list) list.push(chunk);
          else piecesOf.set(chunk.path, [chunk]);
        }
      }
      lineTexts.set(path, (lines = new Map()));
      for (const chunk of piecesOf.get(path) ?? []) for (const a of chunk.added) lines.set(a.line, a.text);
    }
    return lines.get(line) ?? '';
  };
  // A credential found on a key block's header line is told apart by the block it starts: every
  // private key's header is alike (docs/review.md "Finding IDs").
  const identityOf = (d: FindingDraft) => {
    const text = textOf(d.path, d.line);
    if (!isCredentialSource(d.rule_source) || !text.includes('-----BEGIN ')) return text;
    const block = [text];
    for (let n = d.line + 1; n <= d.line + KEY_BLOCK_LINES; n++) {
      const next = lineTexts.get(d.path)?.get(n);
      if (next === undefined) break;
      block.push(next.trim());
      if (next.includes('-----END ')) break;
    }
    return block.join('\n');
  };
  const identified = assignIds(folded.findings, identityOf).sort(byLocation);
  // Allow comments, after ids (the output names each allowed finding) and before verdicts.
  let findings = identified;
  let allowed: ReviewResult['allowed'] = [];
  if (identified.length) {
    const files = new Map(selections.map((s) => [s.chunk.path, s.chunk.file]));
    // What each rule names as its linters' equivalents (docs/review.md "Allow comments and excludes").
    const equivalents = new Map<string, readonly string[]>();
    for (const p of pending) {
      const rule = p.rule ?? p.of;
      if (rule?.equivalent.length) equivalents.set(rule.ruleSource, rule.equivalent);
    }
    const outcome = applyAllowComments(
      identified,
      (path) => files.get(path),
      isCredentialSource,
      options.credentialAllow ?? true,
      options.needsSignature,
      (source) => equivalents.get(source) ?? [],
    );
    findings = outcome.kept;
    allowed = outcome.allowed;
    dropped.allowed_inline = allowed.length;
    for (const { finding, allow } of outcome.refused)
      warnings.push(m.allowRefused(finding.path, allow.line, finding.rule_source));
    for (const { finding, allow } of outcome.needSignature)
      warnings.push(m.allowNeedsSignature(finding.path, allow.line, finding.rule_source));
    // An allowed credential is said in every review's output, the hooks' and CI's included (a warning).
    for (const f of allowed)
      if (isCredentialSource(f.rule_source))
        warnings.push(m.allowedCredential(f.path, f.line, f.rule_source, f.allowed.marker, f.id));
  }
  const verdicts = findings.length ? await options.verdicts() : new Map<string, VerdictEntry>();
  const answered = applyVerdicts(findings, verdicts, options.credentialAnswers, options.needsSignature);
  const { suppressed } = answered;
  let counted = answered.counted;
  // A demoted rule's findings stay, marked with the numbers, and count at most as COMMENT.
  // Credential rules are never demoted: a review with only those (pre-push, per commit) needs no numbers.
  const calibratable = counted.some((f) => !CREDENTIAL_RULE_SOURCES.has(f.rule_source));
  const demoted = calibratable && options.calibration ? await options.calibration() : null;
  // A `security` finding is demoted only when the config names its rule (docs/gate.md "Calibration").
  const mayDemote = (f: Finding) =>
    f.severity !== 'security' || (options.calibrationSecurity ?? []).includes(f.rule_source);
  if (demoted?.size)
    counted = counted.map((f) =>
      demoted.has(f.rule_source) && mayDemote(f) ? { ...f, calibration: demoted.get(f.rule_source)! } : f,
    );
  const calibrated = counted.filter((f) => f.calibration).length;
  const event = computeEvent(counted, options.softTests);

  for (const { selection, summary } of summaries) {
    if (!APPROVING.test(summary)) continue;
    const blocking = counted.filter(
      (f) =>
        f.path === selection.chunk.path && selection.chunk.changedLines.has(f.line) && blocks(f, options.softTests),
    );
    if (blocking.length)
      warnings.push(
        m.contradiction(
          where(selection.chunk),
          summary,
          blocking.map((f) => `${f.path}:${f.line} ${f.title}`),
        ),
      );
  }

  const bySeverity = SEVERITY_RANK.map(
    (s) => [s, counted.filter((f) => f.severity === s).length] as [string, number],
  ).filter(([, n]) => n > 0);
  const droppedTotal = Object.values(dropped).reduce((a, b) => a + b, 0);
  const summaryLines = [
    m.summary(
      counted.length,
      new Set(counted.map((f) => f.path)).size,
      bySeverity,
      suppressed.length,
      droppedTotal,
      calibrated,
    ),
  ];
  for (const { selection, summary } of summaries)
    summaryLines.push(m.reviewerSummary(where(selection.chunk), summary.trim()));

  return {
    version: 1,
    summary: summaryLines.join('\n'),
    event,
    findings: counted,
    suppressed,
    allowed,
    knowledge_docs: selections.map((s) => ({
      path: s.chunk.path,
      piece: s.chunk.piece,
      documents: s.documents.map((d) => d.concept.id),
    })),
    merged_findings: folded.merged,
    dropped,
    warnings,
    notes,
  };
}

/** Reads the attributes once; a failure is a warning (the review goes on as if none were set). */
async function readAttributes(facts: FileFactsBook, paths: readonly string[], warnings: string[]): Promise<void> {
  try {
    await facts.read(paths);
  } catch (error) {
    warnings.push(m.attributesUnreadable(error instanceof Error ? error.message : String(error)));
    facts.giveUp();
  }
}
