/**
 * Verdicts suppress (docs/gate.md "Answers by kind"): a finding whose id has a REJECT, DEFER or
 * ACKNOWLEDGE verdict in the history of the reviewed tip, or queued by `revtrail verdict`, stays
 * in the output under `suppressed` and does not count. ACCEPT means "fixed": a finding still
 * there counts. A credential finding is taken out of the count only by the answers the config
 * allows for credentials (`gate.credentialAnswers`, REJECT alone by default).
 */
import type { HistoryRow } from '../../record/history.js';
import { SUPPRESSING_VERDICTS, type Verdict } from '../../core/vocabulary.js';
import { CREDENTIAL_RULE_SOURCES } from '../builtin.js';
import type { Finding, QueuedVerdictLike, SuppressedFinding } from '../types.js';

export interface VerdictEntry {
  verdict: string;
  rationale: string;
  /** The commit whose message carries the row (none: queued). */
  commit?: string;
  /**
   * Every commit carrying this same verdict for the finding, newest first, back to an older
   * different verdict: a signed answer may need two reviewers' commits (docs/gate.md "Signed answers").
   */
  commits?: string[];
}

/** The answers that open the gate for a credential when the config says nothing. */
export const DEFAULT_CREDENTIAL_ANSWERS: readonly Verdict[] = ['REJECT'];

/** Whether a finding's rule is one of the built-in credential rules (private keys, cloud keys, tokens). */
export function isCredentialFinding(f: Pick<Finding, 'rule_source'>): boolean {
  return CREDENTIAL_RULE_SOURCES.has(f.rule_source);
}

/** The verdicts that take a finding of this kind out of the count. */
export function openingAnswers(
  f: Pick<Finding, 'rule_source'>,
  credentialAnswers: readonly string[] = DEFAULT_CREDENTIAL_ANSWERS,
): readonly string[] {
  return isCredentialFinding(f)
    ? SUPPRESSING_VERDICTS.filter((v) => credentialAnswers.includes(v))
    : SUPPRESSING_VERDICTS;
}

/**
 * The latest human verdict per finding id: history of `tip` (newest first), then the queue on
 * top (a queued verdict is newer than any commit). `tip` null: no history (an unborn branch).
 */
export async function loadVerdicts(
  top: string,
  tip: string | null,
  queued: readonly QueuedVerdictLike[],
  history?: () => Promise<HistoryRow[]>,
): Promise<Map<string, VerdictEntry>> {
  const verdicts = new Map<string, VerdictEntry>();
  if (tip !== null) {
    // The trailer reader (and its CSV parser) is loaded only when there are findings to look up.
    const { latestVerdicts, readHistoryRows } = await import('../../record/history.js');
    const rows = await (history ? history() : readHistoryRows(top, tip));
    const latest = latestVerdicts(rows);
    const commitsOf = new Map<string, string[]>();
    const ended = new Set<string>();
    for (const { commit, row } of rows) {
      if (row.verdict === 'OPEN' || ended.has(row.id)) continue;
      if (row.verdict !== latest.get(row.id)?.verdict) ended.add(row.id);
      else {
        const list = commitsOf.get(row.id) ?? [];
        if (!list.includes(commit)) list.push(commit);
        commitsOf.set(row.id, list);
      }
    }
    for (const [id, row] of latest) {
      const commits = commitsOf.get(id) ?? [];
      verdicts.set(id, { verdict: row.verdict, rationale: row.rationale, commit: commits[0], commits });
    }
  }
  for (const q of queued) if (q.verdict !== 'OPEN') verdicts.set(q.id, { verdict: q.verdict, rationale: q.rationale });
  return verdicts;
}

/**
 * Splits findings into counted and suppressed. A counted finding that has a human verdict all
 * the same (ACCEPT, or an answer not fit for its kind) carries it as `answer`, so the gate can
 * say why it still blocks. `needsSignature`: the push gate's kinds whose opening answer counts
 * only when signed (./signed.ts); such a finding stays counted with the answer marked, and the
 * gate checks the signature of its commit.
 */
export function applyVerdicts(
  findings: readonly Finding[],
  verdicts: ReadonlyMap<string, VerdictEntry>,
  credentialAnswers: readonly string[] = DEFAULT_CREDENTIAL_ANSWERS,
  needsSignature?: (f: Finding) => boolean,
): { counted: Finding[]; suppressed: SuppressedFinding[] } {
  const counted: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const f of findings) {
    const v = verdicts.get(f.id);
    const opens = v !== undefined && openingAnswers(f, credentialAnswers).includes(v.verdict);
    if (opens && needsSignature?.(f))
      counted.push({
        ...f,
        answer: {
          verdict: v.verdict,
          rationale: v.rationale,
          ...(v.commit ? { commit: v.commit } : {}),
          ...(v.commits?.length ? { commits: v.commits } : {}),
          needsSignature: true,
        },
      });
    else if (v && opens) suppressed.push({ ...f, verdict: v.verdict, rationale: v.rationale });
    else if (v && v.verdict !== 'OPEN') counted.push({ ...f, answer: { verdict: v.verdict, rationale: v.rationale } });
    else counted.push(f);
  }
  return { counted, suppressed };
}
