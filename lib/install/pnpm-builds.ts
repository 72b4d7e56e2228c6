/**
 * revtrail's dependencies whose install scripts it does not need (docs/hooks.md, "pnpm"): the
 * @ast-grep language packages ship their parsers prebuilt for Linux, macOS and Windows, and their
 * postinstall only builds one where no prebuild fits. pnpm 10 blocks such scripts and warns on
 * every install; pnpm 11 (strictDepBuilds) refuses the install (ERR_PNPM_IGNORED_BUILDS). An
 * `allowBuilds: NAME: false` entry in pnpm-workspace.yaml is the team's decision, written down:
 * no script, no warning, no refusal. test/install/pnpm-builds.test.ts checks this list against
 * the dependencies that really have install scripts.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { readRegularFile } from '../core/fs/read.js';
import { writeFileAtomic } from '../core/fs/atomic.js';
import { rm } from 'node:fs/promises';
import { addScript, removeScript } from './package-json.js';
import { load } from 'js-yaml';

export const SCRIPTED_DEPENDENCIES: readonly string[] = [
  '@ast-grep/lang-go',
  '@ast-grep/lang-java',
  '@ast-grep/lang-python',
];

export const WORKSPACE_FILE = 'pnpm-workspace.yaml';

/** Whether the package.json installs revtrail (only then are its dependencies' scripts the project's to decide). */
export function dependsOnRevtrail(file: string): boolean {
  try {
    const json = JSON.parse(readRegularFile(file, { maxBytes: 16 * 1024 * 1024 }).bytes.toString('utf8')) as Record<
      string,
      unknown
    >;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => {
      const deps = json[k];
      return deps !== null && typeof deps === 'object' && 'revtrail' in deps;
    });
  } catch {
    return false;
  }
}

/** The lines that decide them, as they go into pnpm-workspace.yaml. */
export function allowBuildsEntries(names: readonly string[] = SCRIPTED_DEPENDENCIES): string {
  return `allowBuilds:\n${names.map((n) => `  '${n}': false`).join('\n')}\n`;
}

export type BuildsState =
  | { kind: 'decided' }
  | { kind: 'undecided'; names: string[]; file: 'none' | 'no-key' | 'key' }
  | { kind: 'unreadable'; why: string };

/**
 * Whether the workspace root's pnpm-workspace.yaml decides each scripted dependency: in
 * `allowBuilds` (true or false), or in pnpm 10's `onlyBuiltDependencies` /
 * `ignoredBuiltDependencies` lists.
 */
export async function buildsState(root: string): Promise<BuildsState> {
  let text: string;
  try {
    text = readRegularFile(join(root, WORKSPACE_FILE), { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { kind: 'undecided', names: [...SCRIPTED_DEPENDENCIES], file: 'none' };
    return { kind: 'unreadable', why: (error as Error).message };
  }
  let data: unknown;
  try {
    data = load(text);
  } catch (error) {
    return { kind: 'unreadable', why: (error as Error).message.split('\n')[0]! };
  }
  const doc = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const allow = doc.allowBuilds && typeof doc.allowBuilds === 'object' ? Object.keys(doc.allowBuilds) : [];
  const listed = ['onlyBuiltDependencies', 'ignoredBuiltDependencies'].flatMap((k) =>
    Array.isArray(doc[k]) ? (doc[k] as unknown[]).map(String) : [],
  );
  const names = SCRIPTED_DEPENDENCIES.filter((n) => !allow.includes(n) && !listed.includes(n));
  if (!names.length) return { kind: 'decided' };
  return { kind: 'undecided', names, file: 'allowBuilds' in doc ? 'key' : 'no-key' };
}

/**
 * Writes the entries where that is plain text work: a new pnpm-workspace.yaml, or a new top-level
 * `allowBuilds` at the end of one that has none. An `allowBuilds` of the team's is not edited:
 * null, and the caller prints the lines to add.
 */
export async function writeAllowBuilds(root: string, state: BuildsState): Promise<'created' | 'added' | null> {
  if (state.kind !== 'undecided' || state.file === 'key') return null;
  const file = join(root, WORKSPACE_FILE);
  if (state.file === 'none') {
    await writeFileAtomic(file, allowBuildsEntries(state.names));
    return 'created';
  }
  const text = readRegularFile(file, { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
  const next = `${text}${text.endsWith('\n') || !text ? '' : '\n'}${allowBuildsEntries(state.names)}`;
  // Appended text ends what came before (a block scalar, a second document): only where the
  // file still reads as one mapping that now decides every name.
  try {
    const doc = load(next) as { allowBuilds?: Record<string, unknown> } | null;
    if (!doc?.allowBuilds || state.names.some((n) => doc.allowBuilds![n] !== false)) return null;
  } catch {
    return null;
  }
  await writeFileAtomic(file, next);
  return 'added';
}

/** Takes out what writeAllowBuilds wrote, where it is still exactly that. */
export async function removeAllowBuilds(root: string): Promise<boolean> {
  const file = join(root, WORKSPACE_FILE);
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
  } catch {
    return false;
  }
  const ours = allowBuildsEntries();
  if (text === ours) {
    await rm(file);
    return true;
  }
  if (!text.endsWith(`\n${ours}`)) return false;
  await writeFileAtomic(file, text.slice(0, -ours.length));
  return true;
}

/**
 * The major version of the pnpm this project installs with: the one running us
 * (npm_config_user_agent), else package.json's packageManager, else the pnpm that installed its
 * node_modules (node_modules/.modules.yaml names it), and only then the pnpm on PATH, which may
 * be a global one the project does not use; null: none to be found. pnpm 9 takes a pnpm-workspace.yaml without `packages` for a broken workspace
 * and runs install scripts anyway, so a new file is only for pnpm 10 and later.
 */
export async function pnpmMajor(root: string): Promise<number | null> {
  const agent = /\bpnpm\/(\d+)\./.exec(process.env.npm_config_user_agent ?? '')?.[1];
  if (agent) return Number(agent);
  try {
    const field = (
      JSON.parse(readRegularFile(join(root, 'package.json'), { maxBytes: 1024 * 1024 }).bytes.toString('utf8')) as {
        packageManager?: unknown;
      }
    ).packageManager;
    const pinned = typeof field === 'string' ? /^pnpm@(\d+)\./.exec(field)?.[1] : undefined;
    if (pinned) return Number(pinned);
  } catch {
    // no package.json here, or not JSON: ask pnpm
  }
  try {
    const modules = readRegularFile(join(root, 'node_modules', '.modules.yaml'), { maxBytes: 4 * 1024 * 1024 });
    const installedBy = /"?packageManager"?:\s*"?pnpm@(\d+)\./.exec(modules.bytes.toString('utf8'))?.[1];
    if (installedBy) return Number(installedBy);
  } catch {
    // not installed by pnpm yet
  }
  const version = await new Promise<string | null>((done) =>
    execFile('pnpm', ['--version'], { cwd: root, timeout: 20_000 }, (error, stdout) => done(error ? null : stdout)),
  );
  const major = /^(\d+)\./.exec(version?.trim() ?? '')?.[1];
  return major ? Number(major) : null;
}

/** The install step for a pnpm project: the entries written, or the lines to add printed. */
export async function pnpmBuildsStep(
  root: string,
  shown: string,
  out: { actions: string[]; notes: string[] },
  say: { written: (file: string) => string; add: (file: string, lines: string) => string; reinstall: string },
): Promise<void> {
  const state = await buildsState(root);
  if (state.kind === 'decided') return;
  if (state.kind === 'unreadable') {
    out.notes.push(say.add(shown, allowBuildsEntries()));
    return;
  }
  if (state.file === 'none' && ((await pnpmMajor(root)) ?? 0) < 10) {
    out.notes.push(say.add(shown, allowBuildsEntries(state.names)));
    return;
  }
  const wrote = await writeAllowBuilds(root, state);
  if (wrote) out.actions.push(say.written(shown));
  else out.notes.push(say.add(shown, allowBuildsEntries(state.names)));
  // pnpm keeps the builds an install ignored in node_modules/.modules.yaml and reports them
  // again on every install that finds nothing to do: this clone needs one fresh install.
  try {
    const modules = readRegularFile(join(root, 'node_modules', '.modules.yaml'), { maxBytes: 4 * 1024 * 1024 });
    if (wrote && state.names.some((n) => modules.bytes.includes(`"${n}@`))) out.notes.push(say.reinstall);
  } catch {
    // no install yet: nothing recorded
  }
}

/**
 * npm 11.16 and later list, after every install, the dependencies whose install scripts
 * `allowScripts` in package.json does not decide (npm 12 blocks them): the same three get
 * `false` there. Returns the names added (an entry of the team's is kept as it is).
 */
export async function addNpmAllowScripts(file: string): Promise<string[]> {
  const added: string[] = [];
  for (const name of SCRIPTED_DEPENDENCIES)
    if ((await addScript(file, name, false, 'allowScripts')).kind === 'added') added.push(name);
  return added;
}

/** Takes out the `false` entries addNpmAllowScripts wrote (and `allowScripts` when nothing else is left). */
export async function removeNpmAllowScripts(file: string): Promise<boolean> {
  let removed = false;
  for (const name of SCRIPTED_DEPENDENCIES)
    removed = (await removeScript(file, name, false, true, 'allowScripts')) || removed;
  return removed;
}
