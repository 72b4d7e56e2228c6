/**
 * A private key block, not code that only names its header (`pem.startsWith('-----BEGIN …')`)
 * nor a documented placeholder: key material follows the header on the next added lines (a PEM
 * file), or after an escaped newline on the same line (a key inside a JSON or JS string).
 * Encrypted keys carry RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`) and a blank
 * line before the body; PGP blocks carry `Version:`/`Comment:` headers: these are skipped.
 */
import type { LineContext, RuleDrop } from '../engine/rules.js';
import { reviewMessages as m } from '../../messages/review.js';
import { isPlaceholder } from './secret-shape.js';

/**
 * Key material that is a placeholder (./secret-shape.ts): an elision, a template, or a line of
 * material whose words cover most of it (a short line is a checksum, `=8xQN`, never one).
 */
const placeholderBody = (line: string) =>
  /^(?:\.\.\.|\u2026)$/.test(line) || /<[^>]*>|\{\{[^}]*\}\}/.test(line) || (line.length >= 16 && isPlaceholder(line));

const KEY_MATERIAL = /^[A-Za-z0-9+/=]{16,}$/;

/** Lines of key material looked at after the headers. */
const BODY_LINES = 3;
/** Header fields and blank lines skipped before the body. */
const MAX_HEADER_LINES = 8;

const unquote = (t: string) =>
  t
    .trim()
    .replace(/^["'`]/, '')
    .replace(/(?<!["'`,;])["'`,;]+$/, '')
    .replace(/\\n$/, '');

export function notAPrivateKey(match: RegExpExecArray, text: string, context: LineContext): boolean | RuleDrop {
  const after = text.slice(match.index + match[0].length);
  // Inside a string: "-----BEGIN … KEY-----\n[Proc-Type: …\n…\n\n]MIIE…"
  const inline = /^(?:\\r)?\\n((?:[\w-]+: [^\\]*\\n)*(?:(?:\\r)?\\n)?)([A-Za-z0-9+/=]{16,})/.exec(after);
  if (inline) return placeholderBody(inline[2]!) ? drop(inline[2]!) : false;
  // A header alone on its line (once quotes are taken off); a second header on it says no at
  // once (reading the whole line again for each of many headers would be quadratic).
  if (text.indexOf('-----BEGIN ', match.index + 1) !== -1) return true;
  // Or the header ends a string that the next lines go on (`("-----BEGIN …-----\\n"` then `"MIIE…\\n"`).
  if (unquote(text) !== match[0] && !/^(?:\\r)?\\n["'`]\s*[,+)]*\s*$/.test(after)) return true;
  const { added, index } = context;
  const body: string[] = [];
  let headers = 0;
  for (let k = index + 1; k < added.length && body.length < BODY_LINES; k++) {
    if (added[k]!.line !== added[index]!.line + (k - index)) break; // the block goes on in lines not added
    const t = unquote(added[k]!.text);
    if (body.length === 0 && (t === '' || /^[\w-]+:\s/.test(t) || (/^\s/.test(added[k]!.text) && /:/.test(t)))) {
      if (++headers > MAX_HEADER_LINES) break;
      continue;
    }
    if (/^-----END /.test(t)) break;
    body.push(t);
  }
  const placeholder = body.find((t) => placeholderBody(t));
  if (placeholder !== undefined) return drop(placeholder);
  // A key file (id_rsa, *.pem, *.key) that opens a private key block is a key committed, whatever follows.
  if (KEY_FILE.test(context.path)) return false;
  return !body.some((t) => KEY_MATERIAL.test(t));
}

const KEY_FILE = /(?:^|\/)(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|[^/]+\.(?:pem|key|p8))$/;

function drop(body: string): RuleDrop {
  return {
    reason: 'placeholder',
    why: m.placeholderKey(`a private key block whose body reads "${body.slice(0, 24)}"`),
  };
}
