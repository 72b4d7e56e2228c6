/**
 * The audit of signed answers (docs/gate.md "Signed answers"): where the config's
 * `gate.reviewers` names a reviewers file, every answer in the history read to a finding of the
 * kinds it covers, with the commit that added the finding (the first commit with a row for it),
 * (git blame of its line at the answer's commit), its author, the answer and its reason, and who signed the answer's commit with which key and
 * when, or why the answer does not count. The same decision as the push gate
 * (lib/record/signatures.ts); the reviewers file is the work tree's.
 */
import type { Config } from '../config/schema.js';
import type { CommitResult, MinedFinding } from '../mine/types.js';
import { blameLine, lastCommitTouching, run } from '../core/git/commands.js';
import { isPolicyChange, policyChangesIn } from '../record/policy-changes.js';
import {
  judgeAnswers,
  readSignatures,
  reviewerKeys,
  reviewersFileAt,
  standingOf,
  type SignatureRefusal,
} from '../record/signatures.js';
import { pseudonym, redactAuthor } from '../mine/redact.js';
import { mineAll } from '../mine/index.js';
import { countedCommits } from '../mine/counted.js';
import { InputError } from '../core/errors.js';
import { mineMessages as m } from '../messages/mine.js';
import { writeFileAtomic } from '../core/fs/atomic.js';

/** The kinds that need a signed answer and the answers that open the gate, from the review (the caller passes them). */
export interface SignedAnswerRules {
  needs: (finding: { rule_source: string; severity: string }) => boolean;
  opens: (finding: { rule_source: string }, verdict: string) => boolean;
}

export interface SignedAnswerAudit {
  id: string;
  file: string | null;
  rule_source: string;
  /** The commit that added the finding's line (git blame), else the first with a row for it; and its author e-mail. */
  added_in: string;
  added_by: string;
  /**
   * Whether git verifies who added it: that commit is signed by a key the reviewers file lists.
   * False: `added_by` is only the name the pusher wrote.
   */
  added_verified: boolean;
  answer: string;
  rationale: string;
  answered_in: string;
  answered_at: string;
  /** Whether the answer opens the gate: signed by a listed reviewer who did not add the finding. */
  counts: boolean;
  signer: string | null;
  key: string | null;
  /** The second listed reviewer whose signed answer made it count (the author being unverified). */
  second_signer?: string;
  /** Why it does not count (absent when it does). */
  why?: SignatureRefusal['kind'];
}

/** A change to the reviewers file or to `gate.*` (docs/gate.md "Changes to the reviewers"), and whether a signed answer opened it. */
export interface PolicyChangeAudit {
  commit: string;
  author: string;
  date: string;
  kind: 'reviewers' | 'gate';
  path: string;
  id: string;
  rule_source: string;
  /** `opened`: a listed reviewer's signed answer counts; `refused`: answered, none counts; `none`: no answer. */
  answer: 'opened' | 'refused' | 'none';
  signer: string | null;
}

export interface SignedAudit {
  file: string;
  kinds: string[];
  answers: SignedAnswerAudit[];
  policy_changes: PolicyChangeAudit[];
}

/** The commit that last changed the finding's line as the answer's commit has it (null: git cannot say). */
async function lineAuthorCommit(top: string, a: MinedFinding): Promise<string | null> {
  const line = Number((a.line ?? '').split('-')[0]);
  if (!a.file || !line) return null;
  try {
    // A change to who may answer is the last commit that changed the file, not one line of it.
    if (isPolicyChange(a.rule_source))
      return (await run(lastCommitTouching(a.commit, a.file), { cwd: top })).trim() || null;
    const out = await run(blameLine(a.commit, a.file, line), { cwd: top });
    return /^[0-9a-f]{40,64}/.exec(out)?.[0] ?? null;
  } catch {
    return null;
  }
}

/** The audit of `commits` (newest first, as the history is read), or null when the config names no reviewers. */
export async function auditSignedAnswers(
  top: string,
  config: Config,
  commits: readonly CommitResult[],
  rules: SignedAnswerRules | null,
  revs: readonly string[] = ['HEAD'],
): Promise<SignedAudit | null> {
  const reviewers = config.gate.reviewers;
  if (!reviewers || !rules) return null;
  const first = new Map<string, MinedFinding>();
  const answers: MinedFinding[] = [];
  // Oldest first: the first row for an ID is where the finding came in.
  for (const c of [...commits].reverse())
    for (const f of c.findings) {
      if (!first.has(f.id)) first.set(f.id, f);
      if (rules.needs(f) && rules.opens(f, f.verdict)) answers.push(f);
    }
  const file = reviewersFileAt(top, reviewers.file);
  const { path, present } = file;
  const keys = reviewerKeys(file);
  // The keys' validity is judged now: the audit cannot know when each answer was pushed.
  const now = Date.now();
  // Who added the line: git blame at the answer's commit; else the commit with the finding's first row.
  const blamed = new Map<MinedFinding, string | null>();
  for (const a of answers) blamed.set(a, await lineAuthorCommit(top, a));
  const adderOf = (a: MinedFinding) => blamed.get(a) ?? first.get(a.id)!.commit;
  const sigs = await readSignatures(
    top,
    [...answers.map((a) => a.commit), ...answers.map(adderOf)],
    present ? path : null,
  );
  const out: SignedAnswerAudit[] = [];
  const seen = new Set<string>();
  for (const a of answers) {
    // A row copied into a later commit (a cherry-pick) is the same answer: listed once.
    const key = `${a.id}\0${a.commit}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const added = sigs.get(adderOf(a));
    const adder = added ? [added] : [];
    // This answer first, then the other commits answering the finding the same way (a second reviewer).
    const same = answers.filter((b) => b.id === a.id && b.verdict === a.verdict && b.commit !== a.commit);
    const answering = [a, ...same].flatMap((b) => {
      const sig = sigs.get(b.commit);
      return sig ? [sig] : [];
    });
    const judged = judgeAnswers(answering, adder, keys, { now });
    out.push({
      id: a.id,
      file: a.file,
      rule_source: a.rule_source,
      added_in: adderOf(a),
      added_by: added?.author ?? first.get(a.id)!.author,
      added_verified: added ? standingOf(added, keys.lines, now).ok : false,
      answer: a.verdict,
      rationale: a.rationale,
      answered_in: a.commit,
      answered_at: a.date,
      counts: judged.counts,
      signer: judged.counts ? judged.signer : null,
      key: judged.counts ? judged.key : (sigs.get(a.commit)?.key ?? null) || null,
      ...(judged.counts && judged.second ? { second_signer: judged.second.signer } : {}),
      ...(judged.counts ? {} : { why: judged.why.kind }),
    });
  }
  const policy_changes = (await policyChangesIn(top, revs, reviewers.file)).map((c): PolicyChangeAudit => {
    const answered = out.filter((a) => a.id === c.id);
    const opened = answered.find((a) => a.counts);
    return {
      commit: c.commit,
      author: c.author,
      date: c.date,
      kind: c.kind,
      path: c.path,
      id: c.id,
      rule_source: c.rule_source,
      answer: opened ? 'opened' : answered.length ? 'refused' : 'none',
      signer: opened?.signer ?? null,
    };
  });
  return { file: reviewers.file, kinds: [...reviewers.for], answers: out, policy_changes };
}

/**
 * `revtrail mine --signed-answers`: the audit of the history of `revs` (default HEAD), one JSON
 * record per answer (JSONL), or one array with `json`. A config without reviewers is an error
 * that says how to name them.
 */
export async function writeSignedAudit(request: {
  top: string;
  commonDir: string;
  config: Config;
  rules: SignedAnswerRules | null;
  revs: string[];
  all: boolean;
  json: boolean;
  redact: boolean;
  out?: string;
  stdout: NodeJS.WritableStream;
}): Promise<number> {
  if (!request.config.gate.reviewers) throw new InputError(m.noReviewers, { remedy: m.noReviewersRemedy });
  const mined = await mineAll({
    cwd: request.top,
    commonDir: request.commonDir,
    revs: request.all ? [] : request.revs.length ? request.revs : ['HEAD'],
    all: request.all,
  });
  const audit = await auditSignedAnswers(
    request.top,
    request.config,
    countedCommits(mined).commits,
    request.rules,
    request.all ? ['--all'] : request.revs.length ? request.revs : ['HEAD'],
  );
  const answers = (audit?.answers ?? []).map((a) =>
    request.redact
      ? {
          ...a,
          added_by: redactAuthor(a.added_by),
          signer: a.signer === null ? null : pseudonym(a.signer),
          ...(a.second_signer ? { second_signer: pseudonym(a.second_signer) } : {}),
        }
      : a,
  );
  // The changes to who may answer follow the answers, each marked as one.
  const changes = (audit?.policy_changes ?? []).map((c) => ({
    policy_change: true,
    ...c,
    ...(request.redact
      ? { author: redactAuthor(c.author), signer: c.signer === null ? null : pseudonym(c.signer) }
      : {}),
  }));
  const records = [...answers, ...changes];
  const text = request.json
    ? `${JSON.stringify(records, null, 2)}\n`
    : records.map((a) => `${JSON.stringify(a)}\n`).join('');
  if (request.out === undefined) request.stdout.write(text);
  else await writeFileAtomic(request.out, text);
  return 0;
}
