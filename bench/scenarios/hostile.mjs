// Hostile input, worst case per class (docs/bundle.md): `revtrail review --staged` of one change
// (10 files, 300 lines, a 100-concept bundle) next to the same review with one hostile addition,
// each run without the bundle cache (a fresh clone pays every parse and every overrun), so the
// time is the worst a first review sees. Target: every row within a few seconds (5 s).
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cli, git, peakMemoryMiB, row, timeMedian, timeOnce, tmp } from '../lib.mjs';
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
const rules = (list) =>
  `rules:\n${list.map((r, i) => `  - {id: r${i}, pattern: ${JSON.stringify(r.pattern)}, flags: "${r.flags ?? ''}", severity: nit, category: style, title: "hostile ${i}"}`).join('\n')}\n`;

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
      const lines = Array.from({ length: 30 }, (_, i) =>
        i === 3 ? `const s${i} = "x${'a'.repeat(40)}!";` : `export const v${i} = compute(${i}, ${f});`,
      );
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
        'laughs.md': concept(
          'laughs',
          [
            'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
            ...Array.from(
              { length: 8 },
              (_, i) =>
                `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
                  .fill(`*${String.fromCharCode(97 + i)}`)
                  .join(', ')}]`,
            ),
          ].join('\n') + '\n',
        ),
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
      return timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json', '--knowledge', knowledge], {
        cwd: dir,
        okCodes: [0, 1],
      });
    };
    const normal = timeMedian(runs, review(base));
    const out = [];
    for (const [label, files] of Object.entries(bundles)) {
      const kb = join(dir, 'bundles', label.replace(/[^a-z]+/gi, '-'));
      variant(kb, base, files, links[label]);
      const extraFile = {
        'concept glob *a*a…*b (13 wildcards), 45-character name': [`${'a'.repeat(44)}c.txt`, 'plain\n'],
        'built-in patterns: 100 KB line of -eyJ': [
          'src/mod2/blob.ts',
          `export const blob = '${'-eyJ'.repeat(25_000)}';\n`,
        ],
      }[label];
      if (extraFile) {
        writeFileSync(join(dir, extraFile[0]), extraFile[1]);
        git(dir, ['add', '-A']);
      }
      if (label === 'long lines') {
        // 100 lines of 3,990 characters that the rule reads to the end from every place (no y).
        writeFileSync(
          join(dir, 'src/mod1/long.ts'),
          Array.from({ length: 100 }, () => `x${' '.repeat(3989)}`).join('\n') + `\n${'var a=1;'.repeat(655_360)}\n`,
        );
        git(dir, ['add', '-A']);
      }
      out.push(
        row({
          scenario: `hostile: ${label}`,
          value: timeMedian(runs, review(kb)),
          floorName: 'normal review',
          floor: normal,
          target: TARGET_MS,
          kind: 'ms',
        }),
      );
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
    out.push(...configRows(dir, runs, base, normal));
    // 10,000 concepts: a fresh clone (no cache) and a warm run.
    const many = join(dir, 'bundles', 'many');
    generateBundle(many, { concepts: 10_000, rulesPer: 2 });
    out.push(
      row({
        scenario: 'hostile: 10,000 concepts, no bundle cache',
        value: timeMedian(runs, review(many)),
        floorName: 'normal review',
        floor: normal,
        target: TARGET_MS,
        kind: 'ms',
      }),
    );
    const warm = () =>
      timeOnce(process.execPath, [cli, 'review', '--staged', '--format', 'json', '--knowledge', many], {
        cwd: dir,
        okCodes: [0, 1],
      });
    out.push(
      row({
        scenario: 'hostile: 10,000 concepts, warm cache',
        value: timeMedian(runs, warm),
        floorName: 'normal review',
        floor: normal,
        target: TARGET_MS,
        kind: 'ms',
      }),
    );
    out.push(...pushRows(runs));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A repository's config that cannot be used (docs/trust.md "Fails closed"): the review runs with
 * the defaults and the baseline, so each row must still find the change's AWS key (exit 1 only),
 * and a config that is a device or a FIFO is refused before a byte is read (bounded memory).
 */
export function configRows(dir, runs, base, normal) {
  const own = join(dir, 'revtrail.config.json');
  const pkg = join(dir, 'package.json');
  const clear = () =>
    [own, pkg].forEach((f) => {
      rmSync(f, { force: true });
    });
  const cases = {
    'config with a missing comma': () => writeFileSync(own, '{\n  "minConfidence": 0.5\n  "softTests": true\n}\n'),
    'config with an unknown key': () => writeFileSync(own, '{"knowlege": ".okfw"}\n'),
    'config builtinRules false + minConfidence 1': () =>
      writeFileSync(own, '{"builtinRules": false, "minConfidence": 1}\n'),
    'config a symlink to /dev/zero': () => symlinkSync('/dev/zero', own),
    'config a symlink to /dev/urandom': () => symlinkSync('/dev/urandom', own),
    'config a FIFO': () => execFileSync('mkfifo', [own]),
    'package.json a symlink to /dev/zero': () => symlinkSync('/dev/zero', pkg),
  };
  const args = [cli, 'review', '--staged', '--format', 'json', '--knowledge', base];
  const out = [];
  try {
    for (const [label, setup] of Object.entries(cases)) {
      clear();
      setup();
      const value = timeMedian(runs, () => timeOnce(process.execPath, args, { cwd: dir, okCodes: [1] }));
      out.push(
        row({
          scenario: `hostile: ${label}`,
          value,
          floorName: 'normal review',
          floor: normal,
          target: TARGET_MS,
          kind: 'ms',
        }),
      );
      if (label === 'config a symlink to /dev/zero') {
        const mib = peakMemoryMiB(process.execPath, args, { cwd: dir });
        if (mib !== null)
          out.push(row({ scenario: `hostile: ${label}, peak memory`, value: mib, target: 512, kind: 'MiB' }));
      }
    }
  } finally {
    clear();
  }
  return out;
}

/**
 * The push gate against what a repository's files can do to it (docs/review.md "Git's
 * attributes" and "Big files", docs/hooks.md "Push"): `revtrail hook pre-push` for a branch of two
 * commits, a key added and then removed, next to a push of the same shape with an ordinary
 * file. Each run must block (exit 1: the key was found), or the bench stops.
 */
export function pushRows(runs) {
  const dir = tmp('revtrail-bench-hostile-push-');
  const remote = tmp('revtrail-bench-hostile-remote-');
  const key = 'AKIA' + 'QYLPMN2RZ4TK7WXB';
  try {
    git(remote, ['init', '-q', '--bare']);
    git(dir, ['init', '-q', '-b', 'main']);
    writeFileSync(join(dir, 'README.md'), 'base\n');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'base']);
    git(dir, ['remote', 'add', 'origin', remote]);
    git(dir, ['push', '-q', 'origin', 'main']);
    const branch = (name, files) => {
      git(dir, ['checkout', '-q', '-b', name, 'main']);
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(join(dir, file, '..'), { recursive: true });
        writeFileSync(join(dir, file), content);
      }
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '-m', 'add']);
      writeFileSync(join(dir, 'src/key.ts'), 'export const k = process.env.K;\n');
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '-m', 'remove the key']);
      const sha = git(dir, ['rev-parse', 'HEAD']).trim();
      git(dir, ['checkout', '-q', 'main']);
      return `refs/heads/${name} ${sha} refs/heads/${name} ${'0'.repeat(40)}\n`;
    };
    const hook = (input) => () =>
      timeOnce(process.execPath, [cli, 'hook', 'pre-push', 'origin', remote], { cwd: dir, input, okCodes: [1] });
    const keyFile = { 'src/key.ts': `export const k = "${key}";\n` };
    const plain = timeMedian(runs, hook(branch('plain', { ...keyFile, 'src/a.ts': 'export const a = 1;\n' })));
    const out = [];
    const MiB = 1024 * 1024;
    const cases = {
      'push, sub/.gitattributes "* binary" over the key': { 'src/.gitattributes': '* binary\n', ...keyFile },
      'push, the key in a UTF-16 file and a binary blob': {
        'src/key.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`k = "${key}"\r\n`, 'utf16le')]),
        'assets/blob.dat': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]), Buffer.from(`\0${key}\0`)]),
      },
      'push, a NUL after the binary sniff before the key': {
        'a-data.txt': `${'text line\n'.repeat(1000)}\0\n`,
        ...keyFile,
      },
    };
    for (const [label, files] of Object.entries(cases)) {
      out.push(
        row({
          scenario: `hostile: ${label}`,
          value: timeMedian(runs, hook(branch(label.replace(/[^a-z0-9]+/gi, '-'), files))),
          floorName: 'plain push',
          floor: plain,
          target: TARGET_MS,
          kind: 'ms',
        }),
      );
    }
    // Real sizes, one run each (git itself takes seconds to add them): two 300 MB files, and
    // 200 MB of two-byte lines, beside the key in a small file.
    const line = 'const filler = "0123456789abcdef0123456789abcdef0123456789abcdef";\n';
    const big = line.repeat(Math.ceil((300 * MiB) / line.length));
    const bigInput = branch('big-files', { 'big/one.js': big, 'big/two.js': big, ...keyFile });
    out.push(
      row({
        scenario: 'hostile: push, two 300 MB files + the key',
        value: hook(bigInput)(),
        floorName: 'plain push',
        floor: plain,
        target: TARGET_MS,
        kind: 'ms',
      }),
    );
    const peak = peakMemoryMiB(process.execPath, [cli, 'hook', 'pre-push', 'origin', remote], {
      cwd: dir,
      input: bigInput,
    });
    if (peak !== null)
      out.push(
        row({ scenario: 'hostile: push, two 300 MB files, peak memory', value: peak, target: 512, kind: 'MiB' }),
      );
    const shortInput = branch('short-lines', { 'big/short.txt': 'x\n'.repeat(100 * MiB), ...keyFile });
    out.push(
      row({
        scenario: 'hostile: push, 200 MB of short lines + the key',
        value: hook(shortInput)(),
        floorName: 'plain push',
        floor: plain,
        target: TARGET_MS,
        kind: 'ms',
      }),
    );
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(remote, { recursive: true, force: true });
  }
}
