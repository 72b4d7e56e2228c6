/**
 * Candidates from the gate (docs/gate.md): one per rule_source whose qualifying threads pass the
 * gate, unless the rule_source belongs to a document of the knowledge bundle already.
 * Everything is derived from history, nothing from the clock, so the same history gives the
 * same candidates.
 */
import { createHash } from 'node:crypto';
import type { Bundle } from '../bundle/types.js';
import type { GateReport, RuleGate } from '../gate/types.js';
import { SIGNALS } from '../gate/types.js';
import { createCandidate, slugOf, type CandidateEvidence, type KnowledgeCandidate } from './model.js';
import { candidatesMessages as m } from '../messages/candidates.js';

export interface CandidateSet {
  candidates: KnowledgeCandidate[];
  /** Passed the gate, but the rule is knowledge already. */
  inBundle: Array<{ rule_source: string; document: string }>;
  /** Every rule of the history that belongs to a bundle document, gate passed or not (--explain). */
  owned: Array<{ rule_source: string; document: string }>;
}

/** What owns the built-in rules' rule_sources (docs/gate.md "Candidates"). */
export const BUILTIN_OWNER = "revtrail's built-in rules";

/**
 * What a rule_source is knowledge of already: a built-in rule, or one of a bundle document's
 * rules. A finding that only cites a document (`adr-0001:missing-timeout`, named by a reviewer
 * program or the model) is not: it is a rule the document implies and does not yet hold, which
 * is what a candidate proposes to add.
 */
export function bundleOwner(bundle: Bundle | null, ruleSource: string): string | null {
  if (ruleSource.startsWith('builtin/')) return BUILTIN_OWNER;
  if (!bundle) return null;
  for (const concept of bundle.concepts) {
    if (
      concept.rules.some((r) => r.ruleSource === ruleSource) ||
      concept.structural?.some((r) => r.ruleSource === ruleSource)
    )
      return concept.file || concept.id;
  }
  return null;
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]![0];
}

export function buildCandidates(report: GateReport, bundle: Bundle | null): CandidateSet {
  const result: CandidateSet = { candidates: [], inBundle: [], owned: [] };
  const slugs = new Set<string>();
  const mainline = report.mainline?.name ?? 'the mainline';
  for (const rule of report.rules) {
    const owner = bundleOwner(bundle, rule.rule_source);
    if (owner) result.owned.push({ rule_source: rule.rule_source, document: owner });
    if (!rule.passed) continue;
    if (owner) {
      result.inBundle.push({ rule_source: rule.rule_source, document: owner });
      continue;
    }
    let slug = slugOf(rule.rule_source);
    // Two rule sources can slug alike (a/b:c, a-b:c); the later one (sorted) gets a hash suffix.
    if (slugs.has(slug)) slug = `${slug}-${createHash('sha256').update(rule.rule_source).digest('hex').slice(0, 6)}`;
    slugs.add(slug);
    result.candidates.push(candidateOf(rule, slug, mainline, bundle));
  }
  return result;
}

function candidateOf(rule: RuleGate, slug: string, mainline: string, bundle: Bundle | null): KnowledgeCandidate {
  const evidence: CandidateEvidence[] = rule.qualifying.map((g) => ({
    finding: g.thread.id,
    commit: g.evidence!.commit,
    file: g.evidence!.file!,
    line: g.evidence!.line!,
    fix_commit: g.accept!.commit,
    rationale: g.accept!.rationale,
  }));
  // The newest date among the commits the evidence cites: history's time, not the clock's.
  let newest = '';
  let newestMs = -Infinity;
  for (const g of rule.qualifying) {
    for (const o of [g.evidence!, g.accept!]) {
      const ms = Date.parse(o.date);
      if (ms > newestMs) {
        newestMs = ms;
        newest = o.date;
      }
    }
  }
  const title = mostCommon(rule.qualifying.map((g) => g.thread.issue));
  const severity = mostCommon(rule.qualifying.map((g) => g.thread.occurrences.at(-1)!.severity));
  const category = mostCommon(rule.qualifying.map((g) => g.thread.category));
  const lines = [
    m.bodyIntro(rule.rule_source, rule.qualifying.length, rule.files.length, mainline),
    '',
    m.bodyEvidenceHeading,
    '',
    ...evidence.map((e) => m.bodyEvidence(e.file, e.line, e.finding, e.commit, e.fix_commit, e.rationale)),
    '',
    m.bodySuggestedHeading,
    '',
    m.bodySuggestedIntro(documentOf(rule.rule_source, bundle)),
    '',
    ...suggestedStanza(rule.rule_source, title, severity, category),
    '',
    m.bodyReviewHeading,
    '',
    m.bodyReview,
  ];
  return createCandidate(
    {
      rule_source: rule.rule_source,
      title,
      body: lines.join('\n'),
      category,
      evidence,
      gate: {
        passed: rule.passed,
        min_recurrence: rule.minRecurrence,
        threads: rule.qualifying.length,
        files: rule.files,
        signals: Object.fromEntries(SIGNALS.map((s) => [s, rule.qualifying.every((g) => g.met[s])])) as Record<
          (typeof SIGNALS)[number],
          boolean
        >,
      },
      generated_at: newest,
    },
    slug,
  );
}

/**
 * The document a rule_source names (`adr-0001` of `adr-0001:no-raw-sql`), or null for a
 * reviewer's own (`reviewer/…`) and a person's without a citation (`human:…`). A person's
 * citation `human/<doc>:…` writes the document's slashes as dots (lib/verdicts/human.ts).
 */
function documentOf(ruleSource: string, bundle: Bundle | null): string | null {
  const name = ruleSource.slice(0, ruleSource.lastIndexOf(':'));
  if (name === 'human') return null;
  if (name.startsWith('human/')) {
    const cited = name.slice('human/'.length);
    return bundle?.concepts.find((c) => c.id.replace(/\//g, '.') === cited)?.id ?? cited;
  }
  return name.startsWith('reviewer') ? null : name;
}

/** A `rules` entry a human may adopt into a concept: the finding's words, a pattern left to them. */
function suggestedStanza(ruleSource: string, title: string, severity: string, category: string): string[] {
  const id = ruleSource.slice(ruleSource.lastIndexOf(':') + 1);
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return [
    '```yaml',
    'rules:',
    `  - id: ${id}`,
    `    severity: ${severity}`,
    `    category: ${category}`,
    `    title: ${quote(title)}`,
    `    pattern: ${quote(m.suggestedPattern)}`,
    '```',
  ];
}

export function describe(candidate: KnowledgeCandidate, mainline: string): string {
  return m.description(candidate.rule_source, candidate.gate.threads, candidate.gate.files.length, mainline);
}
