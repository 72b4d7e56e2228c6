/**
 * The workspace a command runs in (docs/architecture.md "The workspace"): the repository, found
 * once; its configuration, loaded once; and its knowledge bundle, loaded once per folder. A
 * command opens it and hands it down, so no stage finds the repository or reads the config again.
 */
import { resolve } from 'node:path';
import { findRepo, type Repo } from '../core/git/repo.js';
import { NotARepositoryError } from '../core/git/errors.js';
import { InputError } from '../core/errors.js';
import { configCacheFile } from '../core/state.js';
import { loadConfig, parseConfig } from '../config/load.js';
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
  /** The configuration: the file's values, or the defaults when there is no file or it cannot be used. */
  config: Config;
  /** The file the values came from, or null. */
  configFile: string | null;
  /** Why the configuration could not be used (the defaults stand in), or null (docs/trust.md "Fails closed"). */
  configError: InputError | null;
  /** The configured bundle folder (`knowledge` of the config, from the top level). */
  knowledge: string;
  /** The bundle in DIR (default: the configured one), loaded once per folder and options. */
  bundle(dir?: string, options?: { audit?: boolean }): Promise<Bundle>;
}

export interface OpenOptions {
  /** Outside a repository: throw (the default), or run with the start folder and the defaults. */
  needRepo?: boolean;
  /** Use the validated configuration kept in the git dir (default); false validates it afresh (`knowledge check`). */
  configCache?: boolean;
}

export async function openWorkspace(cwd: string, options: OpenOptions = {}): Promise<Workspace> {
  let repo: Repo | null;
  try {
    repo = await findRepo(cwd);
  } catch (error) {
    if (options.needRepo !== false || !(error instanceof NotARepositoryError)) throw error;
    repo = null;
  }
  const top = repo?.top ?? cwd;
  let config: Config;
  let configFile: string | null = null;
  let configError: InputError | null = null;
  if (repo === null) {
    config = await parseConfig({}, null);
  } else {
    try {
      const found = await loadConfig(
        repo.top,
        options.configCache === false ? {} : { cacheFile: configCacheFile(repo.commonDir) },
      );
      config = found.config;
      configFile = found.file;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      config = await parseConfig({}, null);
      configError = error;
    }
  }
  const knowledge = resolve(top, config.knowledge);
  const bundles = new Map<string, Promise<Bundle>>();
  const bundle = (dir: string = knowledge, o: { audit?: boolean } = {}): Promise<Bundle> => {
    const key = `${o.audit ? 'audit' : 'plain'}\0${dir}`;
    let loaded = bundles.get(key);
    if (!loaded) {
      loaded = loadBundle(dir, {
        base: cwd,
        cacheFile: repo ? bundleCacheFile(repo.commonDir) : undefined,
        audit: o.audit,
        // A configuration that cannot be used names no doc map (the defaults name none).
        docMap:
          repo && config.docMap !== undefined ? { file: resolve(repo.top, config.docMap), top: repo.top } : undefined,
      });
      bundles.set(key, loaded);
    }
    return loaded;
  };
  return { cwd, repo, top, config, configFile, configError, knowledge, bundle };
}
