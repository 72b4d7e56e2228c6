/**
 * Many frontmatters read at once (docs/bundle.md "Fresh clone"): with no bundle cache, a
 * 1,000-concept bundle is 1,000 YAML parses, and js-yaml spends more on each call (its parser
 * state, ~40 µs) than on a typical frontmatter. So the frontmatters go to js-yaml as one stream
 * of documents, each after a `---` of its own line, and each document's events and data are
 * read as that file's. The result is exactly what parsing the file alone gives:
 *
 * - only a frontmatter whose meaning cannot depend on its place in a stream is put in one: no
 *   line starting with `---`, `...` or `%` (document markers, directives), no lone CR (a line
 *   break to YAML, not to the fence finder) or BOM, and a last line with something on it (the
 *   stream adds a line break there, which a `|+` block ending in blanks would keep);
 * - anchors, the alias cap and the depth cap are per document in js-yaml, as they are per file;
 * - a stream that does not parse, or whose documents do not line up one to one, is dropped and
 *   each of its frontmatters parsed alone (so every error is the file's own, at its own line).
 */
import type { Event } from 'js-yaml';
import { MAX_ALIASES, MAX_DEPTH, parseWith, parsedDocument, type JsYaml, type Parsed } from './frontmatter.js';

/** At most this much YAML (characters) in one stream: its events are held until it is read. */
const MAX_STREAM = 4 * 1024 * 1024;
/**
 * A frontmatter longer than this is parsed alone: js-yaml's cost per call is nothing beside its
 * parse, and a stream that fails would have it parsed twice (a 50,000-key frontmatter, say).
 */
const MAX_STREAMED = 8 * 1024;

// Lines that mean something at the level of a stream, and line breaks the fence finder does not see.
const STREAM_LEVEL = /^(?:---|\.\.\.|%)|[\r\uFEFF]/m;

/** Whether `source` (a non-blank frontmatter) parses the same inside a stream as alone. */
export function streamable(source: string): boolean {
  if (STREAM_LEVEL.test(source)) return false;
  const last = source.slice(source.lastIndexOf('\n') + 1);
  return /[^ \t]/.test(last);
}

/** Each source's parse, as parseWith() gives it for that source alone. */
export function parseMany(yaml: JsYaml, sources: readonly string[]): Parsed[] {
  const out: Array<Parsed | undefined> = new Array(sources.length);
  let batch: number[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length) parseStream(yaml, sources, batch, out);
    batch = [];
    size = 0;
  };
  sources.forEach((source, i) => {
    if (source.length > MAX_STREAMED || !streamable(source)) {
      out[i] = parseWith(yaml, source);
      return;
    }
    if (size + source.length > MAX_STREAM) flush();
    batch.push(i);
    size += source.length + 5;
  });
  flush();
  return out as Parsed[];
}

/**
 * Parses sources[i] for each i of `batch` as one stream into out[i]; each alone, if the stream
 * will not do. (Reading again the part that parsed, around the failing document, was slower:
 * every further stream makes js-yaml's optimised code start over.)
 */
function parseStream(yaml: JsYaml, sources: readonly string[], batch: number[], out: Array<Parsed | undefined>): void {
  const alone = () => {
    for (const i of batch) out[i] = parseWith(yaml, sources[i]!);
  };
  if (batch.length === 1) {
    alone();
    return;
  }
  const bases: number[] = [];
  let text = '';
  for (const i of batch) {
    text += '---\n';
    bases.push(text.length);
    text += `${sources[i]!}\n`;
  }
  let events: Event[];
  let docs: unknown[];
  try {
    events = yaml.parseEvents(text, { maxDepth: MAX_DEPTH });
    docs = yaml.constructFromEvents(events, { source: text, maxAliases: MAX_ALIASES });
  } catch {
    alone();
    return;
  }
  const starts: number[] = [];
  events.forEach((e, k) => {
    if (e.type === yaml.EVENT_ID.DOCUMENT) starts.push(k);
  });
  if (
    docs.length !== batch.length ||
    starts.length !== batch.length ||
    starts.some((k) => !(events[k] as { explicitStart?: boolean }).explicitStart)
  ) {
    alone();
    return;
  }
  batch.forEach((i, d) => {
    const own = events.slice(starts[d], d + 1 < starts.length ? starts[d + 1] : events.length);
    out[i] = parsedDocument(yaml, own, docs[d], text, bases[d]!, sources[i]!);
  });
}
