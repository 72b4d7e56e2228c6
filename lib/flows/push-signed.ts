/**
 * Signed answers at the push gate (docs/gate.md "Signed answers"): where the policy's
 * `gate.reviewers` names a reviewers file, an answer to a finding of the kinds it lists opens the
 * gate only when the commit carrying the answer's row has a good signature by a key the file
 * lists, of a principal who neither wrote nor signed a pushed commit that adds the finding. The
 * review leaves such answers on their findings (answer.needsSignature); this checks them with
 * git (lib/record/signatures.ts) and takes out the findings whose answer counts.
 */
import { commitsTouching, run } from '../core/git/commands.js';
import {
  judgeAnswers,
  listedPrincipals,
  readSignatures,
  reviewerKeys,
  reviewersFileAt,
  type ReviewersFile,
  type SignatureRefusal,
} from '../record/signatures.js';
import type { Workspace } from '../workspace/index.js';
import type { Finding } from '../review/types.js';
import { signedKinds, type NeedsSignature } from '../review/findings/signed.js';
import { CREDENTIAL_RULE_SOURCES } from '../review/builtin.js';
import { isPolicyChange } from '../record/policy-changes.js';

/** A finding a signed answer took out of the count. */
export interface SignedAnswer {
  finding: Finding;
  verdict: string;
  rationale: string;
  commit: string;
  signer: string;
  key: string;
  date: string;
  /** A second listed reviewer's signature, where the commits adding the finding are not signed by a listed key. */
  second?: { signer: string; key: string; commit: string };
  /** Why one signature was enough, or that two were needed (lib/record/signatures.ts judgeAnswers). */
  how: 'verified' | 'pusher' | 'two';
}

export interface SignedCheck {
  opened: SignedAnswer[];
  /** Why each answer that needed a signature does not count, by finding ID. */
  refused: Map<string, SignatureRefusal>;
  /** The reviewers file as the config names it and the principals it lists, for the refusal's "who may sign". */
  file: string;
  principals: string[];
  /** Whether a finding's answers need a signature (the policy's `gate.reviewers.for`). */
  needs: NeedsSignature;
}

/** Whether a finding needs a signed answer: the kinds the policy lists, and every change to who may answer. */
function needing(kinds: readonly string[]): NeedsSignature {
  const listed = signedKinds(kinds, (s) => CREDENTIAL_RULE_SOURCES.has(s));
  return (f) => isPolicyChange(f.rule_source) || listed(f);
}

/** The policy's reviewers file (lib/record/signatures.ts); null when the policy names none. */
export function reviewersFile(session: Workspace): ReviewersFile | null {
  const named = session.config.gate.reviewers?.file;
  return named ? reviewersFileAt(session.policyTop, named) : null;
}

/**
 * Checks the answers of `findings` that need a signature. `adding(f)`: the pushed commits whose
 * diff adds `f` (the credential holders), else the pushed commits that change its file. `pusher`:
 * the server's authenticated pusher (docs/server.md "Who pushed"), none on a client.
 */
export async function checkSignedAnswers(
  top: string,
  session: Workspace,
  findings: readonly Finding[],
  adding: (f: Finding) => readonly string[] | undefined,
  pushed: readonly string[],
  pusher: string | null = null,
): Promise<SignedCheck | null> {
  const file = reviewersFile(session);
  const kinds = session.config.gate.reviewers?.for;
  if (!file || !kinds) return null;
  const check: SignedCheck = {
    opened: [],
    refused: new Map(),
    file: file.name,
    principals: listedPrincipals(file),
    needs: needing(kinds),
  };
  const waiting = findings.filter((f) => f.answer?.needsSignature);
  if (waiting.length === 0) return check;
  const adders = new Map<string, readonly string[]>();
  for (const f of waiting)
    adders.set(
      f.id,
      adding(f) ?? (pushed.length ? await run(commitsTouching([...pushed].reverse(), f.path), { cwd: top }) : []),
    );
  const answering = (f: Finding) => f.answer?.commits ?? (f.answer?.commit ? [f.answer.commit] : []);
  const commits = [...waiting.flatMap(answering), ...[...adders.values()].flat()];
  const sigs = await readSignatures(top, commits, file.present ? file.path : null);
  const keys = reviewerKeys(file);
  const found = (list: readonly string[]) =>
    list.flatMap((c) => {
      const s = sigs.get(c);
      return s ? [s] : [];
    });
  // The keys' validity is judged at the push, never at the committer date the signer wrote.
  const context = { now: Date.now(), pusher };
  for (const f of waiting) {
    const answer = f.answer!;
    const verdict = judgeAnswers(found(answering(f)), found(adders.get(f.id) ?? []), keys, context);
    if (verdict.counts)
      check.opened.push({
        finding: f,
        verdict: answer.verdict,
        rationale: answer.rationale,
        commit: verdict.commit,
        signer: verdict.signer,
        key: verdict.key,
        date: verdict.date,
        how: verdict.how,
        ...(verdict.second ? { second: verdict.second } : {}),
      });
    else check.refused.set(f.id, verdict.why);
  }
  return check;
}
