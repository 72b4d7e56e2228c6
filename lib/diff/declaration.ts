/**
 * The declared package/namespace of a file, read from the lines a diff shows of it (added and
 * context lines; docs/bundle.md table). Pure: no file is read, so a declaration outside the hunks is
 * not seen and the file is then matched by its folders only.
 */

const GO = /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*)\b/;
const JVM = /^\s*package\s+(`?[A-Za-z_][\w]*`?(?:\s*\.\s*`?[A-Za-z_][\w]*`?)*)\s*(?:;|\{|$|\/\/|\/\*)/;
const CSHARP_FILE_SCOPED = /^\s*namespace\s+([A-Za-z_@][\w]*(?:\s*\.\s*[A-Za-z_@][\w]*)*)\s*;/;
const PHP = /^\s*namespace\s+\\?([A-Za-z_][\w]*(?:\\[A-Za-z_][\w]*)*)\s*[;{]/;

/**
 * Block declarations and braces, in line order: a declaration opens at a statement start (the
 * line's start, or after `{`, `}` or `;`), so `namespace geo { inline namespace v2 {` on one
 * line is two declarations; its block is the next `{` (on the same line or a later one).
 */
const blockScanner = (head: string) => new RegExp(`(?<=(?:^|[{};])\\s*)${head}(?=\\s*(?:\\{|$))|[{}]`, 'g');
const CSHARP_BLOCK = blockScanner(String.raw`namespace\s+([A-Za-z_@]\w*(?:\s*\.\s*[A-Za-z_@]\w*)*)`);
// `namespace geo::v2 {`, `inline namespace v2 {`, `namespace a::inline b {` (C++20), `namespace {`.
const CPP = blockScanner(
  String.raw`(?:inline\s+)?namespace(?:\s+((?:inline\s+)?[A-Za-z_]\w*(?:\s*::\s*(?:inline\s+)?[A-Za-z_]\w*)*))?`,
);
const TYPESCRIPT = blockScanner(
  String.raw`(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)`,
);

/** Reads the namespace of a file in `language` from its visible lines, or null. */
export function readNamespace(language: string | null, lines: readonly string[]): string | null {
  switch (language) {
    case 'go':
      return firstMatch(GO, lines);
    case 'java':
    case 'kotlin':
    case 'groovy':
      return clean(firstMatch(JVM, lines), '.');
    case 'scala':
      return scalaPackage(lines);
    case 'php':
      return firstMatch(PHP, lines);
    case 'csharp': {
      const fileScoped = firstMatch(CSHARP_FILE_SCOPED, lines);
      if (fileScoped) return clean(fileScoped, '.');
      return nested(lines, CSHARP_BLOCK, '.', '.', ['namespace']);
    }
    case 'cpp':
    case 'c':
      return nested(lines, CPP, '::', '::', ['namespace']);
    case 'typescript':
      return nested(lines, TYPESCRIPT, '.', '.', ['namespace', 'module']);
    default:
      return null;
  }
}

function firstMatch(pattern: RegExp, lines: readonly string[]): string | null {
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}

function clean(name: string | null, separator: string): string | null {
  if (name === null) return null;
  return name
    .split(separator)
    .map((part) => part.trim().replace(/^`|`$/g, '').replace(/^@/, ''))
    .join(separator);
}

/** Scala chains package clauses: `package com.acme` then `package store` is com.acme.store. */
function scalaPackage(lines: readonly string[]): string | null {
  const parts: string[] = [];
  for (const line of lines) {
    if (/^\s*package\s+object\b/.test(line)) continue;
    const match = JVM.exec(line);
    if (match?.[1]) parts.push(clean(match[1], '.')!);
  }
  return parts.length ? parts.join('.') : null;
}

interface Frame {
  /** Brace depth outside this block. */
  depth: number;
  segments: string[];
}

/**
 * Block namespaces that nest (`namespace geo { namespace v2 {` is geo::v2, on one line or
 * several): follows braces through the visible lines and keeps the deepest namespace seen
 * (the first, on a tie).
 */
function nested(
  lines: readonly string[],
  scanner: RegExp,
  inSeparator: string,
  outSeparator: string,
  keywords: readonly string[],
): string | null {
  // Without the keyword on any line there is no declaration (stripping literals never adds one): skip the brace walk.
  if (!lines.some((line) => keywords.some((k) => line.includes(k)))) return null;
  const stack: Frame[] = [];
  let depth = 0;
  let pending: string[] | null = null;
  let best: string[] = [];
  for (const raw of lines) {
    for (const token of stripLiterals(raw).matchAll(scanner)) {
      const text = token[0];
      if (text === '{') {
        if (pending) {
          stack.push({ depth, segments: pending });
          pending = null;
          const current = stack.flatMap((f) => f.segments);
          if (current.length > best.length) best = current;
        }
        depth++;
      } else if (text === '}') {
        depth = Math.max(0, depth - 1);
        while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
      } else {
        // A declaration; anonymous (`namespace {`) adds no segment but still nests.
        pending = (token[1] ?? '')
          .split(inSeparator)
          .map((part) =>
            part
              .trim()
              .replace(/^inline\s+/, '')
              .replace(/^@/, ''),
          )
          .filter((part) => part !== '');
      }
    }
  }
  return best.length ? best.join(outSeparator) : null;
}

/** Drops comments and string/char literals so their braces are not counted. */
function stripLiterals(line: string): string {
  return line
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')
    .replace(/\/\*.*?\*\//g, '')
    .replace(/\/\/.*$/, '');
}
