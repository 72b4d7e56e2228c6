// npm pack / npm publish: the tarball must not carry the development `prepare` script (it runs
// scripts/build.mjs, which is not shipped, and npm flags every install script of a dependency).
// `prepare` stays in the repository because `npm install` on a clone and a git-URL install both
// build through it. Like husky's pinst: prepack builds and takes `prepare` out of package.json,
// postpack puts the exact bytes back. See docs/hooks.md, "Packaging".
//
//   node scripts/pack.mjs prepack   build (unless REVTRAIL_PACK_BUILT=1), then strip
//   node scripts/pack.mjs postpack  restore
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const backup = join(root, '.package.json.prepack');

function restore() {
  if (existsSync(backup)) renameSync(backup, manifest);
}

const step = process.argv[2];
if (step === 'prepack') {
  restore(); // a pack that died half-way left a stripped manifest: start from the real one
  if (process.env.REVTRAIL_PACK_BUILT !== '1')
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
  if (!existsSync(join(root, 'dist', 'cli', 'revtrail.js'))) {
    console.error('pack: dist/cli/revtrail.js is missing; run node scripts/build.mjs');
    process.exit(1);
  }
  const text = readFileSync(manifest, 'utf8');
  const json = JSON.parse(text);
  delete json.scripts?.prepare;
  writeFileSync(backup, text);
  writeFileSync(manifest, `${JSON.stringify(json, null, 2)}\n`);
} else if (step === 'postpack') {
  restore();
} else {
  console.error('usage: node scripts/pack.mjs prepack|postpack');
  process.exit(2);
}
