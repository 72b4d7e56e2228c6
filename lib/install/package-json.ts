/**
 * The lifecycle script that sets the hooks up in a teammate's fresh clone (docs/hooks.md,
 * "Fresh clones"). The file is edited as text, never re-serialised: only the inserted property
 * or value changes, so a compact or hand-laid-out package.json keeps its layout and uninstall,
 * which cuts out exactly that text again, gives back the same bytes.
 */
import { writeFileAtomic } from '../core/fs/atomic.js';
import { FileShapeError, readFailure, readRegularFile } from '../core/fs/read.js';
import { packageJsonMessages as pm } from '../messages/install.js';

interface PackageJson {
  scripts?: unknown;
  [key: string]: unknown;
}

export async function readPackage(file: string): Promise<{ text: string; json: PackageJson } | null> {
  let text: string;
  try {
    // Only a regular file: a package.json committed as a link to /dev/zero is bad JSON, not a hang.
    text = readRegularFile(file, { maxBytes: 16 * 1024 * 1024 }).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof FileShapeError) throw new SyntaxError(readFailure(error));
    return null;
  }
  const json = JSON.parse(text) as unknown;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new SyntaxError(pm.notObject);
  return { text, json: json as PackageJson };
}

export type ScriptOutcome =
  | { kind: 'none' } // no package.json
  | { kind: 'added'; scriptsCreated: boolean }
  | { kind: 'kept'; value: string };

/**
 * The top-level object `section` of the package ("scripts", or a tool's config such as
 * "simple-git-hooks"); every edit below works on one such section, "scripts" unless named.
 */
function scriptsOf(json: PackageJson, section = 'scripts'): Record<string, unknown> | undefined {
  const scripts = json[section];
  if (scripts !== undefined && (scripts === null || typeof scripts !== 'object' || Array.isArray(scripts))) {
    throw new SyntaxError(pm.sectionNotObject(section));
  }
  return scripts as Record<string, unknown> | undefined;
}

/** Adds scripts[name] = value when the package has no such script. Throws SyntaxError on bad JSON. */
export async function addScript(
  file: string,
  name: string,
  value: string | boolean,
  section = 'scripts',
): Promise<ScriptOutcome> {
  const pkg = await readPackage(file);
  if (!pkg) return { kind: 'none' };
  const { json, text } = pkg;
  const existing = scriptsOf(json, section)?.[name];
  if (typeof existing === 'string') return { kind: 'kept', value: existing };
  if (existing !== undefined) return { kind: 'kept', value: JSON.stringify(existing) };
  const root = objectAt(text, skipSpace(text, 0));
  const scriptsProp = lastProp(root, section);
  const literal = JSON.stringify(value);
  const out = scriptsProp
    ? insertProperty(text, objectAt(text, scriptsProp.valueStart), JSON.stringify(name), literal, root)
    : insertProperty(text, root, JSON.stringify(section), { key: JSON.stringify(name), value: literal }, root);
  await writeFileAtomic(file, out);
  return { kind: 'added', scriptsCreated: scriptsProp === undefined };
}

/** Removes scripts[name] if it is still `value` (and `scripts` too when install created it). */
export async function removeScript(
  file: string,
  name: string,
  value: string | boolean,
  scriptsCreated: boolean,
  section = 'scripts',
): Promise<boolean> {
  const pkg = await readPackage(file);
  const scripts = pkg ? scriptsOf(pkg.json, section) : undefined;
  if (!pkg || !scripts || scripts[name] !== value) return false;
  const { text } = pkg;
  const root = objectAt(text, skipSpace(text, 0));
  const scriptsProp = lastProp(root, section)!;
  const out =
    scriptsCreated && Object.keys(scripts).length === 1
      ? removeProperty(text, root, scriptsProp)
      : (() => {
          const obj = objectAt(text, scriptsProp.valueStart);
          return removeProperty(text, obj, lastProp(obj, name)!);
        })();
  await writeFileAtomic(file, out);
  return true;
}

/**
 * Replaces the value of scripts[name] when it is `from`: `to` is written as the JSON text given
 * (`toLiteral`) or as JSON.stringify(to). Returns the value's text as it was (to restore it
 * byte for byte), or null when the script is not `from`.
 */
export async function replaceScript(
  file: string,
  name: string,
  from: string,
  to: { value: string } | { literal: string },
  section = 'scripts',
): Promise<string | null> {
  const pkg = await readPackage(file);
  const scripts = pkg ? scriptsOf(pkg.json, section) : undefined;
  if (!pkg || !scripts || scripts[name] !== from) return null;
  const { text } = pkg;
  const root = objectAt(text, skipSpace(text, 0));
  const obj = objectAt(text, lastProp(root, section)!.valueStart);
  const prop = lastProp(obj, name)!;
  const literal = 'literal' in to ? to.literal : JSON.stringify(to.value);
  await writeFileAtomic(file, text.slice(0, prop.valueStart) + literal + text.slice(prop.end));
  return text.slice(prop.valueStart, prop.end);
}

// --- a minimal JSON layout scanner: positions of an object's properties ---

interface Prop {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  valueStart: number;
  /** Offset just past the value. */
  end: number;
}

interface ObjectSpan {
  open: number;
  /** Offset of the closing brace. */
  close: number;
  props: Prop[];
}

/** The last property of that name: the one JSON.parse reads. */
function lastProp(obj: ObjectSpan, key: string): Prop | undefined {
  return obj.props.filter((p) => p.key === key).at(-1);
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /[\s\uFEFF]/.test(text[i]!)) i++;
  return i;
}

function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new SyntaxError(pm.unterminatedString);
}

function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') if (--depth === 0) return j + 1;
    }
    throw new SyntaxError(pm.unterminatedValue);
  }
  let j = i;
  while (j < text.length && /[^\s,\]}]/.test(text[j]!)) j++;
  return j;
}

function objectAt(text: string, open: number): ObjectSpan {
  if (text[open] !== '{') throw new SyntaxError(pm.notObject);
  const props: Prop[] = [];
  let i = skipSpace(text, open + 1);
  while (text[i] !== '}') {
    const start = i;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') throw new SyntaxError(pm.expectedColon);
    const valueStart = skipSpace(text, i + 1);
    const end = valueEnd(text, valueStart);
    props.push({ key, start, valueStart, end });
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] !== '}') throw new SyntaxError(pm.expectedCommaOrBrace);
  }
  return { open, close: i, props };
}

function lineIndent(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The file's layout habits, read from the object being edited (else the root object). */
function styleOf(text: string, obj: ObjectSpan, root: ObjectSpan) {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sample = obj.props[0] ?? root.props[0];
  const colon = sample && /:\s/.test(text.slice(stringEnd(text, sample.start), sample.valueStart)) ? ': ' : ':';
  const ref = obj.props.length ? obj : root;
  const multiline = text.slice(ref.open, ref.close).includes('\n');
  const unit = root.props.length ? lineIndent(text, root.props[0]!.start) || '  ' : '  ';
  const spaced = ref.props.length > 1 ? /,\s/.test(text.slice(ref.props[0]!.end, ref.props[1]!.start)) : colon === ': ';
  const comma = spaced ? ', ' : ',';
  const pad = !multiline && ref.props.length > 0 && /\s/.test(text[ref.open + 1] ?? '') ? ' ' : '';
  return { eol, colon, multiline, unit, comma, pad };
}

/** Inserts `key: value` (JSON texts) as the last property of obj; an object value: a new one-property object. */
function insertProperty(
  text: string,
  obj: ObjectSpan,
  key: string,
  value: string | { key: string; value: string },
  root: ObjectSpan,
): string {
  const s = styleOf(text, obj, root);
  const indent = obj.props.length ? lineIndent(text, obj.props.at(-1)!.start) : lineIndent(text, obj.open) + s.unit;
  const nested = (base: string, inner: { key: string; value: string }) =>
    s.multiline
      ? `{${s.eol}${base}${s.unit}${inner.key}${s.colon}${inner.value}${s.eol}${base}}`
      : `{${s.pad}${inner.key}${s.colon}${inner.value}${s.pad}}`;
  const property = `${key}${s.colon}${typeof value === 'string' ? value : nested(indent, value)}`;
  if (obj.props.length) {
    const last = obj.props.at(-1)!;
    const sep = s.multiline ? `,${s.eol}${indent}` : s.comma;
    return text.slice(0, last.end) + sep + property + text.slice(last.end);
  }
  // An empty object: {} becomes { property } laid out like the rest of the file.
  const body = s.multiline
    ? `${s.eol}${indent}${property}${s.eol}${lineIndent(text, obj.open)}`
    : `${s.pad}${property}${s.pad}`;
  return text.slice(0, obj.open + 1) + body + text.slice(obj.close);
}

/** Cuts a property out with its separator; the only property leaves `{}`. */
function removeProperty(text: string, obj: ObjectSpan, prop: Prop): string {
  const index = obj.props.indexOf(prop);
  if (obj.props.length === 1) return text.slice(0, obj.open + 1) + text.slice(obj.close);
  if (index > 0) return text.slice(0, obj.props[index - 1]!.end) + text.slice(prop.end);
  return text.slice(0, prop.start) + text.slice(obj.props[1]!.start);
}
