/** Finds and validates the configuration: revtrail.config.json, else package.json#revtrail. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configSchema, type Config } from './schema.js';
import { InputError } from '../errors.js';
import { configMessages as m } from '../messages/config.js';

export interface LoadedConfig {
  config: Config;
  /** The file the values came from, or null when all are defaults. */
  file: string | null;
}

async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(m.unreadable(file, (error as Error).message), { remedy: m.unreadableRemedy });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(m.notJson(file, (error as Error).message), { remedy: m.notJsonRemedy });
  }
}

export function parseConfig(raw: unknown, file: string | null): Config {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
  const path = [...issue.path, ...keys.slice(0, 1)].join('.');
  throw new InputError(
    issue.code === 'unrecognized_keys' ? m.unknownKey(file, path) : m.badValue(file, path, issue.message),
    { remedy: m.badConfigRemedy },
  );
}

export async function loadConfig(top: string): Promise<LoadedConfig> {
  const own = join(top, 'revtrail.config.json');
  const raw = await readJson(own);
  if (raw !== undefined) return { config: parseConfig(raw, own), file: own };
  const pkgFile = join(top, 'package.json');
  const pkg = (await readJson(pkgFile)) as { revtrail?: unknown } | undefined;
  if (pkg && typeof pkg === 'object' && pkg.revtrail !== undefined) {
    return { config: parseConfig(pkg.revtrail, `${pkgFile}#revtrail`), file: pkgFile };
  }
  return { config: parseConfig({}, null), file: null };
}
