/**
 * A fast reader for the plain YAML that concept frontmatter is made of: block mappings and
 * sequences, one-line flow collections, plain and quoted one-line scalars, comments. It gives
 * exactly what js-yaml's core schema gives for such text (test/bundle/yaml-lite.property.test.ts
 * holds the two side by side), about ten times faster, and null for anything else (anchors,
 * tags, block scalars, multi-line scalars, tabs, duplicate keys, odd indentation...), which then
 * goes to js-yaml. Parsing is most of what a fresh clone pays to load a large bundle.
 */

export interface LiteResult {
  data: Record<string, unknown>;
  /** File line (the frontmatter's first line is file line 2) of the value at `path`; as frontmatter.ts. */
  lineAt(path: ReadonlyArray<string | number>): number;
}

import { bail, quoted, resolvePlain, Unsupported } from './yaml-scalar.js';

/** Where a value starts, and (for collections) where each member does. */
interface Place {
  line: number;
  keys?: Map<string, Place>;
  items?: Place[];
}

// What gives a plain scalar (or key) another meaning when it comes first; `-`, `?` and `:`
// only when a space or the end follows (`-1` and `-x` are plain).
const INDICATOR = /^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?: |$))/;

export function parseLite(source: string): LiteResult | null {
  // Tabs, CRs, control characters and a BOM: js-yaml's rules there are subtle; leave them to it.
  if (/[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]/.test(source)) return null;
  try {
    const lines = source.split('\n');
    const reader = new Reader(lines);
    const root: Place = { line: 1 };
    const data = reader.start(root);
    return {
      data,
      lineAt(path) {
        let place: Place = root;
        let line = 1;
        for (const key of path) {
          const next = typeof key === 'number' && place.items ? place.items[key] : place.keys?.get(String(key));
          if (!next) return line;
          line = next.line;
          place = next;
        }
        return line;
      },
    };
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/** Deeper than this goes to js-yaml, which reports it (frontmatter.ts MAX_DEPTH). */
const MAX_DEPTH = 32;

class Reader {
  private i = 0;
  private depth = 0;
  constructor(private readonly lines: string[]) {}

  private enter(): void {
    if (++this.depth > MAX_DEPTH) bail();
  }

  /** The root mapping (an empty document is an empty mapping). */
  start(root: Place): Record<string, unknown> {
    this.skipBlank();
    if (this.i >= this.lines.length) return {};
    const { indent } = this.peek()!;
    if (indent !== 0) bail();
    const data = this.mapping(0, root);
    this.skipBlank();
    if (this.i < this.lines.length) bail();
    return data;
  }

  private skipBlank(): void {
    while (this.i < this.lines.length && /^ *(?:#.*)?$/.test(this.lines[this.i]!)) this.i++;
  }

  private peek(): { indent: number; text: string } | null {
    this.skipBlank();
    const line = this.lines[this.i];
    if (line === undefined) return null;
    const indent = line.length - line.trimStart().length;
    return { indent, text: line.slice(indent) };
  }

  /** A block mapping whose keys sit at column `indent`; `first` is the text of its first entry when it shares a line (`- key: v`). */
  private mapping(indent: number, place: Place, first?: { text: string; line: number }): Record<string, unknown> {
    this.enter();
    const data: Record<string, unknown> = {};
    place.keys = new Map();
    let pending = first;
    while (true) {
      let text: string;
      let line: number;
      if (pending) {
        ({ text, line } = pending);
        pending = undefined;
      } else {
        const next = this.peek();
        if (!next || next.indent < indent) break;
        if (next.indent > indent) bail();
        text = next.text;
        line = this.i + 2;
        this.i++;
      }
      const { key, rest } = splitKey(text);
      if (key === '__proto__' || place.keys.has(key)) bail(); // js-yaml's errors and objects for these
      const child: Place = { line };
      place.keys.set(key, child);
      data[key] = this.value(rest, indent, child, true);
    }
    this.depth--;
    return data;
  }

  /** A block sequence whose `-` sit at column `indent`. */
  private sequence(indent: number, place: Place): unknown[] {
    this.enter();
    const items: unknown[] = [];
    place.items = [];
    while (true) {
      const next = this.peek();
      if (!next || next.indent !== indent || !/^-(?: |$)/.test(next.text)) {
        if (next && next.indent > indent) bail();
        break;
      }
      const line = this.i + 2;
      this.i++;
      const after = next.text.slice(1);
      const gap = after.length - after.trimStart().length;
      const rest = after.trimStart();
      const child: Place = { line };
      place.items.push(child);
      if (rest !== '' && !rest.startsWith('#') && looksLikeKey(rest)) {
        // `- key: value`: a mapping whose keys sit where this first key does.
        items.push(this.mapping(indent + 1 + gap, child, { text: rest, line }));
      } else items.push(this.value(rest, indent, child, false));
    }
    this.depth--;
    return items;
  }

  /**
   * The value after `key:` or `-`: inline, or a nested block on the following lines. A key's
   * place is its own line; an item's is where its value starts (as js-yaml's events say).
   */
  private value(rest: string, indent: number, place: Place, ofKey: boolean): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.peek();
      if (next && next.indent > indent) {
        if (!ofKey) place.line = this.i + 2;
        return /^-(?: |$)/.test(next.text) ? this.sequence(next.indent, place) : this.mapping(next.indent, place);
      }
      // `key:` then `- item` at the key's own column: a sequence, as YAML allows.
      if (ofKey && next && next.indent === indent && /^-(?: |$)/.test(next.text)) return this.sequence(indent, place);
      return null;
    }
    const value = inline(rest, place, this.depth);
    // A plain scalar continued on the next line, or anything indented under an inline value.
    const next = this.peek();
    if (next && next.indent > indent) bail();
    return value;
  }
}

/** `key: rest` (plain or quoted key); anything else is not for this reader. */
function splitKey(text: string): { key: string; rest: string } {
  let key: string;
  let after: number;
  if (text[0] === '"' || text[0] === "'") {
    const q = quoted(text, 0);
    key = q.value;
    after = q.end;
    while (text[after] === ' ') after++;
    if (text[after] !== ':') bail();
  } else {
    if (INDICATOR.test(text)) bail();
    after = colonAt(text);
    if (after === -1) bail();
    key = text.slice(0, after).trimEnd();
    if (/ #/.test(key)) bail();
    key = String(resolvePlain(key));
  }
  const rest = text.slice(after + 1);
  if (rest !== '' && rest[0] !== ' ') bail();
  return { key, rest: rest.trim() };
}

/** Whether `text` starts a `key: value` pair (a `:` followed by a space or the end, before any comment). */
function looksLikeKey(text: string): boolean {
  if (text[0] === '"' || text[0] === "'") {
    try {
      const q = quoted(text, 0);
      return /^ *:(?: |$)/.test(text.slice(q.end));
    } catch {
      return false;
    }
  }
  if (text[0] === '[' || text[0] === '{') return false;
  const at = colonAt(text);
  return at !== -1 && !/ #/.test(text.slice(0, at));
}

function colonAt(text: string): number {
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    if (i + 1 === text.length || text[i + 1] === ' ') return i;
  }
  return -1;
}

/** An inline value: a quoted scalar, a one-line flow collection, or a plain scalar; then only a comment. */
function inline(text: string, place: Place, depth: number): unknown {
  const c = text[0]!;
  let value: unknown;
  let end: number;
  if (c === '"' || c === "'") ({ value, end } = quoted(text, 0));
  else if (c === '[' || c === '{') ({ value, end } = flow(text, 0, place, depth + 1));
  else {
    if (INDICATOR.test(text)) bail();
    const comment = text.search(/ #/);
    const plain = (comment === -1 ? text : text.slice(0, comment)).trimEnd();
    if (colonAt(plain) !== -1) bail();
    return resolvePlain(plain);
  }
  const tail = text.slice(end).trimStart();
  if (tail !== '' && !(tail.startsWith('#') && /^ /.test(text.slice(end)))) bail();
  return value;
}

/** A flow sequence or mapping that closes on the same line. */
function flow(text: string, at: number, place: Place, depth: number): { value: unknown; end: number } {
  if (depth > MAX_DEPTH) bail();
  const open = text[at];
  const close = open === '[' ? ']' : '}';
  const seq: unknown[] = [];
  const map: Record<string, unknown> = {};
  if (open === '[') place.items = [];
  else place.keys = new Map();
  let i = at + 1;
  const spaces = () => {
    while (text[i] === ' ') i++;
  };
  const scalar = (inKey: boolean): { value: unknown; key: string } => {
    spaces();
    const c = text[i];
    if (c === '"' || c === "'") {
      const q = quoted(text, i);
      i = q.end;
      return { value: q.value, key: q.value };
    }
    if (c === '[' || c === '{') {
      if (inKey) bail();
      const child: Place = { line: place.line };
      const f = flow(text, i, child, depth + 1);
      i = f.end;
      return { value: f.value, key: '' };
    }
    let j = i;
    while (j < text.length && !',[]{}'.includes(text[j]!) && !(text[j] === ':' && (text[j + 1] === ' ' || ',]}'.includes(text[j + 1] ?? ',')))) j++;
    const plain = text.slice(i, j).trimEnd();
    if (plain === '' || INDICATOR.test(plain) || / #/.test(plain)) bail();
    i = j;
    const value = resolvePlain(plain);
    return { value, key: String(value) };
  };
  spaces();
  if (text[i] === close) return { value: open === '[' ? seq : map, end: i + 1 };
  while (true) {
    if (open === '[') {
      const item = scalar(false);
      spaces();
      if (text[i] === ':') bail(); // a one-pair mapping inside a sequence
      seq.push(item.value);
      place.items!.push({ line: place.line });
    } else {
      const key = scalar(true);
      spaces();
      if (text[i] !== ':') bail();
      i++;
      if (text[i] !== ' ' && text[i] !== ',' && text[i] !== close) bail();
      const name = key.key;
      if (name === '__proto__' || place.keys!.has(name)) bail();
      spaces();
      const child: Place = { line: place.line };
      place.keys!.set(name, child);
      if (text[i] === ',' || text[i] === close) map[name] = null;
      else map[name] = scalar(false).value;
      spaces();
    }
    if (text[i] === ',') {
      i++;
      spaces();
      if (text[i] === close) return { value: open === '[' ? seq : map, end: i + 1 };
      continue;
    }
    if (text[i] === close) return { value: open === '[' ? seq : map, end: i + 1 };
    return bail();
  }
}
