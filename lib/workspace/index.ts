/**
 * The workspace a command or a flow runs in (docs/architecture.md "The workspace"): the
 * repository, found once; its configuration, loaded once; the policy's folder (the work tree, or
 * another commit's policy copied out for the server gate and `--policy-from`); and the knowledge
 * bundle, loaded once per folder. It is opened once per process and handed down, so no stage
 * finds the repository or reads the config again. A review's session is a workspace
 * (review/index.ts runReview takes one).
 */
import { resolve } from 'node:path';
import { findRepo, type Repo } from '../core/git/repo.js';
import { NotARepositoryError } from '../core/git/errors.js';
import type { InputError } from '../core/errors.js';
import { bundleSnapshotFile, configCacheFile, derivedCacheFile } from '../core/state.js';
import { openDerivedCache } from '../core/derived-cache.js';
import { loadReviewConfig, type ConfigSource } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { loadBundle } from '../bundle/load.js';
import { bundleCacheFile } from '../bundle/cache.js';
import type { Bundle } from '../bundle/types.js';

export interface Workspace {
  /** The folder the command was started from. */
  cwd: string;
  /** The repository, or null outside one (only when the caller allowed it). */
  repo: Repo | null;
  /** The work tree's top level (the start folder outside a repository). */
  top: string;
  /** The git common dir (queues, caches), or null outside a repository. */
  commonDir: string | null;
  /** The configuration: the file's values, or the defaults when there is no file or it cannot be used. */
  config: Config;
  /** The file the values came from (`…/package.json#revtrail` for that key), or null. */
  configFile: string | null;
  /** Why the configuration could not be used (the defaults stand in), or null (docs/trust.md "Fails closed"). */
  configError: InputError | null;
  /** The same, as the one line a review or hook says (paths from the top level), or null. */
  configProblem: string | null;
  /** The text the configuration came from (absent for one handed in, or the defaults after a problem). */
  configSource?: ConfigSource;
  /** Where the policy (config, bundle, doc map) was read: the top level, or a copied policy's folder. */
  policyTop: string;
  /**
   * The commit the policy was copied from (`--policy-from`, the server gate), or null: the work
   * tree's. Its tree's .gitattributes decide what is reviewed (docs/review.md "Git's attributes").
   */
  policyCommit: string | null;
  /** The bundle folder: `knowledge` of the config from the policy's top, or the one asked for. */
  knowledge: string;
  /** The bundle in DIR (default: `knowledge`), loaded once per folder and options. */
  bundle(dir?: string, options?: { audit?: boolean }): Promise<Bundle>;
}

export interface OpenOptions {
  /** Outside a repository: throw (the default), or run with the start folder. */
  needRepo?: boolean;
  /** Use the validated configuration kept in the git dir (default); false validates it afresh (`knowledge check`). */
  configCache?: boolean;
  /** The repository, already found (a hook's one `rev-parse`): not asked again. */
  repo?: Repo;
  /** The configuration, already chosen: not read. */
  config?: Config;
  /** The bundle folder as the user typed it (relative to `cwd`), instead of the configured one. */
  knowledge?: string;
  /** A folder another commit's policy was copied into (its paths are relative to it), and that commit. */
  policyTop?: string;
  policyCommit?: string;
}

export async function openWorkspace(cwd: string, options: OpenOptions = {}): Promise<Workspace> {
  let repo: Repo | null;
  try {
    repo = options.repo ?? (await findRepo(cwd));
  } catch (error) {
    if (options.needRepo !== false || !(error instanceof NotARepositoryError)) throw error;
    repo = null;
  }
  const top = repo?.top ?? resolve(cwd);
  const commonDir = repo?.commonDir ?? null;
  // Globs' regexes and rules' needles from earlier runs, before selection or a rule needs them.
  if (commonDir !== null) openDerivedCache(derivedCacheFile(commonDir));
  const policyTop = options.policyTop ?? top;
  // A configuration that cannot be used is one error for the caller to say or stop on, never
  // the end of a review: the defaults stand in (docs/trust.md "Fails closed").
  const found = options.config
    ? { config: options.config, file: null, problem: null, error: null }
    : await loadReviewConfig(policyTop, {
        cacheFile: commonDir === null || options.configCache === false ? undefined : configCacheFile(commonDir),
      });
  const config = found.config;
  // --knowledge is what the user typed (relative to where they are); config.knowledge is relative to the policy's top.
  const knowledge =
    options.knowledge !== undefined ? resolve(cwd, options.knowledge) : resolve(policyTop, config.knowledge);
  const bundles = new Map<string, Promise<Bundle>>();
  const bundle = (dir: string = knowledge, o: { audit?: boolean } = {}): Promise<Bundle> => {
    const key = `${o.audit ? 'audit' : 'plain'}\0${dir}`;
    let loaded = bundles.get(key);
    if (!loaded) {
      loaded = loadBundle(dir, {
        // A copied policy names its files as the commit they came from does.
        base: options.policyTop ?? cwd,
        cacheFile: commonDir === null ? undefined : bundleCacheFile(commonDir),
        // The configured bundle of the work tree only: a policy copy or a folder named on the
        // command line would take the snapshot's place and write it on every run.
        snapshotFile:
          commonDir === null || options.policyTop !== undefined || options.knowledge !== undefined || dir !== knowledge
            ? undefined
            : bundleSnapshotFile(commonDir),
        audit: o.audit,
        // A configuration that cannot be used names no doc map (the defaults name none).
        docMap: config.docMap === undefined ? undefined : { file: resolve(policyTop, config.docMap), top: policyTop },
      });
      bundles.set(key, loaded);
    }
    return loaded;
  };
  return {
    cwd,
    repo,
    top,
    commonDir,
    config,
    configFile: found.file,
    configError: found.error,
    configProblem: found.problem,
    configSource: 'source' in found ? found.source : undefined,
    policyTop,
    policyCommit: options.policyCommit ?? null,
    knowledge,
    bundle,
  };
}
