/**
 * The reviewers file read as ssh-keygen reads it (ssh-keygen(1) "ALLOWED SIGNERS"): each line's
 * principals (comma-separated, `*` and `?` patterns), its options and its key, named by the
 * fingerprint git prints as `%GK`. git judges a signature at the committer date, which the signer
 * chooses; the gate judges the key's `valid-after`/`valid-before` at the push instead, and
 * compares people with every principal of the line, not only `%GS` (docs/gate.md "Signed answers").
 */
import { createHash } from 'node:crypto';

export interface SignerLine {
  /** As written, lower-cased; a `!` negation keeps its pattern (see principalMatches). */
  principals: string[];
  /** `SHA256:` and the unpadded base64 of the key's SHA-256, as git's `%GK`. */
  key: string;
  /** Milliseconds since the epoch; absent: no bound. */
  validAfter?: number;
  validBefore?: number;
  certAuthority: boolean;
}

/** A key type as OpenSSH names it: what tells the key field from the options field. */
const KEY_TYPE =
  /^(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(?:-cert-v01@openssh\.com)?$/;

/** One field: up to unquoted white space (a quoted part keeps its spaces, its quotes removed). */
function field(line: string, from: number): { text: string; end: number } {
  let i = from;
  let text = '';
  let quoted = false;
  for (; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ' ' || ch === '\t')) break;
    else text += ch;
  }
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return { text, end: i };
}

/**
 * ssh-keygen's time forms: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, in local time unless a `Z`
 * ends it. Anything else: NaN (the line then lists nobody, as ssh-keygen refuses it).
 */
export function signerTime(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/i.exec(text);
  if (!m) return Number.NaN;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7).map((v) => v ?? '0') as string[];
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  return m[7] ? Date.UTC(...parts) : new Date(...parts).getTime();
}

/** The lines of an allowed_signers text that name a key (comments, blank and broken lines left out). */
export function parseAllowedSigners(text: string): SignerLine[] {
  const out: SignerLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const principals = field(line, 0);
    let next = field(line, principals.end);
    let options = '';
    if (!KEY_TYPE.test(next.text)) {
      options = next.text;
      next = field(line, next.end);
    }
    if (!KEY_TYPE.test(next.text)) continue;
    const blob = field(line, next.end).text;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) continue;
    const entry: SignerLine = {
      principals: principals.text
        .toLowerCase()
        .split(',')
        .filter((p) => p !== ''),
      key: `SHA256:${createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '')}`,
      certAuthority: false,
    };
    let broken = false;
    for (const option of options ? options.split(',') : []) {
      const [name, value = ''] = option.split(/=(.*)/s) as [string, string?];
      const lower = name.toLowerCase();
      if (lower === 'cert-authority') entry.certAuthority = true;
      else if (lower === 'valid-after' || lower === 'valid-before') {
        const t = signerTime(value);
        if (Number.isNaN(t)) broken = true;
        else if (lower === 'valid-after') entry.validAfter = t;
        else entry.validBefore = t;
      }
    }
    if (!broken && entry.principals.length) out.push(entry);
  }
  return out;
}

/** OpenSSH's wildcard match (`*` any run, `?` one character), whole string, case aside. */
function wildcard(pattern: string, text: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 'is').test(text);
}

/**
 * Whether `identity` is one of `principals` (a name or a pattern). A negated pattern (`!x`) counts
 * as naming x: for "is this the same person" the gate errs towards yes, since a yes only asks for
 * a second person.
 */
export function principalMatches(identity: string, principals: readonly string[]): boolean {
  const who = identity.toLowerCase();
  return who !== '' && principals.some((p) => wildcard(p.replace(/^!/, ''), who));
}

/** Whether two lines' principals can name one person (either's name matches the other's patterns). */
export function principalsOverlap(a: readonly string[], b: readonly string[]): boolean {
  return (
    a.some((p) => principalMatches(p.replace(/^!/, ''), b)) || b.some((p) => principalMatches(p.replace(/^!/, ''), a))
  );
}

/**
 * Whether a hosting's user name or e-mail (the authenticated pusher, docs/server.md) names someone
 * `principals` list: a principal or pattern, or the part before `@` of one.
 */
export function pusherIs(pusher: string, principals: readonly string[]): boolean {
  const local = principals.map((p) => p.replace(/^!/, '').replace(/@.*$/s, ''));
  return principalMatches(pusher, principals) || principalMatches(pusher, local);
}

/** Where `now` stands in a line's validity: inside it, past its end, or before its start. */
export function validity(line: SignerLine, now: number): 'valid' | 'expired' | 'not-yet' {
  if (line.validBefore !== undefined && now > line.validBefore) return 'expired';
  if (line.validAfter !== undefined && now < line.validAfter) return 'not-yet';
  return 'valid';
}
