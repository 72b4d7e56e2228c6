/**
 * One finding per problem (docs/review.md): an architecture finding and a specific finding on
 * overlapping lines of the same file that cite a common document are one problem, when at most
 * one of them is a rule's. Two rules that flag one line are two findings, each with its own
 * title, severity and rule_source, so a verdict answers the rule it names.
 */
import { moreSevere } from '../../core/vocabulary.js';
import type { FindingDraft } from './contract.js';

function foldable(a: FindingDraft, b: FindingDraft, fromRule: (d: FindingDraft) => boolean): boolean {
  if (a.path !== b.path) return false;
  if (fromRule(a) && fromRule(b)) return false;
  if ((a.category === 'architecture') === (b.category === 'architecture')) return false;
  if (a.start_line > b.line || b.start_line > a.line) return false;
  return a.citations.some((c) => b.citations.includes(c));
}

/**
 * The folded finding: architecture, the more severe severity, the specific problem's title,
 * both bodies, the covering span and the union of citations. It keeps the architecture
 * finding's rule_source, so its id is the one the knowledge owns and stays stable whether or
 * not a reviewer program raised the specific finding this time.
 */
function fold(a: FindingDraft, b: FindingDraft): FindingDraft {
  const [general, specific] = a.category === 'architecture' ? [a, b] : [b, a];
  const bodies = [specific.body, general.body].filter((x, i, all) => x && all.indexOf(x) === i);
  return {
    ...general,
    severity: moreSevere(general.severity, specific.severity),
    title: specific.title,
    body: bodies.join('\n\n'),
    start_line: Math.min(a.start_line, b.start_line),
    line: Math.max(a.line, b.line),
    citations: [...new Set([...general.citations, ...specific.citations])],
    suggestion_code: specific.suggestion_code ?? general.suggestion_code,
    confidence: Math.max(a.confidence, b.confidence),
  };
}

/**
 * Folds until no pair is left; `merged` counts the folds. Order of the survivors is kept.
 * `fromRule`: whether a draft is a rule's (a bundle or built-in rule), not a reviewer's.
 */
export function foldFindings(
  drafts: readonly FindingDraft[],
  fromRule: (d: FindingDraft) => boolean = () => false,
): { findings: FindingDraft[]; merged: number } {
  const out = [...drafts];
  const rules = new Set(drafts.filter(fromRule));
  const isRule = (d: FindingDraft) => rules.has(d);
  let merged = 0;
  let changed = true;
  while (changed) {
    changed = false;
    outer: for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        if (foldable(out[i]!, out[j]!, isRule)) {
          const ruled = isRule(out[i]!) || isRule(out[j]!);
          out[i] = fold(out[i]!, out[j]!);
          // The fold keeps a rule's rule_source: it is a rule's finding still.
          if (ruled) rules.add(out[i]!);
          out.splice(j, 1);
          merged++;
          changed = true;
          break outer;
        }
      }
    }
  }
  return { findings: out, merged };
}
