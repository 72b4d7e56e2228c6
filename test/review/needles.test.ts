/** Literal prefilters: what they extract, that they never hide a match, and that rules skipped by them keep their results. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { regexNeedles } from '../../lib/review/engine/needles.js';
import { builtinRules } from '../../lib/review/builtin.js';
import { maskCode } from '../../lib/review/engine/mask.js';
import { bundleRule, chunkOf, runOn } from '../kit/review.js';

describe('needles', () => {
  const cases: Array<[string, string, string[] | null]> = [
    ['console\\.log', '', ['console.log']],
    ['forbidden12_0\\(|legacyCall123\\(', '', ['forbidden12_0(', 'legacyCall123(']],
    ['TODO', 'gi', ['todo']],
    ['^(?:<{7}|\\|{7}|>{7})(?= |$)', '', ['<<<<<<<', '|||||||', '>>>>>>>']],
    ['f(?:it|describe)\\s*\\(', '', ['fit', 'fdescribe']],
    ['\\bnew Date\\(\\)', '', ['new Date()']],
    ['colou?r', '', ['colo']],
    ['abc|d', '', null], // one branch offers a single character
    ['abc|', '', null], // an empty branch matches everywhere
    ['(?:abc)?xy', '', ['xy']],
    ['a+bc', '', ['bc']],
    ['(?:ab){2}c', '', ['ababc']],
    ['\\x41BCD', '', ['BCD']], // the escape is skipped whole, not read as "41"
    ['\\u0041BCD', '', ['BCD']],
    ['(?<![\\w$.])debugger', '', ['debugger']],
    ['(?<tag>abc)def\\k<tag>', '', ['abcdef']],
    ['(a)\\1xyz', '', ['xyz']],
    ['[abc]]xyz', '', ['xyz']],
    ['[]xyz', '', ['xyz']],
    ['ab{2,}cd', '', ['bb']], // the repeated minimum; ties go to the first
    ['\\p{L}+name', 'u', ['name']],
    ['a.b.c', '', null],
    ['(unclosed', '', null],
    ['x[a-z', '', null],
    ['stra\u00dfe', 'i', null], // a non-ASCII needle under i: case folding is not lower-casing
    ['[[a-z]--[aeiou]]xyz', 'v', null],
    ['exec|execSync', '', ['exec']],
    ['a\\|b|cd', '', ['a|b', 'cd']], // an escaped pipe is part of a literal
    ['path\\\\to|x\\.y', '', ['path\\to', 'x.y']],
    ['ab cd|ef', '', ['ab cd', 'ef']],
  ];
  for (const [source, flags, expected] of cases) {
    test(`/${source}/${flags}`, () => {
      const got = regexNeedles(source, flags);
      assert.deepEqual(got && [...got].sort(), expected && [...expected].sort());
    });
  }

  test('on a masked view a space in the pattern ends a literal', () => {
    assert.deepEqual(regexNeedles('await foo', ''), ['await foo']);
    assert.deepEqual(regexNeedles('await foo', '', { masked: true }), ['await']);
    assert.deepEqual(regexNeedles('ab cd|efg', '', { masked: true }), ['ab', 'efg']);
  });

  test('every built-in rule gets needles from its pattern (the prefilter covers the whole baseline)', () => {
    for (const rule of builtinRules(true)) {
      const needles =
        rule.needles !== undefined
          ? rule.needles
          : regexNeedles(rule.pattern, rule.flags, { masked: rule.scope === 'code' });
      assert.ok(needles && needles.length > 0, `${rule.ruleSource} has no needles`);
      assert.ok(
        needles.every((n) => n.length >= 2),
        `${rule.ruleSource}: needles too short to filter anything: ${JSON.stringify(needles)}`,
      );
    }
  });

  test('never hides a match: every line a pattern matches holds one of its needles', () => {
    const patterns: Array<[string, string]> = [
      ...builtinRules(true).map((r) => [r.pattern, r.flags] as [string, string]),
      ['console\\.(?:log|debug)\\(', ''],
      ['TODO|FIXME', 'i'],
      ['colou?r[s]?', 'i'],
      ['(?:get|set)(?:Item|Value)s?\\(', ''],
      ['\\bimport\\s+.*\\bfrom\\s+[\'"]lodash[\'"]', ''],
      ['x{2}y{0,2}z+', ''],
      ['(?:ab|cd){2}', ''],
      ['\\x41\\u0042C\\cJ?D', ''],
      ['a\\.b\\-c\\/d', ''],
      ['(?=foo)foobar', ''],
      ['(?:(?:a|b)c|d(?:e|f))gh', ''],
      ['a\\|b|cd|x\\.y', ''],
      ['compute\\(|value1', ''],
    ];
    const words = [
      'console',
      '.log(',
      '.debug(',
      'TODO',
      'todo',
      'FixMe',
      'color',
      'Colour',
      'colours',
      'getItem(',
      'setValues(',
      'import x from "lodash"',
      'xxz',
      'xxyyzz',
      'abcd',
      'cdab',
      'ABC\nD',
      'ABCD',
      'a.b-c/d',
      'foobar',
      'acgh',
      'dfgh',
      'it.only(',
      'fit("x")',
      'debugger;',
      '<<<<<<< HEAD',
      'AKIAABCDEFGHIJKLMNOP',
      'exec(`ls ${x}`)',
      '"SELECT * FROM t WHERE id = " + id',
      "xit('skip')",
      '-----BEGIN RSA PRIVATE KEY-----',
      ' ',
      '(',
      ')',
      '"',
    ];
    // Deterministic combinations of the words: matches and near misses.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) % words.length;
    const lines: string[] = [...words];
    for (let k = 0; k < 3000; k++)
      lines.push(Array.from({ length: 1 + (k % 4) }, () => words[next()]).join(k % 2 ? ' ' : ''));
    let matched = 0;
    for (const [source, flags] of patterns) {
      const regex = new RegExp(source, flags.replace('g', ''));
      for (const masked of [false, true]) {
        const needles = regexNeedles(source, flags, { masked });
        if (!needles) continue;
        for (const line of lines) {
          const subject = masked ? maskCode(line) : line;
          if (!regex.test(subject)) continue;
          matched++;
          const haystack = flags.includes('i') ? line.toLowerCase() : line;
          assert.ok(
            needles.some((n) => haystack.includes(n)),
            `/${source}/${flags} matches ${JSON.stringify(subject)} but none of ${JSON.stringify(needles)}`,
          );
        }
      }
    }
    assert.ok(matched > 500, `only ${matched} matches exercised`);
  });
});

describe('the rule runner with prefilters', () => {
  test('a chunk without the needles skips the rule; one with them still reports it', async () => {
    const rule = bundleRule('adr-1', { id: 'no-console', pattern: 'console\\.log', title: 'console.log left in' });
    const clean = await runOn(chunkOf('src/a.ts', ['const a = 1;', 'const b = a;']), [rule]);
    assert.deepEqual(clean.drafts, []);
    const dirty = await runOn(chunkOf('src/a.ts', ['const a = 1;', 'console.log(a);']), [rule]);
    assert.deepEqual(
      dirty.drafts.map((d) => d.line),
      [2],
    );
  });

  test('case-insensitive rules also run on text that is not plain ASCII', async () => {
    const rule = bundleRule('adr-2', { id: 'todo', pattern: 'todo', flags: 'i', title: 'A todo' });
    const { drafts } = await runOn(chunkOf('src/a.ts', ['// TODO: größer machen', 'ok']), [rule]);
    assert.deepEqual(
      drafts.map((d) => d.line),
      [1],
    );
  });
});

test('the runner flags exactly the lines a plain rule matches, with and without its needles in the chunk', async () => {
  const patterns = [
    'console\\.log',
    'forbidden12_0\\(|legacyCall7\\(',
    'TODO|FIXME',
    'a\\|b',
    'colou?r',
    '\\bnew Date\\(\\)',
    'x{3}y',
    'select \\* from',
  ];
  const words = [
    'console.log(x)',
    'console.info',
    'forbidden12_0(',
    'forbidden12_1(',
    'legacyCall7(',
    'legacyCall70',
    'todo',
    'TODO',
    'FIXME:',
    'a|b',
    'ab',
    'color',
    'colour',
    'new Date()',
    'new Date',
    'xxxy',
    'xxy',
    'select * from t',
    'SELECT * FROM t',
    ' ',
    'é',
  ];
  let seed = 3;
  const pick = () => words[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % words.length]!;
  for (const [k, pattern] of patterns.entries()) {
    for (const flags of ['', 'i']) {
      const rule = bundleRule('adr', { id: `r${k}`, pattern, flags, title: 'T' });
      const regex = new RegExp(pattern, flags);
      for (let c = 0; c < 40; c++) {
        const lines = Array.from({ length: 1 + (c % 7) }, () => `${pick()} ${pick()}`);
        const { drafts } = await runOn(chunkOf('src/a.ts', lines), [rule]);
        const expected = lines.flatMap((l, i) => (regex.test(l) ? [i + 1] : [])).slice(0, 20);
        assert.deepEqual(
          drafts.map((d) => d.line),
          expected,
          `/${pattern}/${flags} on ${JSON.stringify(lines)}`,
        );
      }
    }
  }
});
