/** Every user-facing message of `revtrail candidates` and of the candidate model. */
import { gateMessages } from './gate.js';
export const candidatesMessages = {
  emptyEvidence: 'a knowledge candidate needs evidence: at least one qualifying finding thread',
  emptyBody: 'a knowledge candidate needs a body',
  gateUnmet: (unmet: string[]) => `a knowledge candidate needs a passed gate; unmet: ${unmet.join(', ')}`,
  badInput: (why: string) => `not a knowledge candidate: ${why}`,
  outInBundle: (out: string, bundle: string) => `${out} is inside the knowledge bundle ${bundle}`,
  outInBundleRemedy:
    'Write candidates elsewhere (default .revtrail/candidates/); a human moves an approved one into the bundle.',
  outUnwritable: (out: string, why: string) => `cannot write candidates to ${out}: ${why}`,
  outUnwritableRemedy: 'Choose a folder you can write to with --out.',
  explainUnknown: (target: string) => `no finding thread or rule_source "${target}" in the mined history`,
  explainUnknownRemedy: 'Name a finding ID (rf-…) or a rule_source that `revtrail mine` lists.',

  description: (rule: string, threads: number, files: number, mainline: string) =>
    `Findings of ${rule} were accepted, fixed and merged into ${mainline} with CI passing ${threads} times in ${files} files. ` +
    'Generated from git history for a human to judge; not approved knowledge.',
  bodyIntro: (rule: string, threads: number, files: number, mainline: string) =>
    `The rule \`${rule}\` raised findings that people accepted and fixed ${threads} times, in ${files} files; ` +
    `each fix is merged into \`${mainline}\`, touches the flagged file, and passed CI.`,
  bodyEvidenceHeading: '## Evidence',
  bodyEvidence: (file: string, line: string, finding: string, commit: string, fix: string, rationale: string) =>
    `- \`${file}:${line}\` (${finding}): raised in ${commit.slice(0, 12)}, fixed in ${fix.slice(0, 12)}: ${rationale}`,
  bodyReviewHeading: '## For the reviewer',
  bodyReview:
    'This draft was inferred from history (trust level: inferred). The gate says a human should look at it, not ' +
    "that it is true. Decide whether it states your team's knowledge, rewrite it as such, and move it into the " +
    'bundle yourself; revtrail never approves.',

  none: (rules: number) =>
    rules
      ? `no candidates: none of ${rules} rule source${rules === 1 ? '' : 's'} passed the gate (revtrail candidates --explain RULE_SOURCE says why)`
      : 'no candidates: no Review-Finding threads in the history',
  noProposer:
    'candidates are rules the bundle does not state yet, which only a reviewer program or the model reviewer names (their findings cite a document, docs/model.md); this repository configures neither, so its findings are of rules that are knowledge already',
  wrote: (file: string, id: string, threads: number, files: number) =>
    `wrote ${file} (${id}: ${threads} threads in ${files} files)`,
  unchanged: (file: string, id: string) => `unchanged ${file} (${id})`,
  inBundle: (rule: string, doc: string) =>
    doc === "revtrail's built-in rules"
      ? `skipped ${rule}: it is one of ${doc} (knowledge already)`
      : `skipped ${rule}: it belongs to ${doc} in the knowledge bundle already`,
  bodySuggestedHeading: '## A rule to adopt',
  bodySuggestedIntro: (document: string | null) =>
    document
      ? `Its findings cite ${document}, which holds no such rule yet. If the team agrees, add this to that document's \`rules\` and write the pattern (a regex, or an \`ast\` pattern with its \`language\`):`
      : "No document was cited: it may belong in a new decision. If the team agrees, add this to a concept's `rules` and write the pattern (a regex, or an `ast` pattern with its `language`):",
  suggestedPattern: 'TODO: what the flagged lines have in common',

  explainThread: (id: string, rule: string, where: string, state: string, n: number) =>
    `thread ${id} (${rule}${where ? `, ${where}` : ''}): state ${state}, ${n} occurrence${n === 1 ? '' : 's'}`,
  explainRule: (rule: string, threads: number, qualifying: number, min: number, threadSignals: number) =>
    `rule_source ${rule}: ${threads} thread${threads === 1 ? '' : 's'}, ${qualifying} meeting ${gateMessages.threadSignals(threadSignals)} (gate.minRecurrence ${min})`,
  explainCalibrated: (rejected: number, verdicts: number, verdict: string, finding: string, commit: string | null) =>
    `calibration: not blocking: ${rejected} of ${verdicts} answered findings were rejected; since ${verdict} ${finding}${commit ? ` in ${commit.slice(0, 12)}` : ''}`,
  explainNotCalibrated: (rejected: number, verdicts: number, exempt: boolean) =>
    `calibration: blocking: ${rejected} of ${verdicts} answered findings were rejected${exempt ? ' (a credential or security rule: never demoted)' : ''}`,
  explainCandidate: (id: string) => `candidate: yes (${id})`,
  explainNotCandidate: 'candidate: no (the gate is not passed)',
  explainInBundle: (doc: string) =>
    doc === "revtrail's built-in rules"
      ? `candidate: no: this rule_source is one of ${doc} (it is knowledge already)`
      : `candidate: no: this rule_source belongs to ${doc} in the knowledge bundle already (it is knowledge)`,
  signalMet: 'met',
  signalUnmet: 'UNMET',
};
