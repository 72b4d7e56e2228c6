/**
 * Credentials written the way they are really leaked, with no provider's prefix to lean on
 * (issue 58, docs/review.md "Credential formats and where they come from"): a private key
 * wrapped once more in base64 (a kubeconfig's `client-key-data`), a registry login in a
 * container config's `auth` (base64 of `user:password`), a password passed as a command-line
 * flag in a script or Makefile, and the machine-credential files (`.netrc`, `.pgpass`,
 * `.git-credentials`). Each pattern holds a literal (its needle: clean commits pay nothing, see
 * ../credential-screen.ts) and the reject decodes or reads the value: a reference (`$PASS`,
 * `${{ secrets.X }}`, `$(cat …)`), a placeholder or a word is not a credential.
 */
import type { BuiltinFamily } from './define.js';
import type { RuleDrop } from '../engine/rules.js';
import { secret } from './secrets.js';
import { characterClasses, entropy, isPlaceholder, placeholderDrop } from './secret-shape.js';

/** A private key block's header, as in ./secrets.ts. */
const KEY_HEADER = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/** base64 text decoded as latin1 (every byte kept), or null when it is not base64. */
function decoded(text: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  return Buffer.from(text, 'base64').toString('latin1');
}

/** `-----BEGIN …` in base64: a private key block with material after its header, once decoded. */
function notAWrappedKey(match: RegExpExecArray): boolean | RuleDrop {
  const text = decoded(match[0].slice(0, match[0].length - (match[0].length % 4)));
  const header = text === null ? null : KEY_HEADER.exec(text);
  if (!header) return true; // a certificate or a public key, wrapped
  const rest = text!.slice(header.index + header[0].length);
  const end = rest.indexOf('-----END ');
  // Header fields (`Proc-Type: …`) and blank lines skipped, as in ./pem.ts.
  const body = (end === -1 ? rest : rest.slice(0, end))
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^[\w-]+:\s/.test(line));
  const material = body.find((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));
  if (!material) return true;
  return isPlaceholder(material) ? placeholderDrop(material) : false;
}

/** A registry login: `user:password` in base64, the password real-looking. */
function notALogin(match: RegExpExecArray): boolean | RuleDrop {
  const text = decoded(match[1]!);
  const login = text === null ? null : /^([\x21-\x39\x3b-\x7e]{1,128}):([\x20-\x7e]{4,256})$/.exec(text);
  if (!login) return true;
  return notAPassword(login[2]!, login[1]!);
}

/** Words that stand for a password in examples and defaults, not a password. */
const STAND_INS =
  /^(?:root|admin|administrator|postgres|mysql|user|guest|pass|passwd|pwd|test|demo|default|none|null|empty|secret|password|changeit|changeme|letmein|welcome|foobar|foo|bar)$/i;

/**
 * A literal password that looks chosen, not a reference, template, placeholder or stand-in: at
 * least 6 characters of two classes, or 10 of good spread (a passphrase of words).
 */
function notAPassword(value: string, user = ''): boolean | RuleDrop {
  if (/^[$%{<]|\$\{|\$\(|\{\{|%\(|`/.test(value) || value === user || STAND_INS.test(value)) return true;
  // A port mapping (`docker run … mysql … -p3306:3306`), not mysql's password.
  if (/^\d+(?::\d+)*(?:\/\w+)?$/.test(value)) return true;
  const random = (value.length >= 6 && characterClasses(value) >= 2) || (value.length >= 10 && entropy(value) >= 3);
  if (!random) return true;
  return placeholderDrop(value);
}

/** A URL's password as typed (`p%40ss` is `p@ss`), or as written when it is no valid escape. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The value a flag or field holds, its quotes off. */
const unquoted = (value: string) => value.replace(/^(["'])(.*)\1$/, '$2');

export const family: BuiltinFamily = {
  section: 'secrets',
  credential: true,
  specs: () => [
    secret({
      id: 'wrapped-private-key',
      // `-----BEGIN ` in base64 starts `LS0tLS1CRUdJTi` (kubeconfig client-key-data, a Helm
      // value, a CI variable): the block is read once decoded.
      regex: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}/g,
      title: 'Private key committed, wrapped in base64',
      what: 'A private key block is added, base64-encoded (as kubeconfig client-key-data holds one).',
      confidence: 0.95,
      reject: notAWrappedKey,
    }),
    secret({
      id: 'registry-auth',
      // A container registry login as docker's config.json (and .dockercfg, a Kubernetes
      // dockerconfigjson) holds it: `"auth": "<base64 of user:password>"`.
      regex: /"auth"\s*:\s*"([A-Za-z0-9+/]{8,}={0,2})"/g,
      title: 'Container registry login committed',
      what: 'A container registry login (the base64 of user:password in an "auth" field) is added.',
      confidence: 0.9,
      reject: notALogin,
    }),
    secret({
      id: 'password-flag',
      // A password given on a command line: `--password=…`/`--password …` (mysqldump, psql
      // wrappers, docker login, most CLIs), mysql's `-p<password>` and `sshpass -p …`.
      regex:
        /--pass(?:word|wd)?(?:=|[ \t]+)("[^"\s]{1,256}"|'[^'\s]{1,256}'|[^\s"'`;|&)]{1,256})|\bmysql(?:dump|admin|import|check|slap|pump|sh)?\b[^|;&\n]{0,200}?[ \t]-p("[^"\s]{1,256}"|'[^'\s]{1,256}'|[^\s"'`;|&)]{1,256})|\bsshpass\b[ \t]+(?:-[a-oq-z]\S*[ \t]+){0,4}-p[ \t]*("[^"\s]{1,256}"|'[^'\s]{1,256}'|[^\s"'`;|&)]{1,256})/g,
      title: 'Password passed on a command line committed',
      what: 'A password is written into a command (--password=…, mysql -p…, sshpass -p …): pass it from the environment or a secret store.',
      confidence: 0.85,
      // Documentation shows commands with made-up passwords.
      exclude: ['**/*.{md,mdx,rst,adoc,txt}'],
      reject: (match) => notAPassword(unquoted((match[1] ?? match[2] ?? match[3])!)),
    }),
    secret({
      id: 'netrc-password',
      // `.netrc` (curl, git, ftp; `_netrc` on Windows): `machine … login … password …`, on
      // one line or over several.
      regex: /^\s*(?:(?:machine\s+\S+|default)\s+)?(?:login\s+\S+\s+)?password\s+(\S+)/g,
      title: 'Password in a .netrc committed',
      what: 'A .netrc entry with its password is added: it logs in to the machine it names.',
      confidence: 0.9,
      paths: ['**/.netrc', '**/_netrc', '**/.netrc.*'],
      reject: (match) => notAPassword(unquoted(match[1]!)),
    }),
    secret({
      id: 'pgpass-password',
      // PostgreSQL's password file: `host:port:database:user:password`, on the default ports
      // (5432-5439, pgbouncer's 6432) or any (`*`), which give the pattern its needle.
      regex: /^[^:\s#]+(?::543\d:|:6432:|:\*:)[^:\s]+:[^:\s]+:(\S+)$/g,
      title: 'Password in a .pgpass committed',
      what: 'A .pgpass line with its password is added: it logs in to the database it names.',
      confidence: 0.9,
      paths: ['**/.pgpass', '**/pgpass', '**/*.pgpass', '**/pgpass.conf'],
      reject: (match) => notAPassword(match[1]!),
    }),
    secret({
      id: 'git-credentials',
      // git's credential store: one `https://user:token@host` a line.
      regex: /^\s*https?:\/\/([^\s:/@]+):([^\s@/]+)@/g,
      title: 'Password in a .git-credentials committed',
      what: "A line of git's credential store with its password or token is added.",
      confidence: 0.9,
      paths: ['**/.git-credentials', '**/git-credentials'],
      reject: (match) => notAPassword(percentDecoded(match[2]!), match[1]),
    }),
  ],
};
