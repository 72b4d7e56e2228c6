// Builds a history with realistic patches for the first-push bench, through `git fast-import`:
// COMMITS commits on `main`, each changing several files (three to eight, now and then a new
// one) by a few hundred lines in all, in hunks of edited, inserted and removed lines of
// TypeScript-like code; the first commit also holds the 100-concept bench bundle. Seeded: the
// same arguments give the same repository, byte for byte.
//
//   node bench/gen-patches.mjs DIR [COMMITS=3000] [--seed N]
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { benchEnv, generatorArgs, prng, tmp } from './lib.mjs';
import { generateBundle } from './gen-bundle.mjs';

const WORDS = [
  'user',
  'order',
  'item',
  'cache',
  'config',
  'request',
  'result',
  'value',
  'count',
  'total',
  'name',
  'path',
  'token',
  'entry',
  'record',
  'state',
  'event',
  'queue',
  'limit',
  'offset',
];
const VERBS = [
  'load',
  'save',
  'compute',
  'parse',
  'format',
  'check',
  'update',
  'resolve',
  'merge',
  'build',
  'read',
  'write',
];
const COMMENTS = [
  'Keep the cache warm between requests.',
  'The caller owns the buffer.',
  'Retry once: the first read may race the writer.',
  'Sorted so that the output is stable.',
  'See the design note on ordering.',
  'Never throws: a bad entry is skipped.',
];

function lineMaker(rand) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const id = () => `${pick(WORDS)}${pick(['', 's', 'Id', 'Count', 'Map'])}`;
  const fn = () => `${pick(VERBS)}${pick(WORDS)[0].toUpperCase()}${pick(WORDS).slice(1)}`;
  const templates = [
    () => `  const ${id()} = ${fn()}(${id()}, ${Math.floor(rand() * 1000)});`,
    () => `  if (${id()}.${pick(WORDS)} > ${Math.floor(rand() * 100)}) {`,
    () => `    ${id()}.push({ ${pick(WORDS)}: ${id()}, ${pick(WORDS)}: ${Math.floor(rand() * 50)} });`,
    () => '  }',
    () => `  return ${fn()}(${id()});`,
    () => `  // ${pick(COMMENTS)}`,
    () => `  for (const ${pick(WORDS)} of ${id()}) ${fn()}(${pick(WORDS)});`,
    () => `  logger.debug(\`${pick(VERBS)} \${${id()}} of \${${id()}}\`);`,
    () => `export function ${fn()}${Math.floor(rand() * 100)}(${id()}: string, ${id()}: number): boolean {`,
    () => '',
    () => `  await ${fn()}(${id()}, { ${pick(WORDS)}: true });`,
  ];
  return () => pick(templates)();
}

export function generatePatches(dir, commits, { seed = 5 } = {}) {
  const rand = prng(seed);
  const line = lineMaker(rand);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const files = [];
  const newFile = () => {
    const f = {
      path: `src/mod${files.length % 50}/${WORDS[files.length % WORDS.length]}${files.length}.ts`,
      lines: Array.from({ length: int(80, 200) }, line),
    };
    files.push(f);
    return f;
  };
  for (let i = 0; i < 400; i++) newFile();

  // The stream goes to a file first: a few thousand commits of whole files is hundreds of MB.
  const work = tmp('revtrail-bench-patches-');
  const streamFile = join(work, 'stream');
  const fd = openSync(streamFile, 'w');
  const emit = (s) => writeSync(fd, s);
  const data = (text) => {
    const buf = Buffer.from(text, 'utf8');
    emit(`data ${buf.length}\n`);
    writeSync(fd, buf);
    emit('\n');
  };
  const modify = (path, content) => {
    emit(`M 100644 inline ${path}\n`);
    data(content);
  };

  const bundle = join(work, 'bundle');
  generateBundle(bundle, { concepts: 100, rulesPer: 2 });
  const bundleFiles = [];
  const walk = (d) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else bundleFiles.push(p);
    }
  };
  walk(bundle);

  let time = Date.UTC(2022, 0, 1) / 1000;
  for (let n = 0; n < commits; n++) {
    time += int(60, 7200);
    emit(`commit refs/heads/main\nmark :${n + 1}\n`);
    const who = `Dev ${n % 12} <dev${n % 12}@example.com> ${time} +0000`;
    emit(`author ${who}\ncommitter ${who}\n`);
    const touched = new Set();
    if (n === 0) {
      data('Initial import\n');
      for (const p of bundleFiles) modify(`.okfw/${relative(bundle, p)}`, readFileSync(p, 'utf8'));
      files.forEach((f) => {
        touched.add(f);
      });
    } else {
      data(
        `Rework ${WORDS[n % WORDS.length]} handling (#${n})\n\nSplit the ${VERBS[n % VERBS.length]} step so that each part can be tested alone.\n`,
      );
      emit(`from :${n}\n`);
      if (rand() < 0.1) touched.add(newFile());
      const count = int(3, 8);
      const budget = int(150, 400); // changed lines in this commit
      while (touched.size < count) touched.add(files[Math.floor(rand() * files.length)]);
      for (const f of touched) {
        let left = Math.ceil(budget / count);
        while (left > 0) {
          const size = Math.min(left, int(3, 30));
          const at = Math.floor(rand() * f.lines.length);
          const r = rand();
          if (r < 0.5) f.lines.splice(at, size, ...Array.from({ length: size }, line));
          else if (r < 0.8) f.lines.splice(at, 0, ...Array.from({ length: size }, line));
          else f.lines.splice(at, size);
          left -= size;
        }
        // Files stay a few hundred lines long.
        if (f.lines.length > 400) f.lines.splice(int(0, 100), 150);
        if (f.lines.length < 20) f.lines.push(...Array.from({ length: 40 }, line));
      }
    }
    for (const f of touched) modify(f.path, f.lines.join('\n') + '\n');
    emit('\n');
  }
  emit('done\n');
  closeSync(fd);
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: benchEnv });
  const input = openSync(streamFile, 'r');
  try {
    execFileSync('git', ['fast-import', '--quiet', '--done'], {
      cwd: dir,
      stdio: [input, 'ignore', 'inherit'],
      env: benchEnv,
    });
  } finally {
    closeSync(input);
    rmSync(work, { recursive: true, force: true });
  }
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir, env: benchEnv });
  return { dir, commits };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { dir, count, seed } = generatorArgs('gen-patches.mjs', { seed: 5, count: 3000 });
  const started = Date.now();
  generatePatches(dir, count, { seed });
  console.error(`${dir}: ${count} commits (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
