// The frontmatter parser (docs/bundle.md "Parser"): `yaml` (the parser before), js-yaml with
// revtrail's bounds, and revtrail's own reader (js-yaml through lib/bundle/frontmatter.ts), each in a fresh
// process over the 1,000 frontmatters of the bench bundle and over hostile YAML. The floor is
// `yaml`; a row holds when the parser revtrail uses is no slower.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';

export const name = 'parsers';

const MiB = 1024 * 1024;

export async function run({ runs }) {
  const dir = tmp('revtrail-bench-parsers-');
  try {
    generateBundle(join(dir, 'kb'), { concepts: 1000, rulesPer: 2 });
    const frontmatter = (text) => text.split('\n---\n')[0].slice(4);
    const bench = readdirSync(join(dir, 'kb', 'decisions')).map((f) =>
      frontmatter(readFileSync(join(dir, 'kb', 'decisions', f), 'utf8')),
    );
    const letters = (i) => String.fromCharCode(97 + i);
    const cases = {
      'bench bundle, 1,000 frontmatters': bench,
      '150 aliases': [`type: x\nbase: &a x\nlist:\n${'  - *a\n'.repeat(150)}`],
      'billion laughs (80 aliases)': [
        [
          'type: x',
          'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
          ...Array.from(
            { length: 8 },
            (_, i) =>
              `${letters(i + 1)}: &${letters(i + 1)} [${Array(9)
                .fill(`*${letters(i)}`)
                .join(', ')}]`,
          ),
        ].join('\n'),
      ],
      '10,000 keys': [`type: x\n${Array.from({ length: 10_000 }, (_, i) => `k${i}: v`).join('\n')}`],
      '1 MiB list': [`type: x\npaths:\n${'  - "src/a/b/**"\n'.repeat(MiB / 16)}`],
      'nesting 100,000 deep': [`type: x\nd: ${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    };
    const rows = [];
    for (const [label, sources] of Object.entries(cases)) {
      const file = join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.json`);
      writeFileSync(file, JSON.stringify(sources));
      const time = (parser) =>
        timeMedian(runs, () =>
          timeOnce(process.execPath, [join(root, 'bench', 'parse-frontmatter.mjs'), parser, file]),
        );
      const yaml = time('yaml');
      rows.push(
        row({ scenario: `parse ${label}: js-yaml`, value: time('js-yaml'), floorName: 'yaml', floor: yaml, target: 1 }),
      );
      rows.push(
        row({
          scenario: `parse ${label}: revtrail`,
          value: time('revtrail'),
          floorName: 'yaml',
          floor: yaml,
          target: 1,
        }),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
