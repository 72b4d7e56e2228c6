/**
 * lib/install/pnpm-builds.ts: the list of revtrail's dependencies with install scripts is the
 * real one (read from the installed dependency tree, so a new dependency with a postinstall fails
 * here), and the pnpm-workspace.yaml edits are exact: created, appended where the file has no
 * allowBuilds (and still reads as one mapping), left to the team where it has one, undone byte
 * for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import {
  SCRIPTED_DEPENDENCIES,
  allowBuildsEntries,
  buildsState,
  removeAllowBuilds,
  writeAllowBuilds,
} from '../../lib/install/pnpm-builds.js';
import { projectRoot, tempDir } from '../kit/repo.js';

test("the scripted dependencies are exactly those of revtrail's production tree with an install script", () => {
  const root = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const seen = new Set<string>();
  const scripted: string[] = [];
  const visit = (name: string, from: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    let file: string;
    try {
      file = createRequire(join(from, 'package.json')).resolve(`${name}/package.json`);
    } catch {
      return; // an optional dependency for another platform
    }
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    if (['preinstall', 'install', 'postinstall'].some((s) => pkg.scripts?.[s])) scripted.push(name);
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, join(file, '..'));
  };
  for (const dep of Object.keys(root.dependencies)) visit(dep, projectRoot);
  assert.deepEqual(scripted.sort(), [...SCRIPTED_DEPENDENCIES].sort());
});

test('pnpm-workspace.yaml: created, appended, left alone, undone', async () => {
  const none = tempDir();
  const fresh = await buildsState(none);
  assert.deepEqual(fresh, { kind: 'undecided', names: [...SCRIPTED_DEPENDENCIES], file: 'none' });
  assert.equal(await writeAllowBuilds(none, fresh), 'created');
  assert.equal(readFileSync(join(none, 'pnpm-workspace.yaml'), 'utf8'), allowBuildsEntries());
  assert.deepEqual(await buildsState(none), { kind: 'decided' });
  assert.equal(await removeAllowBuilds(none), true);
  assert.equal(existsSync(join(none, 'pnpm-workspace.yaml')), false);

  const workspace = tempDir();
  const team = "packages:\n  - 'packages/*'\ncatalog:\n  vue: ^3.5.0\n";
  writeFileSync(join(workspace, 'pnpm-workspace.yaml'), team);
  const state = await buildsState(workspace);
  assert.equal(state.kind === 'undecided' && state.file, 'no-key');
  assert.equal(await writeAllowBuilds(workspace, state), 'added');
  assert.deepEqual(await buildsState(workspace), { kind: 'decided' });
  assert.equal(await removeAllowBuilds(workspace), true);
  assert.equal(readFileSync(join(workspace, 'pnpm-workspace.yaml'), 'utf8'), team);

  // The team's own allowBuilds, and a file that is no mapping: not edited.
  writeFileSync(join(workspace, 'pnpm-workspace.yaml'), 'allowBuilds:\n  esbuild: true\n');
  const theirs = await buildsState(workspace);
  assert.equal(theirs.kind === 'undecided' && theirs.file, 'key');
  assert.equal(await writeAllowBuilds(workspace, theirs), null);
  writeFileSync(join(workspace, 'pnpm-workspace.yaml'), '- a\n- b\n');
  assert.equal(await writeAllowBuilds(workspace, await buildsState(workspace)), null);
  // pnpm 10's lists decide too.
  writeFileSync(
    join(workspace, 'pnpm-workspace.yaml'),
    `ignoredBuiltDependencies:\n${SCRIPTED_DEPENDENCIES.map((n) => `  - '${n}'`).join('\n')}\n`,
  );
  assert.deepEqual(await buildsState(workspace), { kind: 'decided' });
});
