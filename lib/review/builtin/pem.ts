/**
 * A private key block, not code that only names its header (`pem.startsWith('-----BEGIN …')`)
 * nor a documented placeholder: key material follows the header on the next added lines (a PEM
 * file), or after an escaped newline on the same line (a key inside a JSON or JS string).
 * Encrypted keys carry RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`) and a blank
 * line before the body; PGP blocks carry `Version:`/`Comment:` headers: these are skipped.
 */
import type { LineContext, RuleDrop } from '../engine/rules.js';
import { reviewMessages as m } from '../../messages/review.js';
import { characterClasses, isPlaceholder } from './secret-shape.js';

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

/**
 * What may stand between a header and its body on one line: escaped or CR line ends (a key in a
 * JSON or `.env` string, a file with CR-only line ends, a notebook as compact JSON whose source
 * lines are strings), spaces, and the quotes, commas and `+` that join string pieces. Then RFC
 * 1421 header fields, each ended by a line end, and the material.
 */
const SAME_LINE =
  /^((?:\\[rn]|[ \t\r"'`,+])*)((?:[\w-]+: [^\\\r\n]*(?:\\r\\n|\\n|\r\n?)(?:\\[rn]|[ \t\r"'`,])*)*)([A-Za-z0-9+/=]{16,})/;
/** Text looked at after a header on its own line: header fields and one body line fit well within. */
const SAME_LINE_SPAN = 2048;
/** What may follow a header that ends its line inside a string: an escaped line end, closing quotes, a join. */
const ENDS_LINE = /^(?:\\[rn])*\s*(?:["'`]{1,3})?\s*[,;+)\\]*\s*$/;

export function notAPrivateKey(match: RegExpExecArray, text: string, context: LineContext): boolean | RuleDrop {
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + SAME_LINE_SPAN);
  // On the same line (docs/review.md "Credential formats and where they come from"): "-----BEGIN …-----\n[Proc-Type: …\n…\n\n]MIIE…",
  // CR-only line ends, spaces or nothing between the lines of a flattened key.
  const inline = SAME_LINE.exec(after);
  if (inline) {
    const material = inline[3]!;
    if (placeholderBody(material)) return drop(material);
    // A line break between them (escaped or CR) makes it a block; joined by spaces or nothing,
    // the material must look random for as long as a PEM line (not a sentence's long word).
    const broken = /\\[rn]|\r/.test(inline[1]! + inline[2]!);
    if (broken || (material.length >= 40 && characterClasses(material) >= 3)) return false;
  }
  // A second header on the line says no at once (reading the whole line again for each of many
  // headers would be quadratic).
  if (text.indexOf('-----BEGIN ', match.index + 1) !== -1) return true;
  // A header alone on its line (once quotes are taken off), or one that opens a string going on
  // over the next lines, whatever precedes it: a JS or TS template literal, a Go raw string, a
  // Python triple-quoted string, `("-----BEGIN …-----\\n"` then `"MIIE…\\n"`.
  const alone = unquote(text) === match[0];
  if (!alone && !ENDS_LINE.test(after)) return true;
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
  if (alone && KEY_FILE.test(context.path)) return false;
  // After code on the header's line, the next line must be a key's: a long random run, not a name.
  return !body.some((t) => KEY_MATERIAL.test(t) && (alone || (t.length >= 40 && characterClasses(t) >= 3)));
}

const KEY_FILE = /(?:^|\/)(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|[^/]+\.(?:pem|key|p8))$/;

function drop(body: string): RuleDrop {
  return {
    reason: 'placeholder',
    why: m.placeholderKey(`a private key block whose body reads "${body.slice(0, 24)}"`),
  };
}
