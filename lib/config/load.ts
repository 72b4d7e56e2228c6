/**
 * Finds and validates the configuration: revtrail.config.json, else package.json#revtrail.
 *
 * Validation is zod's (./schema.ts), loaded only when needed: the hooks run on every commit and
 * zod's start-up alone costs more than a clean commit's review (docs/hooks.md "Start-up"). A
 * validated configuration is kept in the git common dir together with the exact text it came
 * from and the build that validated it; the next run with the same text and build takes it
 * from there. Validation is a pure function of the text, so a hit gives exactly what
 * validating would; a missing or damaged cache only means validating again.
 */
import { join, sep } from 'node:path';
import type { Config } from './schema.js';
import { InputError } from '../core/errors.js';
import { readDerivedFile, writeDerivedFile } from '../core/derived-cache.js';
import { readFailure, readRegularText } from '../core/fs/read.js';
import { configMessages as m } from '../messages/config.js';
import { closest } from '../core/suggest.js';

export interface LoadedConfig {
  config: Config;
  /** The file the values came from, or null when all are defaults. */
  file: string | null;
  /** The text that decided it (configSource): the same text gives the same configuration. */
  source?: ConfigSource;
}

export interface ConfigSource {
  file: string;
  text: string;
}

/**
 * The text that decides the configuration: revtrail.config.json, else package.json (empty when
 * neither exists). Read alone, it tells whether a configuration validated earlier still holds.
 */
export function configSource(top: string): ConfigSource {
  return readSource(top).source;
}

function readSource(top: string): { source: ConfigSource; own?: string; pkg?: string } {
  const own = join(top, 'revtrail.config.json');
  const ownText = readText(own);
  if (ownText !== undefined) return { source: { file: own, text: ownText }, own: ownText };
  const pkgFile = join(top, 'package.json');
  const pkgText = readText(pkgFile);
  return { source: { file: pkgFile, text: pkgText ?? '' }, pkg: pkgText };
}

/** The most of revtrail.config.json or package.json that is read; a larger one is an error, not a hang (docs/trust.md "Fails closed"). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

// A small file read synchronously: no fs/promises on a clean commit (docs/hooks.md, "Start-up").
// Only a regular file: a committed symlink to /dev/zero or a FIFO is an error, never a read.
function readText(file: string): string | undefined {
  try {
    return readRegularText(file, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new InputError(m.unreadable(file, readFailure(error)), { remedy: m.unreadableRemedy(MAX_CONFIG_BYTES) });
  }
}

function parseJson(file: string, text: string): unknown {
  try {
    // An editor's byte order mark is not part of the JSON.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (error) {
    const at = jsonErrorAt(text, (error as Error).message);
    throw new InputError(
      m.notJson(at ? `${file}:${at.line}:${at.column}` : file, jsonReason((error as Error).message)),
      { remedy: m.notJsonRemedy },
    );
  }
}

/**
 * Line and column (1-based) of a JSON.parse error: Node 20 says only "at position N", later
 * versions add "(line L column C)". An error at the end ("Unexpected end of JSON input") sits
 * after the last character.
 */
export function jsonErrorAt(text: string, message: string): { line: number; column: number } | null {
  const given = /\(line (\d+) column (\d+)\)/.exec(message);
  if (given) return { line: Number(given[1]), column: Number(given[2]) };
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : /end of (JSON|data)/i.test(message) ? text.length : null;
  if (offset === null) return null;
  const before = text.slice(0, offset).replace(/^\uFEFF/, '');
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** JSON.parse's reason without the position (the message names line and column instead). */
function jsonReason(message: string): string {
  return message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s+in JSON at position \d+/, '')
    .replace(/^Unexpected token '(.)', "(.*)" is not valid JSON$/s, "unexpected '$1'");
}

export async function parseConfig(raw: unknown, file: string | null): Promise<Config> {
  const { configSchema } = await import('./schema.js');
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues as unknown as Issue[];
  const near = nearestKeys(configSchema, issues);
  // The hint goes with the problem itself: `knowledge check` and the hooks print the message alone.
  const hint = near.length ? ` (${m.didYouMean(near)})` : '';
  throw new InputError(`${configProblems(issues, file)}${hint}`, { remedy: rootRemedy(raw) });
}

/**
 * Every problem at once, unknown keys first and all of them in one list: fixing a config one
 * error per run is slow, and a second typo should not wait for the first to be fixed.
 */
function configProblems(issues: readonly Issue[], file: string | null): string {
  const unknown: string[] = [];
  const bad: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys')
      unknown.push(...(issue.keys ?? []).map((k) => [...issue.path, k].join('.')));
    else bad.push(m.badValue(issue.path.join('.'), describeIssue(issue)));
  }
  const parts = [...(unknown.length ? [m.unknownKeys(unknown)] : []), ...bad];
  return `${m.where(file)}: ${parts.length ? parts.join('; ') : m.badValue('', m.invalidValue)}`;
}

interface SchemaNode {
  _zod?: { def: { type: string; innerType?: SchemaNode; shape?: Record<string, SchemaNode> } };
}

/** The keys an object of the schema takes at `path` (defaults and optionals unwrapped). */
function keysAt(schema: SchemaNode, path: readonly PropertyKey[]): string[] {
  let node: SchemaNode | undefined = schema;
  const unwrap = () => {
    while (
      node?._zod &&
      (node._zod.def.type === 'default' || node._zod.def.type === 'optional') &&
      node._zod.def.innerType
    )
      node = node._zod.def.innerType;
  };
  unwrap();
  for (const part of path) {
    node = node?._zod?.def.shape?.[String(part)];
    unwrap();
  }
  return Object.keys(node?._zod?.def.shape ?? {});
}

/** "Did you mean" for each unknown key that is a typo of a known one at the same place. */
function nearestKeys(schema: unknown, issues: readonly Issue[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = keysAt(schema as SchemaNode, issue.path);
    for (const key of issue.keys ?? []) {
      const near = closest(key, known);
      if (near) pairs.push([[...issue.path, key].join('.'), [...issue.path, near].join('.')]);
    }
  }
  return pairs;
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

export interface LoadOptions {
  /** Where validated configurations are kept between runs (configCacheFile of core/state.ts); none: always validated. */
  cacheFile?: string;
}

export async function loadConfig(top: string, options: LoadOptions = {}): Promise<LoadedConfig> {
  const own = join(top, 'revtrail.config.json');
  const pkgFile = join(top, 'package.json');
  // The text that decides the configuration: what the cache is keyed by.
  const { source, own: ownText, pkg: pkgText } = readSource(top);
  const cached = options.cacheFile ? readCached(options.cacheFile, source) : undefined;
  if (cached) return { config: cached.config, file: cached.file, source };
  const found = await validate(ownText, own, pkgText, pkgFile);
  if (options.cacheFile) await saveCached(options.cacheFile, source, found);
  return { ...found, source };
}

/** A configuration for a review or a hook: what loadConfig gives, else the defaults and why. */
export interface ReviewConfig extends LoadedConfig {
  /** One line naming what could not be used (the review runs with the defaults), or null. */
  problem: string | null;
  /** The error itself, for the commands that stop on it (`knowledge check`, `stats`), or null. */
  error: InputError | null;
}

/**
 * The configuration a review runs with: a config that cannot be read or validated never stops
 * a review or a hook. The review then runs with the default configuration and the built-in
 * baseline, and says so in one line (docs/trust.md "Fails closed"); `knowledge check` and
 * `stats` (through the workspace) stop on the error, `doctor` uses loadConfig and reports it.
 */
export async function loadReviewConfig(top: string, options: LoadOptions = {}): Promise<ReviewConfig> {
  try {
    return { ...(await loadConfig(top, options)), problem: null, error: null };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // Named from the top level, as every other path in a review's output is.
    const shown = error.message.split(top + sep).join('');
    return { config: await parseConfig({}, null), file: null, problem: m.fellBack(shown), error };
  }
}

async function validate(
  ownText: string | undefined,
  own: string,
  pkgText: string | undefined,
  pkgFile: string,
): Promise<LoadedConfig> {
  if (ownText !== undefined) return { config: await parseConfig(parseJson(own, ownText), own), file: own };
  const pkg = pkgText === undefined ? undefined : (parseJson(pkgFile, pkgText) as { revtrail?: unknown } | undefined);
  if (pkg && typeof pkg === 'object' && pkg.revtrail !== undefined) {
    return { config: await parseConfig(pkg.revtrail, `${pkgFile}#revtrail`), file: pkgFile };
  }
  return { config: await parseConfig({}, null), file: null };
}

interface CachedConfig {
  source: { file: string; text: string };
  found: LoadedConfig;
}

/** The cached validation of exactly this text, by this build (core/derived-cache.ts), or undefined. */
function readCached(cacheFile: string, source: CachedConfig['source']): LoadedConfig | undefined {
  const cached = readDerivedFile(cacheFile) as Partial<CachedConfig> | null;
  if (cached?.source?.file === source.file && cached.source.text === source.text && cached.found?.config)
    return cached.found;
  return undefined;
}

function saveCached(cacheFile: string, source: CachedConfig['source'], found: LoadedConfig): Promise<void> {
  return writeDerivedFile(cacheFile, { source, found });
}
