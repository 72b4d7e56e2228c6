/**
 * Who signed the commits that carry answers (docs/gate.md "Signed answers"), as git verifies them:
 * `%G?` with `gpg.ssh.allowedSignersFile` set to the policy's reviewers file (git's
 * allowed_signers format), so `G` means a good signature by a key the file lists for the principal
 * `%GS`; `U` a good signature by a key it does not list; `B` one that does not verify (the commit
 * changed after it was signed); `N` none. The user's own `gpg.ssh.allowedSignersFile` and
 * `log.showSignature` never take part. git judges the key's validity at the committer date the
 * signer wrote, and names one principal; ./allowed-signers.ts reads the file again for the key's
 * validity now and all its principals.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { run, signaturesOf } from '../core/git/commands.js';
import { contains } from '../core/fs/path.js';
import { readRegularFile } from '../core/fs/read.js';
import {
  parseAllowedSigners,
  principalMatches,
  principalsOverlap,
  pusherIs,
  validity,
  type SignerLine,
} from './allowed-signers.js';

/** The most a reviewers file may hold: a team's keys, not a data file. */
const MAX_REVIEWERS_BYTES = 1024 * 1024;

export interface ReviewersFile {
  /** As the config names it. */
  name: string;
  /** Absolute. */
  path: string;
  /** A regular file inside the policy's folder (else no one is listed). */
  present: boolean;
}

/** The policy's reviewers file, `name` relative to `policyTop`; one that leaves it is never read. */
export function reviewersFileAt(policyTop: string, name: string): ReviewersFile {
  const path = resolve(policyTop, name);
  let present = false;
  try {
    present = contains(resolve(policyTop), path) && statSync(path).isFile();
  } catch {
    present = false;
  }
  return { name, path, present };
}

/** The reviewers file's text ('' when it cannot be read: no one is listed). */
function readReviewers(file: ReviewersFile): string {
  try {
    return readRegularFile(file.path, { maxBytes: MAX_REVIEWERS_BYTES }).bytes.toString('utf8');
  } catch {
    return '';
  }
}

/** The principals a reviewers file lists (its lines' first field; comma-separated patterns as written). */
export function listedPrincipals(file: ReviewersFile): string[] {
  if (!file.present) return [];
  const text = readReviewers(file);
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    for (const p of line.split(/\s+/)[0]!.split(',')) if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

export interface CommitSignature {
  commit: string;
  /** git's `%G?`: G, U, B, N, X (expired signature), Y (expired key), R (revoked key), E (cannot check). */
  status: string;
  /** The principal the reviewers file names for the key (`%GS`); empty unless listed. */
  signer: string;
  /** The signing key's fingerprint (`%GK`), when signed. */
  key: string;
  /** The commit's author e-mail and committer date. */
  author: string;
  date: string;
}

const FIELDS = ['%H', '%G?', '%GS', '%GK', '%ae', '%cI'];

/** The signatures of `commits` checked against `signersFile` (null: no such file, so nothing is listed). */
export async function readSignatures(
  cwd: string,
  commits: readonly string[],
  signersFile: string | null,
): Promise<Map<string, CommitSignature>> {
  const out = new Map<string, CommitSignature>();
  const wanted = [...new Set(commits)];
  if (wanted.length === 0) return out;
  const text = await run(signaturesOf(FIELDS.join('%x1f'), signersFile, wanted), { cwd });
  for (const sig of parseSignatures(text)) out.set(sig.commit, sig);
  return out;
}

/** `readSignatures`' output, one commit a line (a plain function of git's text, tested without git). */
export function parseSignatures(text: string): CommitSignature[] {
  const sigs: CommitSignature[] = [];
  for (const line of text.split('\n')) {
    const [commit, status, signer, key, author, date] = line.split('\x1f');
    if (!commit || status === undefined) continue;
    sigs.push({
      commit,
      status,
      signer: signer ?? '',
      key: key ?? '',
      author: author ?? '',
      date: date ?? '',
    });
  }
  return sigs;
}

export type SignatureVerdict =
  | {
      counts: true;
      signer: string;
      key: string;
      date: string;
      commit: string;
      /**
       * Why one signature is enough, or that two were needed: `verified` (the commits that add the
       * finding are signed by listed keys, so their author is known), `pusher` (the server's
       * authenticated pusher is not the signer), `two` (a second listed reviewer signed too, `second`).
       */
      how: 'verified' | 'pusher' | 'two';
      second?: { signer: string; key: string; commit: string };
    }
  | { counts: false; why: SignatureRefusal };

export type SignatureRefusal =
  | { kind: 'queued' }
  | { kind: 'no-reviewers'; file: string }
  | { kind: 'unsigned'; commit: string }
  | { kind: 'unlisted'; commit: string; key: string }
  | { kind: 'expired'; commit: string; key: string; until: string }
  | { kind: 'not-yet'; commit: string; key: string; from: string }
  | { kind: 'bad'; commit: string }
  | { kind: 'unusable'; commit: string; status: string }
  | { kind: 'self'; commit: string; signer: string }
  | { kind: 'unverified'; commit: string; signer: string };

/** The reviewers file's keys, as the decision needs them. */
export interface ReviewersKeys {
  path: string;
  present: boolean;
  lines: readonly SignerLine[];
}

/** What the decision knows beyond git: the time of the push, and the server's authenticated pusher (docs/server.md). */
export interface JudgeContext {
  now: number;
  pusher?: string | null;
}

/** The reviewers file's key lines (none when it is missing or unreadable). */
export function reviewerKeys(file: ReviewersFile): ReviewersKeys {
  return {
    path: file.name,
    present: file.present,
    lines: file.present ? parseAllowedSigners(readReviewers(file)) : [],
  };
}

type Standing = { ok: true; sig: CommitSignature; principals: string[] } | { ok: false; why: SignatureRefusal };

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One signature judged now: git's `%G?` for the signature itself, then the key's lines of the
 * file for its validity at `now` (git used the committer date) and every principal it may claim.
 */
export function standingOf(sig: CommitSignature, lines: readonly SignerLine[], now: number): Standing {
  const { commit, status, key } = sig;
  if (status === 'N') return { ok: false, why: { kind: 'unsigned', commit } };
  if (status === 'B') return { ok: false, why: { kind: 'bad', commit } };
  const listed = key ? lines.filter((l) => l.key === key && !l.certAuthority) : [];
  const valid = listed.filter((l) => validity(l, now) === 'valid');
  if ((status === 'G' || status === 'U') && listed.length && !valid.length) {
    const ended = listed.flatMap((l) => (validity(l, now) === 'expired' ? [l.validBefore!] : []));
    if (ended.length) return { ok: false, why: { kind: 'expired', commit, key, until: day(Math.max(...ended)) } };
    return {
      ok: false,
      why: { kind: 'not-yet', commit, key, from: day(Math.min(...listed.map((l) => l.validAfter!))) },
    };
  }
  if (status === 'U') return { ok: false, why: { kind: 'unlisted', commit, key } };
  // G from a line this reader does not take (a certificate authority's): not checkable here.
  if (status !== 'G' || !sig.signer || !valid.length) return { ok: false, why: { kind: 'unusable', commit, status } };
  const principals = [...new Set([sig.signer.toLowerCase(), ...valid.flatMap((l) => l.principals)])];
  return { ok: true, sig, principals };
}

/** Whether the signer of `answer` is, or may be, someone who wrote or signed a commit in `adders`. */
function wroteIt(
  answer: { sig: CommitSignature; principals: string[] },
  adders: ReadonlyArray<{ sig: CommitSignature; standing: Standing }>,
): boolean {
  return adders.some(
    ({ sig, standing }) =>
      principalMatches(sig.author, answer.principals) ||
      (sig.key !== '' && sig.key === answer.sig.key) ||
      (sig.signer !== '' && principalMatches(sig.signer, answer.principals)) ||
      (standing.ok && principalsOverlap(standing.principals, answer.principals)),
  );
}

/**
 * Whether the answers to one finding (the commits carrying its rows, newest first; none: only
 * queued) open the gate (docs/gate.md "Signed answers"). An answer counts when its commit has a
 * good signature by a key the file lists and that is valid `now`, and none of the principals of
 * that key's lines is the author or signer of a commit in `adders` (those that add the finding).
 * Where every such commit is signed by a listed key, one answer is enough; else the author is
 * only what the pusher wrote, and it takes a second listed reviewer (another key, no principal
 * in common) or a server-authenticated pusher who is not the signer. A refusal names the newest
 * answer's reason.
 */
export function judgeAnswers(
  answers: readonly CommitSignature[],
  adders: readonly CommitSignature[],
  file: ReviewersKeys,
  context: JudgeContext,
): SignatureVerdict {
  if (answers.length === 0) return { counts: false, why: { kind: 'queued' } };
  if (!file.present) return { counts: false, why: { kind: 'no-reviewers', file: file.path } };
  const added = adders.map((sig) => ({ sig, standing: standingOf(sig, file.lines, context.now) }));
  const verified = added.length > 0 && added.every((a) => a.standing.ok);
  let first: SignatureRefusal | undefined;
  const good: Array<{ sig: CommitSignature; principals: string[] }> = [];
  for (const sig of answers) {
    const s = standingOf(sig, file.lines, context.now);
    if (!s.ok) first ??= s.why;
    else if (wroteIt(s, added)) first ??= { kind: 'self', commit: sig.commit, signer: sig.signer };
    else if (!good.some((g) => g.sig.key === sig.key || principalsOverlap(g.principals, s.principals))) good.push(s);
  }
  const [one, two] = good;
  if (!one) return { counts: false, why: first! };
  const counted = (g: typeof one, how: 'verified' | 'pusher' | 'two'): SignatureVerdict => ({
    counts: true,
    signer: g.sig.signer,
    key: g.sig.key,
    date: g.sig.date,
    commit: g.sig.commit,
    how,
    ...(how === 'two' && two ? { second: { signer: two.sig.signer, key: two.sig.key, commit: two.sig.commit } } : {}),
  });
  if (verified) return counted(one, 'verified');
  const pusher = context.pusher;
  const notPusher = pusher ? good.find((g) => !pusherIs(pusher, g.principals)) : undefined;
  if (notPusher) return counted(notPusher, 'pusher');
  if (two) return counted(one, 'two');
  return { counts: false, why: { kind: 'unverified', commit: one.sig.commit, signer: one.sig.signer } };
}
