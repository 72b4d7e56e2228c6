// Hostile input, worst case per class (docs/bundle.md): `revtrail review --staged` of one change
// (10 files, 300 lines, a 100-concept bundle) next to the same review with one hostile addition,
// each run without the bundle cache (a fresh clone pays every parse and every overrun), so the
// time is the worst a first review sees. Target: every row within a few seconds (5 s).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, git, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
import { generateBundle } from '../gen-bundle.mjs';

export const name = 'hostile';

const TARGET_MS = 5000;
const MiB = 1024 * 1024;

/** A bundle: the normal 100 concepts plus `extra` files (linked from the root index as `links`). */
function variant(dir, base, extra, links = Object.keys(extra).filter((f) => !f.includes('/'))) {
  cpSync(base, dir, { recursive: true });
  for (const [file, content] of Object.entries(extra)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const index = join(dir, 'index.md');
  writeFileSync(index, `${readFileSync(index, 'utf8')}${links.map((l) => `- [${l}](${l})`).join('\n')}\n`);
}

const concept = (id, front, body = `# ${id}\n`) => `---\ntype: Note\nid: ${id}\npaths: ["**"]\n${front}---\n${body}`;
const rules = (list) => `rules:\n${list.map((r, i) => `  - {id: r${i}, pattern: ${JSON.stringify(r.pattern)}, flags: "${r.flags ?? ''}", severity: nit, category: style, title: "hostile ${i}"}`).join('\n')}\n`;

export async function run({ runs }) {
  runs = Math.min(runs, 3); // each run is a cold review; three medians are enough
  const dir = tmp('revtrail-bench-hostile-');
  try {
    git(dir, ['init', '-q', '-b', 'main']);
    const base = join(dir, 'bundles', 'normal');
    generateBundle(base, { concepts: 100, rulesPer: 2 });
    writeFileSync(join(dir, '.gitignore'), 'bundles/\n');
    for (let f = 0; f < 10; f++) {
      mkdirSync(join(dir, `src/mod${f}`), { recursive: true });
      writeFileSync(join(dir, `src/mod${f}/f.ts`), `export const base${f} = 1;\n`);
    }
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'baseline']);
    // The change: ordinary code, lines that feed the hostile regexes, one credential (a baseline finding).
    for (let f = 0; f < 10; f++) {
      const lines = Array.from({ length: 30 }, (_, i) => (i === 3 ? `const s${i} = "x${'a'.repeat(40)}!";` : `export const v${i} = compute(${i}, ${f});`));
      if (f === 0) lines.push(`const key = '${'AKIA' + 'QYLPMN2RZ4TK7WXB'}';`);
      writeFileSync(join(dir, `src/mod${f}/f.ts`), `export const base${f} = 1;\n${lines.join('\n')}\n`);
    }
    git(dir, ['add', '-A']);

    const bundles = {
      regexes: {
        'evil.md': concept(
          'evil',
          rules([
            { pattern: '(?:a{1,16}){2,16}$' },
            ...Array.from({ length: 10 }, () => ({ pattern: '(a+)+$', flags: 'i' })),
            { pattern: '(?<=x)(a+)+$' },
            { pattern: '(a|aa)+\\1$', flags: 'u' },
            { pattern: '(?<!b)a*a*a*a*!' },
          ]),
        ),
      },
      'long lines': {
        // Lines just under the cap and a rule quadratic on each (a lookbehind: no linear engine),
        // plus a 5 MB one-liner (over the cap: only the credential rules read it).
        'long.md': concept('long', rules([{ pattern: '(?<!z)\\s*y' }])),
      },
      'big concepts (155 MB + 50 MB)': {
        'big.md': concept('big', '', `# Big\n${'All work and no play. '.repeat((155 * MiB) / 22)}\n`),
        'big2.md': concept('big2', '', `# Big\n${'x'.repeat(50 * MiB)}\n`),
      },
      'YAML (aliases, 50,000 keys, depth)': {
        'bomb.md': concept('bomb', `base: &a x\nlist:\n${Array.from({ length: 150 }, () => '  - *a').join('\n')}\n`),
        'laughs.md': concept('laughs', ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n') + '\n'),
        'keys.md': concept('keys', Array.from({ length: 50_000 }, (_, i) => `k${i}: v`).join('\n') + '\n'),
        'deep.md': concept('deep', `d: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`),
      },
      'link parser (200,000 [ and ]( )': {
        'sub/index.md': `${'['.repeat(200_000)}\n${'[a]('.repeat(200_000)}\n`,
      },
      // A concept glob picomatch's regex tries every split of a failing name on (minutes at 45
      // characters before checkGlob skipped it), with such a name in the change.
      'concept glob *a*a…*b (13 wildcards), 45-character name': {
        'slow-glob.md': '---\ntype: Note\nid: slow-glob\npaths: ["*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n---\n# Slow glob\n',
      },
      // The built-in JWT pattern used to backtrack over the whole line from every eyJ (12 s).
      'built-in patterns: 100 KB line of -eyJ': {},
      'heading parser (150,000 spaces)': {
        'heading.md': concept('heading', '', `#${' '.repeat(150_000)}Title${' '.repeat(150_000)}x\n`),
      },
    };
    const links = { 'link parser (200,000 [ and ]( )': ['sub/'] };

    const cache = join(dir, '.git', 'revtrail', 'bundle-cache-v1.json');
    const review = (knowledge) => () => {
      rmSync(cache, { force: true });
      return timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json', '--knowledge', knowledge], { cwd: dir, okCodes: [0, 1] });
    };
    const normal = timeMedian(runs, review(base));
    const out = [];
    for (const [label, files] of Object.entries(bundles)) {
      const kb = join(dir, 'bundles', label.replace(/[^a-z]+/gi, '-'));
      variant(kb, base, files, links[label]);
      const extraFile = {
        'concept glob *a*a…*b (13 wildcards), 45-character name': [`${'a'.repeat(44)}c.txt`, 'plain\n'],
        'built-in patterns: 100 KB line of -eyJ': ['src/mod2/blob.ts', `export const blob = '${'-eyJ'.repeat(25_000)}';\n`],
      }[label];
      if (extraFile) {
        writeFileSync(join(dir, extraFile[0]), extraFile[1]);
        git(dir, ['add', '-A']);
      }
      if (label === 'long lines') {
        // 100 lines of 3,990 characters that the rule reads to the end from every place (no y).
        writeFileSync(join(dir, 'src/mod1/long.ts'), Array.from({ length: 100 }, () => `x${' '.repeat(3989)}`).join('\n') + `\n${'var a=1;'.repeat(655_360)}\n`);
        git(dir, ['add', '-A']);
      }
      out.push(row({ scenario: `hostile: ${label}`, value: timeMedian(runs, review(kb)), floorName: 'normal review', floor: normal, target: TARGET_MS, kind: 'ms' }));
      if (extraFile) {
        rmSync(join(dir, extraFile[0]));
        git(dir, ['add', '-A']);
      }
      if (label === 'long lines') {
        rmSync(join(dir, 'src/mod1/long.ts'));
        git(dir, ['add', '-A']);
      }
      rmSync(kb, { recursive: true, force: true });
    }
    // 10,000 concepts: a fresh clone (no cache) and a warm run.
    const many = join(dir, 'bundles', 'many');
    generateBundle(many, { concepts: 10_000, rulesPer: 2 });
    out.push(row({ scenario: 'hostile: 10,000 concepts, no bundle cache', value: timeMedian(runs, review(many)), floorName: 'normal review', floor: normal, target: TARGET_MS, kind: 'ms' }));
    const warm = () => timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json', '--knowledge', many], { cwd: dir, okCodes: [0, 1] });
    out.push(row({ scenario: 'hostile: 10,000 concepts, warm cache', value: timeMedian(runs, warm), floorName: 'normal review', floor: normal, target: TARGET_MS, kind: 'ms' }));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
