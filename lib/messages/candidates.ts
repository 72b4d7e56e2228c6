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
    'candidates are rules the bundle does not state yet, which only a reviewer program, the model reviewer (their findings cite a document, docs/model.md) or a person names (revtrail verdict --new FILE:LINE "what" --cite DOC-ID); this repository configures no reviewer and its history has no finding a person wrote, so its findings are of rules that are knowledge already; its decisions can still be refined (see below)',
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

/** Refinement candidates (lib/candidates/refine.ts, docs/gate.md "Refinements"). */
export const refineMessages = {
  rejectedUnder: (n: number, folder: string, min: number) =>
    `${n} finding${n === 1 ? '' : 's'} REJECTed under ${folder}/, merged and not failed in CI (gate.minRecurrence ${min})`,
  answeredBy: (n: number, min: number) =>
    `answered by ${n} ${n === 1 ? 'person' : 'people'} (gate.minAuthors ${min}): ${n >= min ? "the team's view" : "one person's view"}`,
  merged: (merged: number, all: number) => `${merged} of ${all} answers are in commits on the mainline`,
  ciFailed: (n: number) =>
    n
      ? `${n} answering commit${n === 1 ? '' : 's'} failed CI (a note says so)`
      : 'no CI note says an answering commit failed',
  acceptedUnder: (n: number, folder: string) =>
    n
      ? `${n} finding${n === 1 ? '' : 's'} under ${folder}/ ${n === 1 ? 'was' : 'were'} ACCEPTed and fixed: the rule holds there too`
      : `no finding under ${folder}/ was ACCEPTed`,
  excludedAlready: (glob: string) => `the rule's exclude already covers ${glob}`,
  notExcluded: (glob: string) => `the rule's exclude does not cover ${glob} yet`,
  fixedOutside: (fixed: number, all: number, folder: string, min: number) =>
    `${fixed} of ${all} findings ACCEPTed under ${folder}/ (outside the declared paths) passed the gate's thread signals (gate.minRecurrence ${min})`,
  recordedBy: (n: number, min: number) =>
    `their records come from ${n} ${n === 1 ? 'person' : 'people'} (gate.minAuthors ${min})`,
  notEditable: (document: string) =>
    `${document} has no frontmatter stanza for the rule that revtrail can change line by line: edit it by hand`,

  title: (kind: 'exception' | 'scope', rule: string, folder: string) =>
    kind === 'exception' ? `Exception for ${rule} under ${folder}/` : `Wider scope for ${rule}: ${folder}/`,
  intro: (kind: 'exception' | 'scope', rule: string, document: string, folder: string, n: number, people: number) =>
    kind === 'exception'
      ? `The findings of \`${rule}\` (${document}) under \`${folder}/\` were answered "not a violation" (REJECT) ${n} times by ${people} people, and none there was fixed. The decision may not mean to cover that folder.`
      : `Findings of \`${rule}\` (${document}) under \`${folder}/\`, outside the paths the rule declares, were accepted and fixed ${n} times by ${people} people. The decision may mean to cover that folder.`,
  evidenceHeading: '## Evidence',
  evidence: (e: {
    file: string;
    line: string | null;
    finding: string;
    verdict: string;
    commit: string;
    author: string;
    rationale: string;
  }) =>
    `- \`${e.file}${e.line ? `:${e.line}` : ''}\` (${e.finding}): ${e.verdict} in ${e.commit.slice(0, 12)} by ${e.author}: ${e.rationale}`,
  changeHeading: '## The change',
  changeIntro: (kind: 'exception' | 'scope', globs: readonly string[], patch: string) =>
    `Add ${globs.map((g) => `\`${g}\``).join(', ')} to ${kind === 'exception' ? "the rule's `exclude`" : 'the declared `paths`'}. The patch is also in \`${patch}\` (\`git apply ${patch}\` from the repository's top level):`,
  reviewHeading: '## For the reviewer',
  review:
    'This draft was inferred from verdicts in history (trust level: inferred). Decide whether the decision should change; revtrail never edits the bundle.',

  wrote: (file: string, kind: string, rule: string, folder: string) =>
    `wrote ${file} (${kind} for ${rule} under ${folder}/)`,
  unchanged: (file: string) => `unchanged ${file}`,
  noneHeading: 'What would make a draft:',
  noneKinds:
    '  - a new rule: findings of a rule the bundle does not hold (a reviewer program, the model, or people: revtrail verdict --new FILE:LINE "what" --cite DOC-ID), accepted, fixed, merged and CI-green in gate.minRecurrence files, from gate.minAuthors people;\n' +
    '  - an exception to a bundle rule: its findings REJECTed under one folder gate.minRecurrence times by gate.minAuthors people, none fixed there;\n' +
    "  - a wider scope: a bundle rule's findings fixed outside its declared paths as often.",
  farRule: (rule: string, qualifying: number, min: number, unmet: readonly string[]) =>
    `  ${rule}: ${qualifying} of ${min} threads meet the thread signals${unmet.length ? `; unmet: ${unmet.join(', ')}` : ''}`,
  /** A bundle rule no refinement was tried for yet: what its findings are, and what a draft needs. */
  farOwned: (rule: string, findings: number, open: number, min: { recurrence: number; authors: number }) =>
    `  ${rule}: ${findings} finding${findings === 1 ? '' : 's'}, ${open} without an answer; an exception needs ${min.recurrence} REJECT${min.recurrence === 1 ? '' : 's'} in one folder from ${min.authors} ${min.authors === 1 ? 'person' : 'people'}`,
  /** What a refinement waits for, in plain words: how many answers from how many people, and what else is unmet. */
  farTrial: (
    t: { kind: 'exception' | 'scope'; rule_source: string; folder: string; count: number; people: number },
    min: { recurrence: number; authors: number },
    unmet: ReadonlyArray<{ name: string; fact: string }>,
  ) => {
    const what = t.kind === 'exception' ? 'REJECT' : 'fix outside the declared paths';
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : w.startsWith('fix') ? 'es' : 's'}`;
    const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
    const needs = [
      ...(unmet.some((c) => c.name === 'recurrence')
        ? [plural(min.recurrence, what).replace('fixes outside the declared paths', 'fixes')]
        : []),
      ...(unmet.some((c) => c.name === 'several_authors') ? [people(min.authors)] : []),
    ];
    const rest = unmet.filter((c) => c.name !== 'recurrence' && c.name !== 'several_authors').map((c) => c.fact);
    return `  ${t.rule_source}: ${t.kind} under ${t.folder}/: ${plural(t.count, what)} from ${people(t.people)}${needs.length ? `; needs ${needs.join(' from ')}` : ''}${rest.length ? `; ${rest.join('; ')}` : ''}`;
  },
  explainHeading: 'refinements:',
  explainTrial: (kind: string, folder: string, passed: boolean) =>
    `  ${kind} under ${folder}/: ${passed ? 'a draft' : 'no draft'}`,
};
