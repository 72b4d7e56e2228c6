// Build: tsc type-checks and emits one file per module (tests import these), then esbuild
// bundles the CLI so that start-up loads one file instead of hundreds (hooks run on every commit).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
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

// yargs lays out its help (and caches it before running any command) with string-width, whose
// module body builds an Intl.Segmenter and Unicode-property regexes: ~45 ms for the two copies
// yargs and cliui bring, on every command that loads yargs. Printable ASCII (all of revtrail's
// help) has a width equal to its length in every string-width version; anything else still goes
// to the real module, which is then set up on first use (esbuild runs a require()d module lazily).
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) => {
      if (args.namespace === 'lazy-string-width') return undefined; // the shim's own require: the real module
      return { path: args.resolveDir, namespace: 'lazy-string-width' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      resolveDir: args.path,
      loader: 'js',
      contents: [
        'let real;',
        'export default function stringWidth(string, options) {',
        "  if (typeof string === 'string' && /^[\\u0020-\\u007E]*$/.test(string)) return string.length;",
        "  real ??= require('string-width');",
        '  return (real.default ?? real)(string, options);',
        '}',
      ].join('\n'),
    }));
  },
};

// yargs looks for a package.json upwards from the folder it was started in (for its `--version`
// guess, before revtrail gives its own version): in a repository that is the repository's own
// package.json, read whole and synchronously, so one committed as a symlink to /dev/zero or a
// FIFO would hang or exhaust every command (docs/trust.md "Fails closed"). revtrail uses no
// package.json key of yargs' (no pkgConf), so the bundled yargs finds none, as its browser shim does.
const yargsNoPackageLookup = {
  name: 'yargs-no-package-lookup',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const patched = source.replace(/^(\s*)findUp: escalade,$/m, '$1findUp: () => undefined,');
      if (patched === source) throw new Error(`build: yargs' platform shim changed (${args.path}): no "findUp: escalade," to replace`);
      return { contents: patched, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// The bundle is written beside dist/cli and swapped in, so stale chunks never pile up and a
// CLI started meanwhile sees the old bundle or the new one, not a half-written one.
const esbuild = await import('esbuild');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const staging = `dist/cli-${process.pid}`;
const define = {
  // One id for both bundles (lib/core/build.ts): the sources and the locked dependencies.
  REVTRAIL_BUILD: JSON.stringify(sourceHash()),
  REVTRAIL_VERSION: JSON.stringify(manifest.version),
  REVTRAIL_HOMEPAGE: JSON.stringify(typeof manifest.homepage === 'string' ? manifest.homepage : ''),
};
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['lib/cli/main.ts'],
  outdir: staging,
  entryNames: 'revtrail',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true, // the hook path imports only its own chunk: no yargs on commit
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // husky copies its own hook script from beside its module; it must stay a real package.
  // ast-grep's native parser and its language packages load their binaries from beside their modules.
  external: ['husky', '@ast-grep/*'],
  banner: { js: "import { createRequire as __rtCreateRequire } from 'node:module'; const require = __rtCreateRequire(import.meta.url);" },
  define,
  plugins: [lazyStringWidth, yargsNoPackageLookup],
  logLevel: 'warning',
});
// The hook path on its own (lib/cli/hook-start.ts, docs/hooks.md "Start-up"): one CommonJS
// file, compiled through V8's code cache by a tiny CommonJS starter (no ES module loader).
const shared = {
  absWorkingDir: root,
  bundle: true,
  external: ['@ast-grep/*'],
  platform: 'node',
  target: 'node20',
  define,
  plugins: [lazyStringWidth],
  logLevel: 'warning',
};
const commonjs = {
  ...shared,
  format: 'cjs',
  // vm.Script (the code cache's loader) has no ES module loader behind import(): a dynamic
  // import of a node: module becomes a require().
  supported: { 'dynamic-import': false },
  define: { ...define, 'import.meta.url': '__rtImportMetaUrl' },
  banner: { js: "var __rtImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};
await esbuild.build({ ...commonjs, entryPoints: ['lib/hooks/run.ts'], outfile: `${staging}/hook.cjs`, minifyWhitespace: true, minifySyntax: true });
await esbuild.build({ ...commonjs, entryPoints: ['lib/cli/hook-start.ts'], outfile: `${staging}/hook-start.cjs` });
// A cached `revtrail mine` without yargs or the ES module loader (lib/cli/mine-fast.ts, docs/mining.md).
await esbuild.build({ ...commonjs, entryPoints: ['lib/cli/mine-fast.ts'], outfile: `${staging}/mine-fast.cjs`, minifyWhitespace: true, minifySyntax: true });
rmSync(join(root, 'dist', 'cli'), { recursive: true, force: true });
renameSync(join(root, staging), join(root, 'dist', 'cli'));

function sourceHash() {
  const hash = createHash('sha1');
  const files = readdirSync(join(root, 'lib'), { recursive: true }).filter((f) => String(f).endsWith('.ts')).map(String).sort();
  for (const file of [...files.map((f) => join('lib', f)), 'package.json', 'package-lock.json']) {
    hash.update(file).update('\0');
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      // no lockfile in an installed tarball
    }
  }
  return hash.digest('hex').slice(0, 16);
}

if (typeErrors) {
  console.error('build: TypeScript reported errors (above)');
  process.exit(1);
}
