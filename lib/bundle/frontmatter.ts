/**
 * YAML frontmatter of a concept file, with the file line of any key (for `file:line` messages).
 *
 * Parsed with js-yaml's event parser and its safe core schema (no tags that build code or
 * objects), under bounds of our own (docs/bundle.md "Isolation"): nesting depth, at most
 * MAX_ALIASES aliases, and what the aliases expand to at most MAX_EXPANDED values, since a
 * shared node reached a billion times through aliases is a billion values to whoever walks
 * it. Every failure, whatever the parser throws, is a result with a line, never an exception.
 * The parser is loaded on first need: a warm bundle cache (./cache.ts) means most runs never
 * need it.
 */
import type { Event } from 'js-yaml';
import { bundleMessages as m } from '../messages/bundle.js';

export type FrontmatterResult =
  | {
      ok: true;
      data: Record<string, unknown>;
      /** Markdown after the closing `---`. */
      body: string;
      /** File line (1-based) of the value at `path` (a key's line for a mapping entry); the opening line when absent. */
      lineAt(path: ReadonlyArray<string | number>): number;
    }
  | { ok: false; line: number; message: string };

export type SplitResult = { ok: true; source: string; body: string } | { ok: false; line: number; message: string };

export const MAX_ALIASES = 100;
export const MAX_EXPANDED = 10_000;
export const MAX_DEPTH = 64;

const FENCE = /^---[ \t]*$/;
/** A plain key that may read as something other than text (null, a boolean, a number). */
const KEY_MAY_RESOLVE = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+.0-9][-+.0-9A-Za-z_]*)$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/**
 * The YAML between the opening `---` line and the first `---` or `...` line, and the body
 * after it, line ends normalised to `\n`. One pass over the text.
 */
export function splitFrontmatter(input: string): SplitResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let end = text.indexOf('\n');
  const first = stripCr(end === -1 ? text : text.slice(0, end));
  if (!FENCE.test(first)) return { ok: false, line: 1, message: m.noFrontmatter };
  if (end === -1) return { ok: false, line: 1, message: m.frontmatterNotClosed };
  const from = end + 1;
  let start = from;
  while (start <= text.length) {
    end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (CLOSE.test(stripCr(text.slice(start, stop)))) {
      const source = normalise(text.slice(from, Math.max(from, start - 1)));
      const body = end === -1 ? '' : normalise(text.slice(end + 1));
      return { ok: true, source, body };
    }
    if (end === -1) break;
    start = end + 1;
  }
  return { ok: false, line: 1, message: m.frontmatterNotClosed };
}

/** `\r\n` to `\n`, and a `\r` that ends the text dropped (as a line split on `\n` would). */
function normalise(text: string): string {
  const lf = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
  return lf.endsWith('\r') ? lf.slice(0, -1) : lf;
}

export type JsYaml = typeof import('js-yaml');
let library: Promise<JsYaml> | undefined;

/** js-yaml, loaded on first call. */
export function yamlLibrary(): Promise<JsYaml> {
  return (library ??= load());
}

async function load(): Promise<JsYaml> {
  const loaded = await import('js-yaml');
  return typeof loaded.parseEvents === 'function' ? loaded : (loaded as unknown as { default: JsYaml }).default;
}

export async function readFrontmatter(text: string): Promise<FrontmatterResult> {
  const split = splitFrontmatter(text);
  // The parser is loaded only for a frontmatter with something to parse.
  const yaml = split.ok && !isBlank(split.source) ? await (library ??= load()) : null;
  return frontmatterOf(split, yaml);
}

export const isBlank = (source: string) => source.trim() === '';

/** `yaml` may be null only when there is no YAML to parse; `parsed`: the YAML's parse, when already made. */
export function frontmatterOf(split: SplitResult, yaml: JsYaml | null, parsed?: Parsed): FrontmatterResult {
  if (!split.ok) return split;
  const { source, body } = split;
  if (isBlank(source)) return { ok: true, data: {}, body, lineAt: () => 1 };
  const yamlParse = parsed ?? parseWith(yaml!, source);
  if (!yamlParse.ok) return yamlParse;
  return { ok: true, data: yamlParse.data, body, lineAt: yamlParse.lineAt };
}

export type Parsed =
  | { ok: true; data: Record<string, unknown>; lineAt(path: ReadonlyArray<string | number>): number }
  | { ok: false; line: number; message: string };

/** The frontmatter YAML through js-yaml, bounded (see the top of this file). */
export async function parseWithLibrary(source: string): Promise<Parsed> {
  return parseWith(await (library ??= load()), source);
}

export function parseWith(yaml: JsYaml, source: string): Parsed {
  let events: Event[];
  let data: unknown;
  try {
    events = yaml.parseEvents(source, { maxDepth: MAX_DEPTH });
    data = yaml.constructFromEvents(events, { source, maxAliases: MAX_ALIASES })[0];
  } catch (error) {
    const e = error as { reason?: unknown; mark?: { position?: unknown }; message?: unknown };
    const at = typeof e.mark?.position === 'number' ? new LineIndex(source).lineOf(e.mark.position) : 2;
    const why = typeof e.reason === 'string' && e.reason ? e.reason : String(e.message ?? error).split('\n')[0]!;
    if (/maxAliases/.test(why)) return { ok: false, line: at, message: m.tooManyAliases(MAX_ALIASES) };
    if (/maxDepth/.test(why)) return { ok: false, line: at, message: m.tooDeep(MAX_DEPTH) };
    return { ok: false, line: at, message: m.badYaml(why) };
  }
  return parsedDocument(yaml, events, data, source, 0, source);
}

/**
 * What a document that parsed is: the bounds on its aliases and its shape checked, lines found
 * from its events. `events` and `data` are one document's; their offsets count in `text`, where
 * the frontmatter `source` starts at `base` (0, unless several were parsed as one stream).
 */
export function parsedDocument(
  yaml: JsYaml,
  events: Event[],
  data: unknown,
  text: string,
  base: number,
  source: string,
): Parsed {
  // YAML line 1 is file line 2 (after the opening ---).
  const lines = new LineIndex(source);
  const firstAlias = events.findIndex((e) => e.type === yaml.EVENT_ID.ALIAS);
  if (firstAlias !== -1 && expandedSize(data, MAX_EXPANDED) > MAX_EXPANDED) {
    const alias = events[firstAlias] as { anchorStart: number };
    return { ok: false, line: lines.lineOf(alias.anchorStart - base), message: m.aliasBomb(MAX_EXPANDED) };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, lineAt: () => 1 };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, line: 2, message: m.notAMapping };
  const tree = new EventTree(events, text, base, yaml, lines);
  return { ok: true, data: data as Record<string, unknown>, lineAt: (path) => tree.lineAt(path) };
}

/**
 * How many values `value` holds with every shared node counted each time it is reached, stopping
 * once over `limit`; a cycle (`&a [*a]`) counts as over. Each node is visited once.
 */
export function expandedSize(value: unknown, limit: number): number {
  const memo = new Map<object, number>();
  const size = (v: unknown): number => {
    if (v === null || typeof v !== 'object') return 1;
    const known = memo.get(v);
    if (known !== undefined) return known;
    memo.set(v, Infinity); // in progress: reaching it again is a cycle
    let n = 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      n += size(child);
      if (n > limit) break;
    }
    memo.set(v, n);
    return n;
  };
  return size(value);
}

/** Offsets to file lines of a frontmatter (its first line is file line 2). */
class LineIndex {
  private starts: number[] | null = null;
  constructor(private readonly source: string) {}

  lineOf(offset: number): number {
    if (!this.starts) {
      this.starts = [0];
      for (let i = this.source.indexOf('\n'); i !== -1; i = this.source.indexOf('\n', i + 1)) this.starts.push(i + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 2;
  }
}

/** Where each value of the event stream starts, found by path; each collection is indexed once, on first use. */
class EventTree {
  private readonly ends = new Map<number, number>();
  private readonly maps = new Map<number, Map<string, { key: number; value: number }>>();
  private readonly seqs = new Map<number, number[]>();
  private readonly root: number;

  constructor(
    private readonly events: Event[],
    /** The text the events' offsets count in; the frontmatter starts at `base` in it. */
    private readonly source: string,
    private readonly base: number,
    private readonly yaml: JsYaml,
    private readonly lines: LineIndex,
  ) {
    const stack: number[] = [];
    const { SEQUENCE, MAPPING, POP } = yaml.EVENT_ID;
    events.forEach((e, i) => {
      if (e.type === SEQUENCE || e.type === MAPPING) stack.push(i);
      else if (e.type === POP && stack.length) this.ends.set(stack.pop()!, i);
    });
    this.root = events.findIndex((e) => e.type === MAPPING);
  }

  lineAt(path: ReadonlyArray<string | number>): number {
    let node = this.root;
    let line = 1;
    for (const key of path) {
      const e = this.events[node];
      if (!e) return line;
      if (e.type === this.yaml.EVENT_ID.MAPPING) {
        const entry = this.mapping(node).get(String(key));
        if (!entry) return line;
        line = this.lines.lineOf(this.offset(entry.key));
        node = entry.value;
      } else if (e.type === this.yaml.EVENT_ID.SEQUENCE && typeof key === 'number') {
        const item = this.sequence(node)[key];
        if (item === undefined) return line;
        line = this.lines.lineOf(this.offset(item));
        node = item;
      } else {
        return line;
      }
    }
    return line;
  }

  /** The index after the value that starts at `i`. */
  private next(i: number): number {
    const end = this.ends.get(i);
    return end === undefined ? i + 1 : end + 1;
  }

  private children(i: number): number[] {
    const out: number[] = [];
    const end = this.ends.get(i) ?? i;
    for (let j = i + 1; j < end; j = this.next(j)) out.push(j);
    return out;
  }

  private mapping(i: number): Map<string, { key: number; value: number }> {
    let map = this.maps.get(i);
    if (!map) {
      map = new Map();
      const end = this.ends.get(i) ?? i;
      // Children alternate key, value; a key without a value (never in a parsed stream) is none.
      for (let key = i + 1; key < end; ) {
        const value = this.next(key);
        if (value >= end) break;
        const event = this.events[key]!;
        if (event.type === this.yaml.EVENT_ID.SCALAR) {
          const name = this.keyName(event);
          if (!map.has(name)) map.set(name, { key, value });
        }
        key = this.next(value);
      }
      this.maps.set(i, map);
    }
    return map;
  }

  /** A key as the data has it: a plain `~`, `1` or `true` is resolved, then made a string. */
  private keyName(event: Event): string {
    const raw = this.yaml.getScalarValue(this.source, event as Parameters<JsYaml['getScalarValue']>[1]);
    if (
      (event as { style?: number }).style !== this.yaml.SCALAR_STYLE.PLAIN ||
      (event as { tagStart?: number }).tagStart !== -1
    )
      return raw;
    // Only these can read as something other than text (null, a boolean, a number).
    if (!KEY_MAY_RESOLVE.test(raw)) return raw;
    try {
      return String(this.yaml.load(raw));
    } catch {
      return raw;
    }
  }

  private sequence(i: number): number[] {
    let items = this.seqs.get(i);
    if (!items) this.seqs.set(i, (items = this.children(i)));
    return items;
  }

  /**
   * Where the value of event `i` starts (the least of its anchor, tag and value starts); an empty
   * value has none, so the nearest earlier event's last position is taken.
   */
  private offset(i: number): number {
    for (let j = i; j >= 0; j--) {
      const e = this.events[j] as {
        start?: number;
        valueStart?: number;
        valueEnd?: number;
        anchorStart?: number;
        tagStart?: number;
      };
      let least = Infinity;
      let most = -1;
      for (const n of [e.anchorStart, e.tagStart, e.start, e.valueStart]) {
        if (typeof n === 'number' && n >= 0) {
          if (n < least) least = n;
          if (n > most) most = n;
        }
      }
      if (most !== -1) return (j === i ? least : Math.max(most, e.valueEnd ?? -1)) - this.base;
    }
    return 0;
  }
}
