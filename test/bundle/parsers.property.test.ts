/**
 * Properties of the bundle's own parsers over generated input: index link extraction and the
 * frontmatter split never throw, find what was written, and agree with simple reference
 * readings; the frontmatter reader turns any YAML into a result, never an exception.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractLinks, withoutCodeSpans } from '../../lib/bundle/links.js';
import { readFrontmatter, splitFrontmatter } from '../../lib/bundle/frontmatter.js';
import { firstHeading } from '../../lib/bundle/concept.js';

const RUNS = { numRuns: 300 };

const markdownChar = fc.oneof(
  fc.constantFrom(
    '[',
    ']',
    '(',
    ')',
    '!',
    '`',
    '\\',
    ' ',
    '"',
    "'",
    '<',
    '>',
    '#',
    'a',
    '.',
    'm',
    'd',
    '\n',
    '\r',
    '~',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const markdown = fc.array(markdownChar, { maxLength: 200 }).map((cs) => cs.join(''));

// A link target as writers use them: no spaces, parentheses, brackets or backticks.
const target = fc
  .array(fc.constantFrom('a', 'b', '-', '_', '/', '.', '%20', 'é', '1'), { minLength: 1, maxLength: 12 })
  .map((cs) => `${cs.join('')}.md`);
const linkText = fc.array(fc.constantFrom('a', ' ', 'B', '-', 'é', '1'), { maxLength: 10 }).map((cs) => cs.join(''));
// Filler that cannot start or end a link, a code span or a fence.
const filler = fc.array(fc.constantFrom('a', ' ', 'x', '.', ',', 'é', '#'), { maxLength: 15 }).map((cs) => cs.join(''));

test('link extraction: any text gives links whose targets are in the text, on a real line', () => {
  fc.assert(
    fc.property(markdown, (text) => {
      const links = extractLinks(text);
      const lineCount = text.split('\n').length;
      for (const link of links) {
        assert.ok(link.line >= 1 && link.line <= lineCount);
        assert.ok(text.includes(link.target), JSON.stringify(link));
      }
    }),
    { numRuns: 1000 },
  );
});

test('link extraction: written links are found, in order, with their lines; images and code are not links', () => {
  const lineArb = fc.tuple(
    filler,
    fc.constantFrom('link', 'image', 'code', 'title', 'angle', 'none'),
    linkText,
    target,
    filler,
  );
  fc.assert(
    fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), (specs) => {
      const expected: Array<{ target: string; line: number }> = [];
      const lines = specs.map(([before, kind, text, to, after], i) => {
        const line = i + 1;
        switch (kind) {
          case 'link':
            expected.push({ target: to, line });
            return `${before}[${text}](${to})${after}`;
          case 'title':
            expected.push({ target: to, line });
            return `${before}[${text}](${to} "a title")${after}`;
          case 'angle':
            expected.push({ target: `${to} x`, line });
            return `${before}[${text}](<${to} x>)${after}`;
          case 'image':
            return `${before}![${text}](${to})${after}`;
          case 'code':
            return `${before}\`[${text}](${to})\`${after}`;
          default:
            return `${before}${after}`;
        }
      });
      assert.deepEqual(extractLinks(lines.join('\n')), expected);
    }),
    RUNS,
  );
});

test('code spans: the same as the reading of runs by a simple quadratic reference', () => {
  // CommonMark: a run of N backticks opens a span closed by the next run of exactly N.
  const reference = (line: string): string => {
    const runs = [...line.matchAll(/`+/g)].map((m) => ({ at: m.index!, length: m[0].length }));
    let out = '';
    let copied = 0;
    for (let r = 0; r < runs.length; r++) {
      const close = runs.findIndex((x, k) => k > r && x.length === runs[r]!.length);
      if (close === -1) continue;
      out += line.slice(copied, runs[r]!.at);
      copied = runs[close]!.at + runs[close]!.length;
      r = close;
    }
    return out + line.slice(copied);
  };
  const line = fc.array(fc.constantFrom('`', '``', 'a', ' ', '['), { maxLength: 30 }).map((cs) => cs.join(''));
  fc.assert(
    fc.property(line, (l) => assert.equal(withoutCodeSpans(l), reference(l))),
    RUNS,
  );
});

const yamlLine = fc
  .array(fc.constantFrom('a', ':', ' ', '-', 'é', '1', '"', '#', '&x', '*x', '[', ']', '{', '}'), { maxLength: 12 })
  .map((cs) => cs.join(''));
const body = fc
  .array(fc.oneof(yamlLine, fc.constant('---'), fc.constant('...')), { maxLength: 6 })
  .map((ls) => ls.join('\n'));

test('frontmatter split: what was written between the fences comes back, body too, whatever the line ends', () => {
  const source = fc
    .array(
      yamlLine.filter((l) => !/^(---|\.\.\.)[ \t]*$/.test(l)),
      { maxLength: 6 },
    )
    .map((ls) => ls.join('\n'));
  fc.assert(
    fc.property(source, body, fc.boolean(), fc.boolean(), (src, rest, crlf, bom) => {
      const eol = crlf ? '\r\n' : '\n';
      const text = `${bom ? '\uFEFF' : ''}---${eol}${src === '' ? '' : src.split('\n').join(eol) + eol}---${eol}${rest.split('\n').join(eol)}`;
      assert.deepEqual(splitFrontmatter(text), { ok: true, source: src, body: rest });
    }),
    RUNS,
  );
});

test('frontmatter split and reader: any text gives a result with a line, never an exception', async () => {
  const text = fc.oneof(
    markdown,
    fc.tuple(fc.array(yamlLine, { maxLength: 8 }), body).map(([ls, b]) => `---\n${ls.join('\n')}\n---\n${b}`),
  );
  await fc.assert(
    fc.asyncProperty(text, async (t) => {
      const split = splitFrontmatter(t);
      if (!split.ok) assert.equal(split.line, 1);
      const read = await readFrontmatter(t);
      if (read.ok) {
        assert.equal(typeof read.data, 'object');
        assert.ok(read.lineAt(['a']) >= 1);
      } else {
        assert.ok(read.line >= 1 && read.line <= t.split('\n').length + 1, `${read.line}: ${read.message}`);
        assert.ok(read.message.length > 0);
      }
    }),
    RUNS,
  );
});

test('first heading: the same as the old regex reading, on lines where that regex is quick', () => {
  const reference = (b: string): string | null => {
    let fenced = false;
    for (const line of b.split('\n')) {
      if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
      else if (!fenced) {
        const match = /^ {0,3}#[ \t]+(.+?)[ \t#]*$/.exec(line);
        if (match) return match[1]!;
      }
    }
    return null;
  };
  const line = fc
    .array(fc.constantFrom('#', ' ', '\t', 'a', 'B', '```', '\n', 'é'), { maxLength: 20 })
    .map((cs) => cs.join(''));
  // The old reading also took "#  " (only spaces) or "# ##" as a heading of spaces or #s; the
  // new one skips empty headings, so only compare where a word follows.
  fc.assert(
    fc.property(line, (b) => {
      const old = reference(b);
      if (old !== null && /^[ \t#]*$/.test(old)) return;
      assert.equal(firstHeading(b), old);
    }),
    RUNS,
  );
});
