/** Finds and validates the configuration: revtrail.config.json, else package.json#revtrail. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configSchema, type Config } from './schema.js';
import { InputError } from '../core/errors.js';
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
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new InputError(configProblems(result.error.issues as unknown as Issue[], file), { remedy: rootRemedy(raw) });
}

/**
 * Every problem at once, unknown keys first and all of them in one list: fixing a config one
 * error per run is slow, and a second typo should not wait for the first to be fixed.
 */
function configProblems(issues: readonly Issue[], file: string | null): string {
  const unknown: string[] = [];
  const bad: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') unknown.push(...(issue.keys ?? []).map((k) => [...issue.path, k].join('.')));
    else bad.push(m.badValue(issue.path.join('.'), describeIssue(issue)));
  }
  const parts = [...(unknown.length ? [m.unknownKeys(unknown)] : []), ...bad];
  return `${m.where(file)}: ${parts.length ? parts.join('; ') : m.badValue('', m.invalidValue)}`;
}

function rootRemedy(raw: unknown): string {
  return typeof raw !== 'object' || raw === null || Array.isArray(raw) ? m.notAnObjectRemedy : m.badConfigRemedy;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  keys?: string[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  errors?: Issue[][];
}

/** zod/mini carries no English messages ("Invalid input"): say what the value must be. */
function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return m.expected(issue.expected === 'int' ? 'an integer' : article(issue.expected ?? 'value'));
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') return m.notEmpty;
      return issue.inclusive ? m.atLeast(String(issue.minimum)) : m.above(String(issue.minimum));
    case 'too_big':
      return issue.inclusive ? m.atMost(String(issue.maximum)) : m.below(String(issue.maximum));
    case 'invalid_union': {
      const kinds = (issue.errors ?? []).map((e) => e[0]?.expected).filter((k): k is string => Boolean(k));
      return m.expected(kinds.map(article).join(' or ') || 'another value');
    }
    default:
      return m.invalidValue;
  }
}

function article(kind: string): string {
  return kind === 'array' ? 'a list' : kind === 'object' ? 'an object' : `a ${kind}`;
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
