/** Markdown links of an index file, with their lines; links in code blocks and code spans are not links. */
export interface Link {
  target: string;
  line: number;
}

const INLINE = /(!?)\[(?:[^[\]\\]|\\.|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE = /^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function extractLinks(markdown: string): Link[] {
  const links: Link[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) fence = null;
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      return;
    }
    const text = line.replace(/(`+)[^`]*?\1/g, '');
    const reference = REFERENCE.exec(text);
    if (reference) {
      links.push({ target: unwrap(reference[1]!), line: index + 1 });
      return;
    }
    for (const match of text.matchAll(INLINE)) {
      if (match[1] === '!') continue; // an image
      links.push({ target: unwrap(match[2]!), line: index + 1 });
    }
  });
  return links;
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
