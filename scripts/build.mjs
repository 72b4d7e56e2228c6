// Build: tsc type-checks and emits one file per module (tests import these), then esbuild
// bundles the CLI so that start-up loads one file instead of hundreds (hooks run on every commit).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
if (process.argv.includes('--clean')) rmSync(join(root, 'dist'), { recursive: true, force: true });
// tsc emits even when it reports type errors; the bundle is still made and the build then fails,
// so a type error is never missed but does not hide the rest of the output.
let typeErrors = false;
try {
  execFileSync(process.execPath, [join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'), '-p', root], { stdio: 'inherit', cwd: root });
} catch {
  typeErrors = true;
}

const esbuild = await import('esbuild');
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['lib/cli/main.ts'],
  outdir: 'dist/cli',
  entryNames: 'revtrail',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true, // the hook path imports only its own chunk: no yargs on commit
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // husky copies its own hook script from beside its module; it must stay a real package.
  external: ['husky'],
  banner: { js: "import { createRequire as __rtCreateRequire } from 'node:module'; const require = __rtCreateRequire(import.meta.url);" },
  define: { REVTRAIL_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
  logLevel: 'warning',
});

if (typeErrors) {
  console.error('build: TypeScript reported errors (above)');
  process.exit(1);
}
