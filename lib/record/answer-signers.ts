/**
 * Who gave the answers calibration counts, where the policy names reviewers (docs/gate.md
 * "Calibration", "Signed answers"): an author e-mail is what the pusher wrote, so the person of an
 * answer is the reviewer whose listed key made a good signature on the commit carrying it, judged
 * as the gate judges signatures (./signatures.ts `standingOf`: git's `%G?` against the reviewers
 * file, the key's validity now). Keys that share a principal, and principals that share a key,
 * are one person: one key under three e-mails is one REJECT-giver, not three.
 */
import { principalsOverlap } from './allowed-signers.js';
import { readSignatures, reviewerKeys, standingOf, type ReviewersFile } from './signatures.js';

// The review loads this module only where the policy names reviewers, and finds the file through it.
export { reviewersFileAt } from './signatures.js';

/** A person's name: the smallest principal that is an address, not a pattern or negation; else git's. */
function nameOf(principals: readonly string[], signer: string): string {
  const plain = principals
    .filter((p) => !/[*?!]/.test(p))
    .map((p) => p.toLowerCase())
    .sort();
  return plain[0] ?? signer.toLowerCase();
}

/**
 * commit → its verified signer, named by the smallest plain principal (no pattern) of that
 * person's key lines, for those of `commits` with a good signature by a listed key valid `now`; a commit absent
 * from the map was not signed so (an answer there counts for no one).
 */
export async function answerSigners(
  cwd: string,
  commits: Iterable<string>,
  file: ReviewersFile,
  now = Date.now(),
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!file.present) return out;
  const sigs = await readSignatures(cwd, [...commits], file.path);
  const { lines } = reviewerKeys(file);
  // One person per group of keys linked by a shared key or principal (judgeAnswers' "another key, no principal in common").
  const people: Array<{ keys: Set<string>; principals: string[]; name: string; commits: string[] }> = [];
  for (const sig of sigs.values()) {
    const s = standingOf(sig, lines, now);
    if (!s.ok) continue;
    const name = nameOf(s.principals, sig.signer);
    const linked = people.filter((p) => p.keys.has(sig.key) || principalsOverlap(p.principals, s.principals));
    const into = { keys: new Set([sig.key]), principals: [...s.principals], name, commits: [sig.commit] };
    for (const p of linked) {
      for (const k of p.keys) into.keys.add(k);
      into.principals.push(...p.principals);
      into.commits.push(...p.commits);
      if (p.name < into.name) into.name = p.name;
      people.splice(people.indexOf(p), 1);
    }
    people.push(into);
  }
  for (const p of people) for (const c of p.commits) out.set(c, p.name);
  return out;
}
