/**
 * One concept file to a Concept (docs/bundle.md): OKF's required `type`, the ID, the governing keys
 * (under `x:` or at top level, `x:` winning per key) and the rules, each problem with its line.
 * Pure (async only to load the YAML library when a frontmatter needs it): the loader does the
 * reading and names the file.
 */
import { RULE_SOURCE_NAME } from '../core/rule-source.js';
import {
  frontmatterOf,
  isBlank,
  readFrontmatter,
  splitFrontmatter,
  yamlLibrary,
  type FrontmatterResult,
  type JsYaml,
  type Parsed,
} from './frontmatter.js';
import { parseMany } from './frontmatter-batch.js';
import { checkGlob } from './globs.js';
import { compileRule, parseRuleDefinition, ruleFlags } from './rules.js';
import { isStructural, parseStructural, type StructuralRule } from './structural.js';
import type { Concept, Rule } from './types.js';
import { bundleMessages as m } from '../messages/bundle.js';

export interface Problem {
  level: 'error' | 'warning';
  line: number;
  message: string;
}

export interface ConceptResult {
  /** Null when the file is skipped (no frontmatter, bad YAML, no type). */
  concept: Concept | null;
  problems: Problem[];
  /** Line of the frontmatter `id` (1 when the ID comes from the path). */
  idLine: number;
}

const GOVERNING = ['paths', 'domain', 'tags', 'rules'] as const;
// A rule source is `<concept-id>:<rule-id>`: the concept id must be its `name[/section]`.
const FITS_RULE_SOURCE = RULE_SOURCE_NAME;

/** `file` is the path inside the bundle (POSIX), e.g. `decisions/adr-001.md`. */
export async function buildConcept(file: string, text: string): Promise<ConceptResult> {
  return conceptOf(file, await readFrontmatter(text));
}

/** What building one concept gave: its result, or what building it threw. */
export type Built = { result: ConceptResult } | { error: unknown };

/**
 * buildConcept for many files (the loader's, on a fresh clone): the same result for each, with
 * their frontmatters parsed as one YAML stream where that cannot change them (./frontmatter-batch.ts).
 * Something one file throws stays that file's.
 */
export async function buildConcepts(jobs: ReadonlyArray<{ file: string; text: string }>): Promise<Built[]> {
  const one = async (job: { file: string; text: string }): Promise<Built> => {
    try {
      return { result: await buildConcept(job.file, job.text) };
    } catch (error) {
      return { error };
    }
  };
  const splits = jobs.map((job) => splitFrontmatter(job.text));
  const sources: string[] = [];
  const at = splits.map((split) => (split.ok && !isBlank(split.source) ? sources.push(split.source) - 1 : -1));
  let yaml: JsYaml | null = null;
  let parsed: Parsed[] = [];
  try {
    if (sources.length) parsed = parseMany((yaml = await yamlLibrary()), sources);
  } catch {
    // A parser that will not load, or a stream that fails as a whole: each file on its own, as ever.
    const out: Built[] = [];
    for (const job of jobs) out.push(await one(job));
    return out;
  }
  return jobs.map((job, k) => {
    try {
      return {
        result: conceptOf(job.file, frontmatterOf(splits[k]!, yaml, at[k] === -1 ? undefined : parsed[at[k]!])),
      };
    } catch (error) {
      return { error };
    }
  });
}

function conceptOf(file: string, fm: FrontmatterResult): ConceptResult {
  const problems: Problem[] = [];
  if (!fm.ok) return { concept: null, problems: [{ level: 'warning', line: fm.line, message: fm.message }], idLine: 1 };
  const { data, lineAt } = fm;
  const type = data.type;
  if (typeof type !== 'string' || type.trim() === '') {
    return {
      concept: null,
      problems: [{ level: 'warning', line: 'type' in data ? lineAt(['type']) : 1, message: m.noType }],
      idLine: 1,
    };
  }
  let id = file.replace(/\.md$/i, '');
  if ('id' in data) {
    if ((typeof data.id === 'string' && data.id.trim() !== '') || typeof data.id === 'number')
      id = String(data.id).trim();
    else problems.push({ level: 'warning', line: lineAt(['id']), message: m.badId });
  }
  const x =
    data.x !== null && typeof data.x === 'object' && !Array.isArray(data.x) ? (data.x as Record<string, unknown>) : {};
  const where = (key: (typeof GOVERNING)[number]): Array<string | number> | null =>
    key in x ? ['x', key] : key in data ? [key] : null;
  const valueAt = (path: Array<string | number>) => (path[0] === 'x' ? x[path[1] as string] : data[path[0] as string]);

  const names = (key: 'domain' | 'tags'): string[] => {
    const path = where(key);
    if (!path) return [];
    const value = valueAt(path);
    if (value === null || value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    const out: string[] = [];
    list.forEach((item, i) => {
      if ((typeof item === 'string' && item.trim() !== '') || typeof item === 'number') out.push(String(item).trim());
      else
        problems.push({
          level: 'error',
          line: lineAt(Array.isArray(value) ? [...path, i] : path),
          message: m.badKey(key, m.notNames),
        });
    });
    return out;
  };

  const globs = globReader(lineAt, problems);

  const pathsAt = where('paths');
  const paths = pathsAt ? globs(pathsAt, valueAt(pathsAt), 'paths') : [];
  const domain = names('domain');
  const tags = names('tags');
  const structural: StructuralRule[] = [];
  const rules = readRules(id, where('rules'), valueAt, lineAt, globs, problems, structural);

  const title =
    typeof data.title === 'string' && data.title.trim() !== '' ? data.title.trim() : (firstHeading(fm.body) ?? id);
  const description = typeof data.description === 'string' ? data.description : null;
  return {
    concept: {
      id,
      file,
      type: type.trim(),
      title,
      description,
      body: fm.body.replace(/^\s*\n/, '').trimEnd(),
      paths,
      domain,
      tags,
      rules,
      ...(structural.length ? { structural } : {}),
    },
    problems,
    idLine: 'id' in data ? lineAt(['id']) : 1,
  };
}

export type GlobReader = (path: Array<string | number>, value: unknown, key: string) => string[];

/** Reads a glob or a list of globs at `path` of the frontmatter, each problem with its line. */
export function globReader(lineAt: (path: ReadonlyArray<string | number>) => number, problems: Problem[]): GlobReader {
  return (path, value, key) => {
    if (value === null || value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    const out: string[] = [];
    list.forEach((item, i) => {
      // Found only for a problem: a line costs a walk of the parse, and most globs have none.
      const line = () => lineAt(Array.isArray(value) ? [...path, i] : path);
      if (typeof item !== 'string') {
        problems.push({ level: 'error', line: line(), message: m.badKey(key, m.notGlobs) });
        return;
      }
      const checked = checkGlob(item);
      if (!checked.ok)
        problems.push({
          level: checked.costly ? 'warning' : 'error',
          line: line(),
          message: `\`${key}\`: ${checked.error}`,
        });
      else {
        if (checked.warning)
          problems.push({ level: 'warning', line: line(), message: `\`${key}\`: ${checked.warning}` });
        out.push(checked.glob);
      }
    });
    return out;
  };
}

/** A concept's `rules` (at `path`, null when it has none), compiled; `id` is the concept's. */
export function readRules(
  id: string,
  path: Array<string | number> | null,
  valueAt: (path: Array<string | number>) => unknown,
  lineAt: (path: ReadonlyArray<string | number>) => number,
  globs: GlobReader,
  problems: Problem[],
  /** Where the concept's `ast` and `imports` rules go (docs/structural.md); none: they are skipped. */
  structural?: StructuralRule[],
): Rule[] {
  if (!path) return [];
  const value = valueAt(path);
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push({ level: 'error', line: lineAt(path), message: m.badKey('rules', m.rulesNotList) });
    return [];
  }
  if (!FITS_RULE_SOURCE.test(id)) {
    problems.push({ level: 'error', line: lineAt(path), message: m.ruleIdUnfit(id) });
    return [];
  }
  const rules: Rule[] = [];
  const seen = new Set<string>();
  value.forEach((raw, i) => {
    const at = [...path, i];
    const rawId =
      raw !== null && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
        ? (raw as { id: string }).id
        : null;
    const label = rawId ? `"${rawId}"` : `#${i + 1}`;
    if (isStructural(raw)) {
      const parsed = parseStructural(raw, id);
      if (!parsed.ok) {
        for (const issue of parsed.issues)
          problems.push({
            level: 'error',
            line: lineAt([...at, ...issue.path]),
            message: m.ruleInvalid(label, issue.path.join('.'), issue.message),
          });
        return;
      }
      if (seen.has(parsed.rule.id)) {
        problems.push({ level: 'error', line: lineAt([...at, 'id']), message: m.ruleDuplicate(parsed.rule.id) });
        return;
      }
      seen.add(parsed.rule.id);
      const before = problems.length;
      const rawRule = raw as Record<string, unknown>;
      parsed.rule.paths = globs([...at, 'paths'], rawRule.paths, 'paths');
      parsed.rule.exclude = globs([...at, 'exclude'], rawRule.exclude, 'exclude');
      for (let k = before; k < problems.length; k++) if (problems[k]!.level === 'error') return;
      parsed.rule.line = lineAt([...at, parsed.rule.kind === 'ast' ? 'ast' : 'imports']);
      structural?.push(parsed.rule);
      return;
    }
    // A pattern that does not compile is the one error worth reading first: reported alone.
    const compiled = compilePattern(raw);
    if (typeof compiled === 'string') {
      problems.push({ level: 'error', line: lineAt([...at, 'pattern']), message: m.rulePattern(label, compiled) });
      return;
    }
    const parsed = parseRuleDefinition(raw);
    if (!parsed.ok) {
      for (const issue of parsed.issues) {
        const field = issue.path.join('.');
        const message =
          issue.kind === 'required'
            ? m.ruleRequired(label, field)
            : issue.kind === 'type'
              ? m.ruleWrongType(label, field, issue.message.replace(/^must be /, ''))
              : m.ruleInvalid(label, field, issue.message);
        problems.push({ level: 'error', line: lineAt([...at, ...issue.path]), message });
      }
      return;
    }
    const def = parsed.definition;
    if (seen.has(def.id)) {
      problems.push({ level: 'error', line: lineAt([...at, 'id']), message: m.ruleDuplicate(def.id) });
      return;
    }
    seen.add(def.id);
    const before = problems.length;
    const rawRule = raw as Record<string, unknown>;
    def.paths = globs([...at, 'paths'], rawRule.paths, 'paths');
    def.exclude = globs([...at, 'exclude'], rawRule.exclude, 'exclude');
    // Only the problems the globs just added are looked at: all of them each time was quadratic.
    for (let k = before; k < problems.length; k++) if (problems[k]!.level === 'error') return;
    try {
      const rule = compileRule(def, `${id}:${def.id}`, id, compiled ?? undefined);
      rule.line = lineAt([...at, 'pattern']);
      rules.push(rule);
    } catch (error) {
      const why = (error as Error).message.replace(/^.*?pattern does not compile: /, '');
      problems.push({ level: 'error', line: lineAt([...at, 'pattern']), message: m.rulePattern(label, why) });
    }
  });
  return rules;
}

/**
 * A rule's pattern compiled with its flags (as compileRule would), the reason it does not
 * compile, or null when there is no pattern to try (the schema then says what is wrong).
 */
function compilePattern(raw: unknown): RegExp | string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { pattern, flags } = raw as { pattern?: unknown; flags?: unknown };
  if (typeof pattern !== 'string' || pattern === '') return null;
  if (flags !== undefined && (typeof flags !== 'string' || !/^[dgimsuvy]*$/.test(flags))) return null;
  try {
    return new RegExp(pattern, ruleFlags(flags ?? ''));
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The first `# heading` outside code blocks: its text without the closing `#`s and spaces.
 * Read by hand, linear in the body (a lazy regex over a line of spaces is quadratic).
 */
export function firstHeading(body: string): string | null {
  let fenced = false;
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const title = atxHeading(line);
      if (title !== null) return title;
    }
  }
  return null;
}

/** The text of a level-1 ATX heading line (`# Title #`), or null. */
function atxHeading(line: string): string | null {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  if (line[i] !== '#') return null;
  i++;
  const gap = i;
  while (line[i] === ' ' || line[i] === '\t') i++;
  if (i === gap || i >= line.length) return null;
  let end = line.length;
  while (
    end > i &&
    (line[end - 1] === ' ' || line[end - 1] === '\t' || line[end - 1] === '#' || line[end - 1] === '\r')
  )
    end--;
  return end > i ? line.slice(i, end) : null;
}
