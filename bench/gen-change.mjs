// Generates a repository with a committed baseline and an uncommitted change of FILES files
// and LINES changed lines in total, spread over the src/mod<N>/ folders of the bench bundle.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, prng } from './lib.mjs';

export function generateChange(dir, { files = 500, lines = 20000, seed = 11, stage = false } = {}) {
  const rand = prng(seed);
  git(dir, ['init', '-q', '-b', 'main']);
  const perFile = Math.ceil(lines / files);
  const paths = [];
  for (let f = 0; f < files; f++) {
    const path = `src/mod${f % 50}/file${f}.ts`;
    mkdirSync(join(dir, `src/mod${f % 50}`), { recursive: true });
    writeFileSync(join(dir, path), `export const base${f} = ${f};\n`);
    paths.push(path);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'baseline']);
  for (const [f, path] of paths.entries()) {
    const body = [];
    for (let l = 0; l < perFile; l++) {
      const n = Math.floor(rand() * 1000);
      body.push(l % 97 === 0 ? `  forbidden${n}_0(value${l});` : `  const value${l} = compute(${n}, "text ${l}");`);
    }
    writeFileSync(
      join(dir, path),
      `export const base${f} = ${f};\nexport function run${f}() {\n${body.join('\n')}\n}\n`,
    );
  }
  if (stage) git(dir, ['add', '-A']);
  return paths;
}
