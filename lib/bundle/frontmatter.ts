/**
 * YAML frontmatter of a concept file, with the file line of any key (for `file:line` messages).
 * The YAML library is a large module: it is loaded on first need, and a warm bundle cache
 * (./cache.ts) means most runs never need it.
 */
import type { Node } from 'yaml';
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

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/;

type YamlLibrary = typeof import('yaml');
let yaml: Promise<YamlLibrary> | undefined;

/** The YAML library, loaded once. It is CommonJS: as bundled, its exports sit on `default`. */
async function yamlLibrary(): Promise<YamlLibrary> {
  const loaded = await import('yaml');
  return typeof loaded.LineCounter === 'function' ? loaded : (loaded as unknown as { default: YamlLibrary }).default;
}

export async function readFrontmatter(text: string): Promise<FrontmatterResult> {
  const lines = text.replace(/^\uFEFF/, '').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (!FENCE.test(lines[0] ?? '')) return { ok: false, line: 1, message: m.noFrontmatter };
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i]!)) {
      close = i;
      break;
    }
  }
  if (close === -1) return { ok: false, line: 1, message: m.frontmatterNotClosed };
  const source = lines.slice(1, close).join('\n');
  const body = () => lines.slice(close + 1).join('\n');
  const { LineCounter, parseDocument, isMap, isSeq, isScalar } = await (yaml ??= yamlLibrary());
  const counter = new LineCounter();
  const doc = parseDocument(source, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  // YAML line 1 is file line 2 (after the opening ---).
  const fileLine = (offset: number) => counter.linePos(offset).line + 1;
  if (doc.errors.length) {
    const error = doc.errors[0]!;
    const line = error.pos ? fileLine(error.pos[0]) : 2;
    return { ok: false, line, message: m.badYaml(error.message.split('\n')[0]!) };
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (data === null || data === undefined) return { ok: true, data: {}, body: body(), lineAt: () => 1 };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, line: 2, message: m.notAMapping };
  return {
    ok: true,
    data: data as Record<string, unknown>,
    body: body(),
    lineAt(path) {
      let node: unknown = doc.contents;
      let line = 1;
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
          if (!pair) return line;
          const keyNode = pair.key as Node | null;
          if (keyNode?.range) line = fileLine(keyNode.range[0]);
          node = pair.value;
        } else if (isSeq(node) && typeof key === 'number') {
          const item = node.items[key] as Node | undefined;
          if (!item) return line;
          if (item.range) line = fileLine(item.range[0]);
          node = item;
        } else {
          return line;
        }
      }
      return line;
    },
  };
}
