/**
 * Markdown links of an index file, with their lines; links in code blocks and code spans are
 * not links. A hand-written scanner, linear in the text (docs/bundle.md "Caps"): a
 * regex over link syntax backtracks quadratically on a line of `[`.
 */
export interface Link {
  target: string;
  line: number;
}

const REFERENCE = /^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)/;
// The usual index line, `- [Title](path.md)`, read without the scanner's tables. Anchored, and
// each part's characters exclude what ends it: linear.
const SIMPLE = /^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?\[([^[\]\\`!]*)\]\(([^\s()<>\\`]+)\)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function extractLinks(markdown: string): Link[] {
  const links: Link[] = [];
  let fence: string | null = null;
  let index = 0;
  for (let start = 0; start <= markdown.length; index++) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = markdown.length;
    const raw = markdown.slice(start, end);
    start = end + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    const simple = SIMPLE.exec(line);
    if (simple) {
      links.push({ target: simple[2]!, line: index + 1 });
      continue;
    }
    const text = withoutCodeSpans(line);
    const reference = REFERENCE.exec(text);
    if (reference) {
      links.push({ target: unwrap(reference[1]!), line: index + 1 });
      continue;
    }
    for (const target of inlineLinks(text)) links.push({ target, line: index + 1 });
  }
  return links;
}

/**
 * The line with its code spans removed: a run of N backticks opens a span that the next run of
 * exactly N closes; a run with no such closer is literal. One pass over the runs.
 */
export function withoutCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  const runs: Array<{ at: number; length: number }> = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (line[j] === '`') j++;
    runs.push({ at: i, length: j - i });
    i = j;
  }
  // For each run, the next run of the same length (scanning from the end keeps it linear).
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastByLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    nextSame[r] = lastByLength.get(runs[r]!.length) ?? -1;
    lastByLength.set(runs[r]!.length, r);
  }
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; r++) {
    const close = nextSame[r]!;
    if (close === -1) continue;
    out += line.slice(copied, runs[r]!.at);
    copied = runs[close]!.at + runs[close]!.length;
    r = close;
  }
  return out + line.slice(copied);
}

/**
 * Targets of `[text](target "title")` links on one line (images `![…](…)` left out). Brackets
 * are matched with a stack, as CommonMark does; a link's destination and title are read with
 * tables made in one pass (the matching `)` of each `(`, the next space, the next quote), so a
 * failed attempt never rescans the line.
 */
export function inlineLinks(text: string): string[] {
  if (!text.includes('](')) return [];
  const n = text.length;
  const close = new Int32Array(n).fill(-1); // the `)` matching a `(`
  const opens = new Int32Array(n + 1); // `(` before each position
  const closes = new Int32Array(n + 1);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    opens[i + 1] = opens[i]! + (c === 0x28 ? 1 : 0);
    closes[i + 1] = closes[i]! + (c === 0x29 ? 1 : 0);
    if (c === 0x5c) {
      // An escaped character is literal: carried over to the next position's counts.
      if (i + 1 < n) {
        opens[i + 2] = opens[i + 1]!;
        closes[i + 2] = closes[i + 1]!;
        i++;
      }
      continue;
    }
    if (c === 0x28) stack.push(i);
    else if (c === 0x29 && stack.length) close[stack.pop()!] = i;
  }
  const nextSpace = nextTable(text, (c) => c === 0x20 || c === 0x09);
  const nextGt = nextTable(text, (c) => c === 0x3e);
  const nextDq = nextTable(text, (c) => c === 0x22);
  const nextSq = nextTable(text, (c) => c === 0x27);

  const nonSpace = nextTable(text, (c) => c !== 0x20 && c !== 0x09);
  const skipSpaces = (i: number) => (i >= n ? n : nonSpace[i] === -1 ? n : nonSpace[i]!);
  /** After `(` at `open`: [target, index after the closing `)`], or null. */
  const destination = (open: number): [string, number] | null => {
    let i = skipSpaces(open + 1);
    let target: string;
    if (text[i] === '<') {
      const gt = nextGt[i]!;
      if (gt === -1) return null;
      target = text.slice(i, gt + 1);
      i = gt + 1;
    } else {
      const space = nextSpace[i]!;
      const to = close[open]!;
      const stop = space !== -1 && (to === -1 || space < to) ? space : to;
      if (stop === -1 || stop === i) return null;
      // Parentheses inside the destination must balance.
      if (opens[stop]! - opens[i]! !== closes[stop]! - closes[i]!) return null;
      target = text.slice(i, stop);
      i = stop;
    }
    i = skipSpaces(i);
    if (text[i] === '"' || text[i] === "'") {
      const end = (text[i] === '"' ? nextDq : nextSq)[i + 1] ?? -1;
      if (end === -1 || (i > 0 && text[i - 1] !== ' ' && text[i - 1] !== '\t')) return null;
      i = skipSpaces(end + 1);
    } else if (text[i] === '(' && i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) {
      const end = close[i]!;
      if (end === -1) return null;
      i = skipSpaces(end + 1);
    }
    return text[i] === ')' ? [target, i + 1] : null;
  };

  const targets: string[] = [];
  const brackets: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') brackets.push(i);
    else if (c === ']' && brackets.length) {
      const open = brackets.pop()!;
      if (text[i + 1] !== '(') continue;
      const found = destination(i + 1);
      if (!found) continue;
      if (!(open > 0 && text[open - 1] === '!')) targets.push(unwrap(found[0]));
      // Links do not nest: the brackets still open are text now.
      brackets.length = 0;
      i = found[1] - 1;
    }
  }
  return targets;
}

/** For each position, the first position at or after it whose character passes `is`; -1 for none. */
function nextTable(text: string, is: (code: number) => boolean): Int32Array {
  const table = new Int32Array(text.length + 1).fill(-1);
  for (let i = text.length - 1; i >= 0; i--) table[i] = is(text.charCodeAt(i)) ? i : table[i + 1]!;
  return table;
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

/**
 * The bundle path a link points at, or null for what is not a file link (a URL, an anchor).
 * Bundle-absolute links start with `/`; the fragment and query are dropped; %-escapes decoded.
 */
export function linkPath(target: string): { absolute: boolean; path: string } | null {
  const t = target.trim();
  if (t === '' || t.startsWith('#') || t.startsWith('//') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(t)) return null;
  let path = t.replace(/[#?].*$/, '');
  if (path === '') return null;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A stray % is a literal character.
  }
  return { absolute: path.startsWith('/'), path };
}
