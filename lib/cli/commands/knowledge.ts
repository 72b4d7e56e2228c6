/**
 * `revtrail knowledge check [DIR]` validates a bundle; `revtrail knowledge select` shows which
 * documents govern each chunk of a diff and why (docs/cli.md, docs/bundle.md).
 */
import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { toPosix } from '../../core/fs/path.js';
import { defineCommand, type CliContext } from '../command.js';
import { findRepo } from '../../core/git/repo.js';
import { NotARepositoryError } from '../../core/git/errors.js';
import { loadConfig, parseConfig } from '../../config/load.js';
import { conceptPath, loadBundle, formatDiagnostic } from '../../bundle/load.js';
import type { DocMapOptions } from '../../bundle/docmap.js';
import { bundleCacheFile } from '../../bundle/cache.js';
import { diffSourceFromFile } from '../../diff/source.js';
import type { DiffSource } from '../../diff/types.js';
import type { Bundle, Concept, Diagnostic } from '../../bundle/types.js';
import { matchesEmpty, ruleTimeKey, superLinearRisk } from '../../review/regex-guard.js';
import type { Config } from '../../config/schema.js';
import { InputError, UsageError } from '../../core/errors.js';
import { escapeControl } from '../../core/output.js';
import { bundleMessages as bm } from '../../messages/bundle.js';
import { selectMessages as m } from '../../messages/select.js';

interface CheckArgs {
  dir?: string;
  json: boolean;
  knowledge?: string;
}

interface SelectArgs {
  json: boolean;
  knowledge?: string;
  diff?: string;
  staged: boolean;
  range?: string;
}

const checkCommand = defineCommand<CheckArgs>({
  command: 'check [dir]',
  describe: 'Validate a bundle: errors print file:line: message and exit 1, warnings exit 0',
  builder: (yargs) =>
    yargs
      .positional('dir', { type: 'string', describe: 'The bundle folder (default: "knowledge" of the config, .okfw)' })
      .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' })
      .option('knowledge', { type: 'string', describe: 'The bundle folder (same as DIR)' })
      .example('$0 knowledge check', 'validate the configured bundle'),
  async run(args, context) {
    if (args.knowledge === '') throw new UsageError(m.needsValue('knowledge'), { remedy: m.needsValueRemedy });
    return await check(args, context);
  },
});

const selectCommand = defineCommand<SelectArgs>({
  command: 'select',
  describe: 'Show, per chunk of a diff, the governing documents in selection order and why',
  builder: (yargs) =>
    yargs
      .usage('$0 knowledge select [--diff FILE|- | --staged | --range A..B] [--knowledge DIR] [--json]\n\nDefault diff: all uncommitted changes against HEAD, new (untracked, not ignored) files included.')
      .option('diff', { type: 'string', requiresArg: true, describe: 'Read the diff from FILE, or stdin with -' })
      .option('staged', { type: 'boolean', default: false, describe: 'The staged changes' })
      .option('range', { type: 'string', describe: 'The changes of a range, A..B or A...B' })
      .option('knowledge', { type: 'string', describe: 'The bundle folder (default: "knowledge" of the config, .okfw)' })
      .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' })
      .example('$0 knowledge select --staged', 'which documents govern the staged change'),
  async run(args, context) {
    // --range and --knowledge without a value (or with `=` and none) arrive as '': named here.
    for (const option of ['diff', 'range', 'knowledge'] as const) {
      if (args[option] === '') throw new UsageError(m.needsValue(option), { remedy: m.needsValueRemedy });
    }
    return await select(args, context);
  },
});

export default defineCommand({
  command: 'knowledge',
  describe: 'Validate the knowledge bundle (check) or show which documents govern a diff (select)',
  builder: (yargs) => yargs.usage('$0 knowledge <check|select> [options]'),
  subcommands: [checkCommand, selectCommand],
});

const shown = (cwd: string, abs: string) => toPosix(relative(cwd, abs)) || '.';

/** The work tree's top and its config; outside a repository only when the caller can do without. */
async function where(cwd: string, needRepo: boolean): Promise<{ top: string; config: Config }> {
  try {
    const repo = await findRepo(cwd);
    return { top: repo.top, config: (await loadConfig(repo.top)).config };
  } catch (error) {
    if (needRepo || !(error instanceof NotARepositoryError)) throw error;
    return { top: cwd, config: await parseConfig({}, null) };
  }
}

/** The configuration's problem as a check error, or null (fine, or no repository to have one). */
async function checkConfig(cwd: string): Promise<Diagnostic | null> {
  const repo = await findRepo(cwd).catch(() => null);
  if (!repo) return null;
  try {
    await loadConfig(repo.top);
    return null;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { level: 'error', file: null, line: null, message: error.message };
  }
}

/** The configured doc map, if any (a broken configuration is checkConfig's to report). */
async function docMapOf(cwd: string): Promise<DocMapOptions | undefined> {
  const repo = await findRepo(cwd).catch(() => null);
  if (!repo) return undefined;
  const config = await loadConfig(repo.top).then((found) => found.config, () => null);
  return config?.docMap === undefined ? undefined : { file: resolve(repo.top, config.docMap), top: repo.top };
}

/** The config's per-rule excludes against the rules there are: a bad glob is an error, an unknown rule a warning. */
async function excludeDiagnostics(cwd: string, bundle: Bundle): Promise<Diagnostic[]> {
  const repo = await findRepo(cwd).catch(() => null);
  const found = repo ? await loadConfig(repo.top).catch(() => null) : null;
  if (!found || Object.keys(found.config.exclude).length === 0) return [];
  const { checkExcludes } = await import('../../review/excludes.js');
  const file = found.file ? shown(cwd, found.file) : null;
  return checkExcludes(found.config.exclude, bundle).map((p) => ({ level: p.level, file, line: null, message: p.message }));
}

async function check(args: CheckArgs, context: CliContext): Promise<number> {
  const given = args.dir ?? args.knowledge;
  // With DIR given the configuration is still checked (a broken one would stop every review);
  // without DIR it names the bundle, so a broken one stops the check as it stops a review.
  const configError = given !== undefined ? await checkConfig(context.cwd) : null;
  const dir = given !== undefined ? resolve(context.cwd, given) : await where(context.cwd, true).then(({ top, config }) => resolve(top, config.knowledge));
  const name = shown(context.cwd, dir);
  const docMap = await docMapOf(context.cwd);
  const info = await stat(dir).catch(() => null);
  // With a doc map the bundle may be absent (docs/bundle.md "Doc map").
  if (!info && !docMap) throw new InputError(bm.checkMissing(name), { remedy: bm.checkMissingRemedy });
  if (info && !info.isDirectory()) throw new InputError(bm.checkNotAFolder(name), { remedy: bm.checkMissingRemedy });

  // The repository's bundle cache, when there is one, holds the rules that overran in reviews.
  const cacheFile = await findRepo(context.cwd).then((repo) => bundleCacheFile(repo.commonDir), () => undefined);
  const bundle = await loadBundle(dir, { base: context.cwd, cacheFile, audit: true, docMap });
  bundle.diagnostics.push(...patternWarnings(bundle, context.cwd), ...(await structuralErrors(bundle, context.cwd)), ...(await excludeDiagnostics(context.cwd, bundle)));
  const errors = [...(configError ? [configError] : []), ...bundle.diagnostics.filter((d) => d.level === 'error')];
  const warnings = bundle.diagnostics.filter((d) => d.level === 'warning');
  const rules = bundle.concepts.reduce((n, c) => n + c.rules.length + (c.structural?.length ?? 0), 0);
  const mapped = bundle.concepts.filter((c) => c.mapped).length;
  if (args.json) {
    const plain = (d: (typeof errors)[number]) => ({ file: d.file, line: d.line, message: d.message });
    const report = {
      bundle: name,
      concepts: bundle.concepts.map((c) => ({ id: c.id, file: c.file, type: c.type, title: c.title, rules: [...c.rules, ...(c.structural ?? [])].map((r) => r.ruleSource), ...(c.mapped ? { mapped: true, paths: c.paths } : {}) })),
      ...(bundle.docMap ? { docMap: { file: shown(context.cwd, bundle.docMap.file), usable: !bundle.docMap.unusable, documents: mapped } } : {}),
      errors: errors.map(plain),
      warnings: warnings.map(plain),
    };
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const lines = [...errors, ...warnings].map((d) => escapeControl(formatDiagnostic(d)));
    lines.push(bm.checkSummary(name, bundle.concepts.length, rules, errors.length, warnings.length));
    if (bundle.docMap) lines.push(bm.checkDocMap(shown(context.cwd, bundle.docMap.file), mapped, bundle.docMap.unusable));
    context.stdout.write(`${lines.join('\n')}\n`);
  }
  // A configuration or a doc map that cannot be used is an input error (exit 2): in a review and
  // the hooks it only warns (docs/trust.md "Fails closed").
  if (configError || bundle.docMap?.unusable) return 2;
  return errors.length ? 1 : 0;
}

/**
 * What `knowledge check` adds about rule patterns: ones that match the empty string, ones at
 * risk of super-linear matching (they run in the regex sandbox, under a deadline), and ones
 * that overran their time in an earlier review (docs/bundle.md "Time").
 */
function patternWarnings(bundle: Bundle, cwd: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const concept of bundle.concepts) {
    const file = shown(cwd, conceptPath(bundle, concept));
    for (const rule of concept.rules) {
      const label = `"${rule.id}"`;
      const warn = (message: string) => out.push({ level: 'warning', file, line: rule.line ?? null, message });
      if (matchesEmpty(rule.pattern, rule.flags)) warn(bm.patternMatchesEmpty(label));
      const risk = superLinearRisk(rule.pattern, rule.flags);
      if (risk) warn(bm.patternSuperLinear(label, risk));
      if (bundle.overran?.has(ruleTimeKey(rule))) warn(bm.ruleOverran(label));
    }
  }
  return out;
}

/** A document's rules with their kind: `pattern` (a regex), `ast` (a syntax-tree pattern) or `imports` (a boundary). */
function rulesOf(concept: Concept): Array<{ id: string; kind: 'pattern' | 'ast' | 'imports'; language?: string }> {
  return [
    ...concept.rules.map((r) => ({ id: r.id, kind: 'pattern' as const })),
    ...(concept.structural ?? []).map((r) => (r.kind === 'ast' ? { id: r.id, kind: r.kind, language: r.language } : { id: r.id, kind: r.kind })),
  ];
}

/** `knowledge check`: every `ast` rule's pattern parsed in its language (the parser loads only if a bundle has one). */
async function structuralErrors(bundle: Bundle, cwd: string): Promise<Diagnostic[]> {
  const rules = bundle.concepts.flatMap((c) => (c.structural ?? []).filter((r) => r.kind === 'ast').map((rule) => ({ concept: c, rule })));
  if (!rules.length) return [];
  const { checkAstRule } = await import('../../review/structural/match.js');
  const out: Diagnostic[] = [];
  for (const { concept, rule } of rules) {
    const why = rule.kind === 'ast' ? checkAstRule(rule) : null;
    if (why) out.push({ level: 'error', file: shown(cwd, conceptPath(bundle, concept)), line: rule.line ?? null, message: bm.astPattern(`"${rule.id}"`, why) });
  }
  return out;
}

async function select(args: SelectArgs, context: CliContext): Promise<number> {
  const chosen = [args.diff !== undefined, args.staged, args.range !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UsageError(m.twoSources, { remedy: m.twoSourcesRemedy });
  const source: DiffSource =
    args.diff !== undefined
      ? await diffSourceFromFile(args.diff, context.cwd)
      : args.staged
        ? { kind: 'staged' }
        : args.range !== undefined
          ? { kind: 'range', range: args.range }
          : { kind: 'worktree' };
  const { openReview, selectChunks } = await import('../../review/index.js');
  const session = await openReview(context.cwd, { knowledge: args.knowledge, allowOutsideRepo: source.kind === 'text' });
  const { chunks, selections, bundle } = await selectChunks(session, source);
  // A config that could not be used: selection ran with the defaults, as a review does.
  const warnings = [...(session.configProblem ? [session.configProblem] : []), ...(bundle ?? (await session.bundle())).diagnostics.map(formatDiagnostic)];
  const shownWarnings = warnings.map((w) => escapeControl(w));

  if (args.json) {
    const report = {
      chunks: selections.map((s) => ({
        path: s.chunk.path,
        piece: s.chunk.piece,
        namespace: s.chunk.namespace,
        documents: s.documents.map((d) => ({ id: d.concept.id, match: d.match, matched: d.matched, tokens: d.tokens, truncated: d.truncated, rules: rulesOf(d.concept) })),
      })),
      warnings,
    };
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const pieces = new Map<string, number>();
  for (const c of chunks) pieces.set(c.path, Math.max(pieces.get(c.path) ?? 0, c.piece));
  const out: string[] = [];
  for (const s of selections) {
    const c = s.chunk;
    out.push(m.chunkHeading(c.path, c.piece, pieces.get(c.path)!, c.namespace, c.oldPath));
    for (const d of s.documents) {
      out.push(m.document(d.concept.id, d.match, d.matched, d.tokens, d.truncated));
      const rules = rulesOf(d.concept);
      if (rules.length) out.push(m.documentRules(rules.map((r) => `${r.id} (${r.kind})`)));
    }
    const rest = s.matched.slice(s.documents.length).map((d) => d.concept.id);
    if (rest.length) out.push(m.overBudget(rest));
    if (s.matched.length === 0) out.push(m.noDocuments);
  }
  if (selections.length === 0) out.push(m.noChanges);
  context.stdout.write(`${out.map((l) => escapeControl(l)).join('\n')}\n`);
  for (const w of shownWarnings) context.stderr.write(`${w}\n`);
  return 0;
}
