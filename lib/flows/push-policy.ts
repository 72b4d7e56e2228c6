/**
 * A push to the policy ref that changes who may answer (docs/gate.md "Changes to the reviewers"):
 * a change to the reviewers file or to the config's `gate` settings is a finding of its own,
 * which only a reviewer listed in the policy as it was before the push opens, with a signed
 * answer (./push-signed.ts). Without it, anyone who can push the policy branch could list their
 * own key and then answer their own findings.
 */
import type { Workspace } from '../workspace/index.js';
import type { Finding } from '../review/types.js';
import type { HistoryRow } from '../record/history.js';
import { policyChangesBetween } from '../record/policy-changes.js';
import { applyVerdicts, loadVerdicts } from '../review/findings/suppress.js';
import { hookMessages as m } from '../messages/hooks.js';

/**
 * The findings of a push that moves the policy ref from `policyCommit` to `tip`, with their
 * answers from the pushed history; none where the policy names no reviewers (there is no one
 * to ask yet: the first reviewers file comes in as any change does).
 */
export async function policyFindings(
  top: string,
  session: Workspace,
  policyCommit: string,
  tip: string,
  history: () => Promise<HistoryRow[]>,
): Promise<Finding[]> {
  const reviewers = session.config.gate.reviewers;
  if (!reviewers) return [];
  const changes = await policyChangesBetween(top, policyCommit, tip, reviewers.file);
  if (changes.length === 0) return [];
  const findings: Finding[] = changes.map((c) => ({
    id: c.id,
    path: c.path,
    start_line: 1,
    line: 1,
    side: 'RIGHT',
    severity: 'security',
    category: 'security',
    title: m.policyChangeTitle(c.kind),
    body: m.policyChangeBody(c.kind, reviewers.file),
    rule_source: c.rule_source,
    citations: [],
    suggestion_code: null,
    confidence: 1,
  }));
  const verdicts = await loadVerdicts(top, tip, [], history);
  // Every opening answer to such a change needs a listed reviewer's signature.
  return applyVerdicts(findings, verdicts, undefined, () => true).counted;
}
