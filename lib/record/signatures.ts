/**
 * Who signed the commits that carry answers (docs/gate.md "Signed answers"), as git verifies them:
 * `%G?` with `gpg.ssh.allowedSignersFile` set to the policy's reviewers file (git's
 * allowed_signers format), so `G` means a good signature by a key the file lists for the principal
 * `%GS`; `U` a good signature by a key it does not list; `B` one that does not verify (the commit
 * changed after it was signed); `N` none. The user's own `gpg.ssh.allowedSignersFile` and
 * `log.showSignature` never take part.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gitOut } from '../core/git/run.js';
import { contains } from '../core/fs/path.js';
import { readRegularFile } from '../core/fs/read.js';

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

/** The principals a reviewers file lists (its lines' first field; comma-separated patterns as written). */
export function listedPrincipals(file: ReviewersFile): string[] {
  if (!file.present) return [];
  let text: string;
  try {
    text = readRegularFile(file.path, { maxBytes: MAX_REVIEWERS_BYTES }).bytes.toString('utf8');
  } catch {
    return [];
  }
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
  const text = await gitOut(
    [
      '-c',
      `gpg.ssh.allowedSignersFile=${signersFile ?? '/dev/null'}`,
      '-c',
      'log.showSignature=false',
      'log',
      '--no-walk=unsorted',
      '--stdin',
      `--format=${FIELDS.join('%x1f')}`,
    ],
    { cwd, input: `${wanted.join('\n')}\n` },
  );
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
  | { counts: true; signer: string; key: string; date: string }
  | { counts: false; why: SignatureRefusal };

export type SignatureRefusal =
  | { kind: 'queued' }
  | { kind: 'no-reviewers'; file: string }
  | { kind: 'unsigned'; commit: string }
  | { kind: 'unlisted'; commit: string; key: string }
  | { kind: 'bad'; commit: string }
  | { kind: 'unusable'; commit: string; status: string }
  | { kind: 'self'; commit: string; signer: string };

/**
 * Whether an answer carried by `answer` (its commit's signature; none: queued) opens the gate:
 * a good signature by a listed reviewer who is not the author of, nor signed, a commit that
 * added the finding (`adders`). `signersFile` null: the policy names a reviewers file it lacks.
 */
export function judgeSignature(
  answer: CommitSignature | undefined,
  adders: readonly CommitSignature[],
  signersFile: { path: string; present: boolean },
): SignatureVerdict {
  if (!answer) return { counts: false, why: { kind: 'queued' } };
  if (!signersFile.present) return { counts: false, why: { kind: 'no-reviewers', file: signersFile.path } };
  const { commit, status } = answer;
  if (status === 'N') return { counts: false, why: { kind: 'unsigned', commit } };
  if (status === 'U') return { counts: false, why: { kind: 'unlisted', commit, key: answer.key } };
  if (status === 'B') return { counts: false, why: { kind: 'bad', commit } };
  if (status !== 'G' || !answer.signer) return { counts: false, why: { kind: 'unusable', commit, status } };
  const signer = answer.signer.toLowerCase();
  const own = adders.some(
    (a) =>
      a.author.toLowerCase() === signer || (a.key !== '' && a.key === answer.key) || a.signer.toLowerCase() === signer,
  );
  if (own) return { counts: false, why: { kind: 'self', commit, signer: answer.signer } };
  return { counts: true, signer: answer.signer, key: answer.key, date: answer.date };
}
