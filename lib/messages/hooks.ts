/** Every user-facing message of the hooks (`revtrail hook ...`) and the server gate; install's are in ./install.ts. */
import type { ReviewEvent } from '../core/vocabulary.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const hookMessages = {
  // Dispatcher
  unknownHook: (name: string) => `unknown hook "${name}"`,
  unknownHookRemedy: (hooks: readonly string[]) => `Hooks: ${hooks.map((h) => `revtrail hook ${h}`).join(', ')}.`,
  hookArgsRemedy: 'git passes them when it runs the hook; revtrail hook --help shows what each hook takes.',
  missingFile: 'this hook needs the message FILE git passes',
  missingRemote: 'hook pre-push needs REMOTE and URL (git passes both) and the ref lines on stdin',
  crashed: (why: string) => `revtrail: internal error in the hook: ${why}`,
  // bin/revtrail.js says the same when it cannot load the starter itself (it cannot import this).
  couldNotStart: (why: string) => `revtrail: the hook could not start (${why}); reinstall revtrail (npm install)`,

  // commit-msg
  lintFailed: (n: number) =>
    `revtrail: commit aborted: ${plural(n, 'Review-Finding trailer')} in the message ${n === 1 ? 'is' : 'are'} not valid`,
  lintLine: (file: string, line: number, level: 'error' | 'warning', reason: string) =>
    `${file}:${line}: ${level === 'warning' ? 'warning: ' : ''}${reason}`,
  lintRemedy:
    '  Fix the line (id,file,line,rule_source,category,severity,issue,verdict,rationale) or delete it; your message is unchanged.',
  summary: (
    event: ReviewEvent,
    findings: number,
    recorded: number,
    suppressed: number,
    kind: 'commit' | 'amend' | 'merge' = 'commit',
  ) =>
    `revtrail: ${event}${kind === 'amend' ? ' (the whole amended commit)' : kind === 'merge' ? ' (what the merge adds)' : ''}: ${plural(findings, 'finding')}` +
    (recorded ? `, ${recorded} recorded as Review-Finding trailer${recorded === 1 ? '' : 's'}` : '') +
    (suppressed ? ` (${suppressed} more answered by a verdict)` : ''),
  findingLine: (path: string, line: string, severity: string, title: string, ruleSource: string, id: string) =>
    `  ${path}:${line} ${severity} ${title} (${ruleSource}) ${id}`,
  moreFindings: (n: number) => `  ... and ${plural(n, 'more finding')} (revtrail verdict --list)`,
  pushWillBlock:
    '  A push with these blocking findings is stopped until each is fixed or has a verdict (revtrail verdict ID VERDICT "…").',
  commitBlocked: (n: number) =>
    `revtrail: commit aborted (commitMsg.block): ${plural(n, 'blocking finding')}; your message is unchanged`,
  commitBlockedRemedy:
    '  Fix them, or record a verdict (revtrail verdict ID REJECT|DEFER|ACKNOWLEDGE "…") and commit again.',
  // commit-msg: the credential stop (docs/gate.md "The credential stop")
  credentialBlocked: (n: number) =>
    `revtrail: commit aborted: ${n === 1 ? 'a credential' : `${n} credentials`} in what this commit adds (commitMsg.blockCredentials); your message is unchanged`,
  credentialWaysOn: (ids: readonly string[], answers: readonly string[]) => [
    '  Two ways on:',
    '    - a real secret: take it out of the file (read it from the environment or a secret store), git add, and commit again;',
    '      rotate it if it was ever shared or pushed.',
    `    - not a secret (a test value, a published example): answer it, then commit again (the commit records the answer):`,
    ...ids.map((id) => `        revtrail verdict ${id} ${answers.join('|')} "…"`),
  ],
  amendDropped: (ids: readonly string[]) =>
    `revtrail: the amend fixed ${ids.length === 1 ? 'a finding' : `${ids.length} findings`}: ${ids.length === 1 ? 'its' : 'their'} OPEN row${ids.length === 1 ? '' : 's'} left the message (${ids.join(', ')})`,
  verdictsRecorded: (items: readonly string[]) =>
    `revtrail: recorded ${plural(items.length, 'queued verdict')}: ${items.join(', ')}`,
  queueWaiting: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'queued verdict')} not recorded here (this branch has no record of ${items.length === 1 ? 'its finding' : 'their findings'}): ${items.join(', ')}; ${items.length === 1 ? 'it waits' : 'they wait'} for a commit on a branch that has`,
  rewriteCarried: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'Review-Finding record')} the rewrite left out of ${items.length === 1 ? 'its new commit is' : 'their new commits are'} queued for your next commit: ${items.join(', ')}`,
  rebaseDropped: (items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'verdict')} of commits the rebase dropped ${items.length === 1 ? 'is' : 'are'} queued: ${items.join(', ')}; ${items.length === 1 ? 'it goes' : 'each goes'} into the next commit whose history has the finding (revtrail verdict --list shows ${items.length === 1 ? 'it' : 'them'}; revtrail verdict --drop ID discards one)`,
  copiedRowsLeftOut: (from: string, items: readonly string[]) =>
    `revtrail: ${plural(items.length, 'Review-Finding row')} copied from ${from} left out of this message: ${items.join(', ')} (this branch has no record of ${items.length === 1 ? 'its finding' : 'their findings'}, or holds ${items.length === 1 ? 'it' : 'them'} already); ${from} keeps ${items.length === 1 ? 'it' : 'them'}`,
  amendKept: (n: number) => `revtrail: kept ${plural(n, 'Review-Finding record')} of the amended commit`,
  notRecordable: (id: string) => `revtrail: warning: finding ${id} cannot be written as a trailer row; not recorded`,
  warning: (text: string) => `revtrail: warning: ${text}`,
  reviewFailed: (why: string) => `revtrail: warning: the review did not run: ${why}; the commit goes on`,
  queueFailed: (why: string) =>
    `revtrail: warning: the queued verdicts could not be read (${why}); they stay queued for the next commit`,
  trailersNotWritten: (why: string, n: number) =>
    `revtrail: warning: ${n === 1 ? 'the Review-Finding trailer was' : `${n} Review-Finding trailers were`} not added: ${why}; the commit goes on with your message unchanged`,
  saveFailed: (why: string) => `revtrail: warning: could not save the review for \`revtrail verdict\`: ${why}`,

  // pre-push
  badRefLine: (line: string) => `revtrail: warning: ignoring a ref line git should not send: "${line}"`,
  pushBlocked: (n: number) => `revtrail: push blocked: ${plural(n, 'blocking finding')}`,
  refBlocked: (ref: string, n: number) => `${ref} (${plural(n, 'blocking finding')}):`,
  waysOn: [
    'Each one needs either',
    '  - a fix, committed (a secret stays in the pushed history: rewrite the commits that added it), or',
    '  - a verdict, committed:',
  ],
  verdictCommand: (id: string, answers: readonly string[] = ['REJECT', 'DEFER', 'ACKNOWLEDGE'], policyFrom?: string) =>
    `      revtrail verdict ${id} ${answers.join('|')} "…"${policyFrom ? ` --policy-from ${policyFrom}` : ''}`,
  // The server: the commands run from the pusher's clone, on the branch pushed (docs/server.md "Answering the server").
  fromYourClone: (policyFrom: string) =>
    `    (from your clone, on the branch you pushed; --policy-from names the policy this server reviewed with: git fetch first if your clone lacks ${policyFrom.slice(0, 12)})`,
  seeFromYourClone: (range: string, policyFrom: string) =>
    `To see them from your clone: revtrail review --range ${range} --policy-from ${policyFrom}`,
  // pre-push: credentials (docs/gate.md "Answers by kind", "After an ACCEPT")
  credentialTitle: (id: string, where: string) => `A credential, ${id} (${where}):`,
  credentialAccepted: (rationale: string) =>
    `  answered ACCEPT ("${rationale}"): fixed in the files, but the pushed history still holds it, so pushing it publishes the key.`,
  credentialWrongAnswer: (verdict: string, answers: readonly string[]) =>
    `  answered ${verdict}, which does not open the gate for a credential (gate.credentialAnswers: ${answers.join(', ')}).`,
  credentialHeldBy: (n: number) => `  ${n === 1 ? 'This pushed commit adds it' : `These ${n} pushed commits add it`}:`,
  credentialCommit: (sha: string, subject: string) => `    ${sha.slice(0, 12)} ${subject}`,
  credentialRewrite: '  Take it out of history, then push again:',
  rewriteAmend: (sha: string) =>
    `    ${sha.slice(0, 12)} is the last commit pushed: remove the key from the file, git add it, git commit --amend`,
  rewriteRebase: (shas: readonly string[], base: string) => [
    `    git rebase -i ${base}`,
    `      mark ${shas.map((c) => c.slice(0, 12)).join(', ')} "edit": at each stop remove the key, git add, git commit --amend, git rebase --continue`,
    `      (or, where a later commit removed it, move that commit right after ${shas[0]!.slice(0, 12)} as "fixup")`,
  ],
  rotate: '  And rotate it (revoke the key and issue a new one): a key that was ever in a commit may have been copied.',
  credentialNotSecret: (id: string, answers: readonly string[]) =>
    `  Not a secret (a test value, a published example)? revtrail verdict ${id} ${answers.join('|')} "…", commit, and push again.`,
  stillFoundAfterAccept: (id: string) =>
    `  ${id} was answered ACCEPT, yet what the push adds still has it: fix it, or answer it again.`,
  // Signed answers (docs/gate.md "Signed answers")
  signedOpened: (
    id: string,
    where: string,
    o: {
      verdict: string;
      signer: string;
      key: string;
      commit: string;
      finding: { rule_source: string };
      second?: { signer: string; key: string; commit: string };
    },
  ) =>
    `revtrail: ${id} at ${where} (${o.finding.rule_source}) is answered ${o.verdict}, signed by ${o.signer} (${o.key}) in ${o.commit.slice(0, 12)}` +
    (o.second ? ` and by ${o.second.signer} (${o.second.key}) in ${o.second.commit.slice(0, 12)}` : '') +
    ': it does not block',
  // A change to who may answer, on the policy ref (docs/gate.md "Changes to the reviewers").
  policyChangeTitle: (kind: 'reviewers' | 'gate') =>
    kind === 'reviewers'
      ? 'the reviewers file changes on the policy ref'
      : 'the gate settings change on the policy ref',
  policyChangeBody: (kind: 'reviewers' | 'gate', file: string) =>
    kind === 'reviewers'
      ? `${file} says whose signed answers open the gate; a change to it is answered by a reviewer it lists now`
      : 'gate.* says which answers open the gate and who signs them; a change to it is answered by a listed reviewer',
  signatureRefused: (
    id: string,
    verdict: string,
    why: {
      kind: string;
      commit?: string;
      key?: string;
      file?: string;
      status?: string;
      signer?: string;
      until?: string;
      from?: string;
    },
  ) => {
    const head = `  ${id} was answered ${verdict}`;
    const c = (sha = '') => sha.slice(0, 12);
    switch (why.kind) {
      case 'queued':
        return `${head} in this clone only: the answer counts once a reviewer's signed commit carries it`;
      case 'no-reviewers':
        return `${head}, but the policy has no reviewers file ${why.file}: no answer to this kind counts until it does`;
      case 'unsigned':
        return `${head} in ${c(why.commit)}, which is not signed`;
      case 'unlisted':
        return `${head} in ${c(why.commit)}, signed by key ${why.key}, which the reviewers file does not list`;
      case 'bad':
        return `${head} in ${c(why.commit)}, whose signature does not verify (the commit changed after it was signed)`;
      case 'expired':
        return `${head} in ${c(why.commit)}, signed by key ${why.key}, which expired: the reviewers file lists it valid before ${why.until}, and a key counts only while valid at the push`;
      case 'not-yet':
        return `${head} in ${c(why.commit)}, signed by key ${why.key}, which is not valid yet: the reviewers file lists it valid from ${why.from}`;
      case 'unverified':
        return `${head} in ${c(why.commit)}, signed by ${why.signer}, but the commits that add it are not signed by a listed key, so who wrote it is unverified: a second listed reviewer signs an answer too`;
      case 'unusable':
        return `${head} in ${c(why.commit)}, whose signature git does not accept (%G? ${why.status}: expired, revoked or not checkable)`;
      default:
        return `${head} in ${c(why.commit)}, signed by ${why.signer}, who wrote or signed a pushed commit that adds it: a second person answers`;
    }
  },
  allowNeedsSignature: (id: string, marker: string) =>
    `  ${id} has an allow comment (${marker}), which does not open the gate for this kind without a signed answer`,
  /** A change to who may answer has no finding `revtrail verdict` knows in a clone: the row is written by hand. */
  policyAnswerNeeded: (
    f: { id: string; path: string; rule_source: string; title: string },
    file: string,
    principals: readonly string[],
  ) => [
    `  ${f.id} opens with an answer signed by a reviewer ${file} lists before this push${principals.length ? ` (${principals.join(', ')})` : ''}, who did not make the change:`,
    `      they fetch this branch and commit it signed: git commit -S --allow-empty -m "Answer ${f.id}" --trailer "Review-Finding: ${f.id},${f.path},1,${f.rule_source},security,security,${f.title},ACKNOWLEDGE,why"; then push it`,
  ],
  signedAnswerNeeded: (id: string, file: string, principals: readonly string[]) => [
    `  ${id} opens with an answer signed by a reviewer of ${file}${principals.length ? ` (${principals.join(', ')})` : ''} who did not add it:`,
    `      they fetch this branch, run revtrail verdict ${id} REJECT "why", commit it signed (git commit -S --allow-empty -m "Answer ${id}") and push it; then your push passes`,
  ],
  thenCommit:
    '    then: git commit (git commit --allow-empty -m "Record review verdicts" when nothing else changed), and push again.',
  queuedNotCommitted: (items: readonly string[]) =>
    `${plural(items.length, 'verdict')} ${items.length === 1 ? 'is' : 'are'} queued but not committed (a push counts committed verdicts only): ${items.join(', ')}`,
  recordQueued:
    '  Record them: git commit --allow-empty -m "Record review verdicts" on the pushed branch, and push again.',
  pushNotes: (ref: string, event: ReviewEvent, n: number) =>
    `revtrail: ${ref}: ${event}: ${plural(n, 'non-blocking finding')}`,
  pushCalibrated: (ref: string, n: number) =>
    `revtrail: ${ref}: ${plural(n, 'finding')} of rules calibrated by history, not blocking:`,
  // pre-push progress (a terminal only: one line, overwritten)
  pushProgress: (ref: string, parts: readonly string[], seconds: string) =>
    `revtrail: ${ref}: ${parts.join('; ')} (${seconds} s)`,
  pushReviewing: (done: number, total: number, path: string) =>
    `reviewing what the push adds, ${done.toLocaleString('en')}/${total.toLocaleString('en')} chunks (${path})`,
  pushChecking: (done: number, total: number) =>
    `checking each commit for credentials, ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${total === 1 ? 'commit' : 'commits'}`,
};

/** The server gate (`hook pre-receive`, `hook update`, `install --server`): docs/server.md. */
export const serverMessages = {
  updateUsage: 'revtrail: hook update needs REF OLD NEW (what git passes to an update hook)',
  policyNote: (ref: string) =>
    `The policy (config, bundle, doc map) is the one ${ref} had before the push; verdicts count once committed in the pushed history.`,
  policyRefNotFull: (key: string, value: string) =>
    `${key} is "${value}", which is not a full ref name (refs/heads/main)`,
  policyRefMissing: (ref: string, key: string) => `the policy ref ${ref} (${key}) does not exist in this repository`,
  policyHeadMissing: (ref: string, key: string) =>
    `this repository's HEAD names ${ref}, which does not exist, and ${key} is not set`,
  policyRefRefused:
    'revtrail: the push is rejected: the server reads its policy from that ref, and never reviews with no policy',
  policyRefRemedy: (key: string) =>
    `An administrator names the branch that holds the policy: git config ${key} refs/heads/main (in the repository on the server)`,
  policySymlink: (path: string, commit: string) =>
    `policy of ${commit.slice(0, 12)}: ${path} is not a regular file (a symlink?); the server does not read it`,
  policyTooBig: (path: string, size: number, cap: number) =>
    `policy file ${path} is ${size} bytes, over the ${cap}-byte cap; left out`,
  policyBadPath: (path: string) => `policy file "${path}" has a path that cannot be written safely; left out`,
  policyKnowledgeLeaves: (value: string, used: string) =>
    `the config's knowledge "${value}" is not a folder of the repository; ${used} is read instead`,
  policyTooMany: (max: number) => `the policy holds more than ${max} files; the rest are left out`,
  policyFromAmbiguous: (ref: string, refs: readonly string[]) =>
    `--policy-from ${ref} is ambiguous: it names ${refs.join(' and ')}`,
  policyFromAmbiguousRemedy: 'Name the policy ref in full, e.g. --policy-from refs/remotes/origin/main',
  policyFromUnknown: (ref: string) => `--policy-from ${ref}: no such commit in this repository`,
  policyFromRemedy:
    'Name a branch or commit this clone has (fetch it first: git fetch origin main), for example --policy-from origin/main.',
};
