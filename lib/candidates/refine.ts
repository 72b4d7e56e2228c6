/**
 * Refinement candidates (docs/gate.md "Refinements"): what the verdicts on a bundle rule's
 * findings say about the decision that holds it, for every kind of rule (`pattern`, `ast`,
 * `imports`: one `rules` list in the document). Built-in rules never get one.
 *
 * - An **exception**: findings of the rule REJECTed ("not a violation") again and again in one
 *   place, by several people, merged, with no CI note saying the answering commit failed, and
 *   none of the rule's findings there ACCEPTed: the draft adds the place to the rule's `exclude`,
 *   with the REJECT rationales as its evidence. The place is the deepest folder holding the
 *   rejected findings, or the files themselves where that folder would be the rule's whole
 *   scope (folderGroups).
 * - A **wider scope**: findings that passed the promotion gate's thread signals (accepted, fixed,
 *   merged, CI green) outside the paths the rule declares, by several people: the draft adds
 *   `FOLDER/**` to the rule's `paths` (the document's, when the rule names none).
 *
 * Each is decided per rule and folder with the same thresholds as the gate (gate.minRecurrence
 * threads, gate.minAuthors people) and recorded with every check, met or not, so `--explain`
 * and an empty run say how far each is. Nothing here writes the bundle: a draft carries the
 * patch (`git diff --no-index` of the document and its edited copy) for a human to apply.
 */
import type { Bundle, Concept, Rule } from '../bundle/types.js';
import type { GateReport, ThreadGate } from '../gate/types.js';
import type { MinedFinding } from '../mine/types.js';
import { compileGlobs } from '../bundle/globs.js';
import { outcomeOf } from '../ci/notes.js';
import { escapeRegExp } from '../core/regex-escape.js';
import { personOf } from '../record/rule-tally.js';
import { refineMessages as m } from '../messages/candidates.js';

export type RefinementKind = 'exception' | 'scope';

export interface RefinementCheck {
  name: 'recurrence' | 'several_authors' | 'merged' | 'ci' | 'consistent' | 'new';
  met: boolean;
  fact: string;
}

/** One rule and folder the refinement gate looked at. */
export interface RefinementTrial {
  kind: RefinementKind;
  rule_source: string;
  /** The document (its file in the bundle) that holds the rule. */
  document: string;
  /** The folder the trial is about (for files directly in the rule's scope, that scope's folder, `.` at the top). */
  folder: string;
  /** What the draft adds: `FOLDER/**`, or the files themselves (then `glob` is the first of them). */
  glob: string;
  globs: string[];
  threads: string[];
  /** The answers that count (REJECTs merged and not failed; fixes outside the scope) and the people behind them. */
  count: number;
  people: number;
  passed: boolean;
  checks: RefinementCheck[];
}

export interface RefinementEvidence {
  finding: string;
  file: string;
  line: string | null;
  commit: string;
  author: string;
  verdict: string;
  rationale: string;
}

export interface RefinementDraft extends RefinementTrial {
  /** The file (absolute) the patch changes, and the edited text. */
  path: string;
  edited: string;
  evidence: RefinementEvidence[];
}

export interface RefinementFacts {
  /** Commits (carrying findings) reachable from the mainline. */
  reachable: ReadonlySet<string>;
  /** CI note text per commit. */
  ci: ReadonlyMap<string, string>;
  minRecurrence: number;
  minAuthors: number;
}

/** Who a commit's author is: the e-mail, case-folded (as several_authors and calibration count people). */
export const person = personOf;

/** What a rule needs of its document: its id, rule_source and paths, whatever its kind. */
export type OwnedRule = Pick<Rule, 'id' | 'ruleSource' | 'paths' | 'exclude'>;

/** The literal folder a glob starts with (`packages/web/**` → `packages/web`; `**\/*.ts` → ``). */
function literalFolder(glob: string): string {
  const parts = glob.replace(/^\.\//, '').split('/');
  const out: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?[\]{}()!+@]/.test(p)) break;
    out.push(p);
  }
  return out.join('/');
}

const dirOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
const under = (file: string, folder: string) => folder === '' || file.startsWith(`${folder}/`);

/** The deepest folder holding every file ('' when they share none). */
function commonFolder(files: readonly string[]): string {
  let common = dirOf(files[0]!);
  for (const f of files.slice(1)) while (!under(f, common)) common = dirOf(common);
  return common;
}

/** One place a refinement is about: a folder (`FOLDER/**`) or, directly in the scope's folder, the files. */
export interface FolderGroup<T> {
  folder: string;
  globs: string[];
  items: T[];
}

/**
 * The places the findings of a rule fall in (docs/gate.md "Refinements"). `scope`: the globs the
 * rule declares ([] for every file). Each file belongs under the deepest literal folder of a
 * declared glob that holds it (the scope's folder); the findings are grouped by the next folder
 * below it, and a group's place is the deepest folder holding all its files: in a monorepo,
 * `packages/web/test/**`, never `packages/**` when the scope is the whole repository or
 * `packages/**`. Files directly in the scope's folder share no folder below it: their group
 * names the files themselves, so the refinement never covers the whole scope.
 */
export function folderGroups<T>(
  items: readonly T[],
  fileOf: (item: T) => string | null,
  scope: readonly string[],
): Array<FolderGroup<T>> {
  const bases = [...new Set(scope.length ? scope.map(literalFolder) : [''])].sort((a, b) => b.length - a.length);
  const groups = new Map<string, { base: string; loose: boolean; items: T[]; files: string[] }>();
  for (const item of items) {
    const file = fileOf(item);
    if (!file) continue;
    const base = bases.find((b) => under(file, b)) ?? '';
    const rest = base === '' ? file : file.slice(base.length + 1);
    const slash = rest.indexOf('/');
    const loose = slash === -1;
    const key = loose ? `${base}\0` : `${base}/${rest.slice(0, slash)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { base, loose, items: [], files: [] }));
    g.items.push(item);
    g.files.push(file);
  }
  return [...groups.values()].map((g) => {
    if (g.loose) return { folder: g.base || '.', globs: [...new Set(g.files)].sort(), items: g.items };
    const folder = commonFolder(g.files);
    return { folder, globs: [`${folder}/**`], items: g.items };
  });
}

/** The latest occurrence of a thread with its verdict (the answer that decided its state). */
function answerOf(t: ThreadGate): MinedFinding | null {
  const o = t.thread.occurrences;
  for (let i = o.length - 1; i >= 0; i--) if (o[i]!.verdict === t.thread.state) return o[i]!;
  return null;
}

/**
 * The bundle rule a rule_source names, of any kind (a regex rule or a structural one,
 * lib/bundle/structural.ts), with its document; null for built-ins and rules no document holds.
 */
export function ruleOf(bundle: Bundle | null, ruleSource: string): { concept: Concept; rule: OwnedRule } | null {
  if (!bundle || ruleSource.startsWith('builtin/')) return null;
  for (const concept of bundle.concepts) {
    for (const rule of concept.rules) if (rule.ruleSource === ruleSource) return { concept, rule };
    for (const rule of concept.structural ?? []) if (rule.ruleSource === ruleSource) return { concept, rule };
  }
  return null;
}

/** The commits whose messages carry the answers the trials look at (for CI notes). */
export function answerCommits(report: GateReport, bundle: Bundle | null): string[] {
  const out = new Set<string>();
  for (const t of report.threads)
    if (t.thread.state === 'REJECT' && ruleOf(bundle, t.thread.rule_source)) {
      const a = answerOf(t);
      if (a) out.add(a.commit);
    }
  return [...out];
}

/** Every trial of every bundle rule in the report, passed or not. */
export function refinementTrials(
  report: GateReport,
  bundle: Bundle | null,
  facts: RefinementFacts,
): Array<RefinementTrial & { evidence: RefinementEvidence[] }> {
  const trials: Array<RefinementTrial & { evidence: RefinementEvidence[] }> = [];
  const byRule = new Map<string, ThreadGate[]>();
  for (const t of report.threads) {
    const list = byRule.get(t.thread.rule_source);
    if (list) list.push(t);
    else byRule.set(t.thread.rule_source, [t]);
  }
  const qualifying = new Set(report.rules.flatMap((r) => r.qualifying.map((q) => q.thread.id)));
  for (const [ruleSource, threads] of byRule) {
    const owned = ruleOf(bundle, ruleSource);
    if (!owned) continue;
    const document = owned.concept.file || owned.concept.id;
    trials.push(...exceptionTrials(ruleSource, document, owned, threads, facts));
    trials.push(...scopeTrials(ruleSource, document, owned, threads, qualifying, facts));
  }
  return trials.sort((a, b) => (a.rule_source + a.kind + a.folder < b.rule_source + b.kind + b.folder ? -1 : 1));
}

/** The rule's declared scope: its own paths, else its document's ([] for every file). */
const scopeOf = (owned: { concept: Concept; rule: OwnedRule }) =>
  owned.rule.paths.length ? owned.rule.paths : owned.concept.paths;

function evidenceOf(t: ThreadGate, a: MinedFinding): RefinementEvidence {
  return {
    finding: t.thread.id,
    file: t.thread.file!,
    line: t.thread.line,
    commit: a.commit,
    author: a.author,
    verdict: a.verdict,
    rationale: a.rationale,
  };
}

function exceptionTrials(
  ruleSource: string,
  document: string,
  owned: { concept: Concept; rule: OwnedRule },
  threads: readonly ThreadGate[],
  facts: RefinementFacts,
): Array<RefinementTrial & { evidence: RefinementEvidence[] }> {
  const out: Array<RefinementTrial & { evidence: RefinementEvidence[] }> = [];
  const excluded = compileGlobs(owned.rule.exclude);
  const rejectedAll = threads.filter((t) => t.thread.state === 'REJECT');
  for (const { folder, globs, items: rejected } of folderGroups(rejectedAll, (t) => t.thread.file, scopeOf(owned))) {
    // Every finding of the rule in the place the draft would exclude: one fixed there says the rule holds.
    const inPlace = compileGlobs(globs);
    const inFolder = threads.filter((t) => t.thread.file && inPlace(t.thread.file));
    const glob = globs.join(', ');
    const answers = rejected.map((t) => ({ t, a: answerOf(t)! }));
    const merged = answers.filter(({ a }) => facts.reachable.has(a.commit));
    const green = merged.filter(({ a }) => outcomeOf(facts.ci.get(a.commit)) !== 'fail');
    const people = new Set(green.map(({ a }) => person(a.author)));
    const accepted = inFolder.filter((t) => t.thread.state === 'ACCEPT').length;
    const covered = rejected.every((t) => excluded(t.thread.file!));
    const checks: RefinementCheck[] = [
      {
        name: 'recurrence',
        met: green.length >= facts.minRecurrence,
        fact: m.rejectedUnder(green.length, folder, facts.minRecurrence),
      },
      {
        name: 'several_authors',
        met: people.size >= facts.minAuthors,
        fact: m.answeredBy(people.size, facts.minAuthors),
      },
      { name: 'merged', met: merged.length > 0, fact: m.merged(merged.length, answers.length) },
      { name: 'ci', met: green.length === merged.length, fact: m.ciFailed(merged.length - green.length) },
      { name: 'consistent', met: accepted === 0, fact: m.acceptedUnder(accepted, folder) },
      { name: 'new', met: !covered, fact: covered ? m.excludedAlready(glob) : m.notExcluded(glob) },
    ];
    out.push({
      kind: 'exception',
      rule_source: ruleSource,
      document,
      folder,
      glob: globs[0]!,
      globs,
      threads: green.map(({ t }) => t.thread.id),
      count: green.length,
      people: people.size,
      passed: checks.every((c) => c.met),
      checks,
      evidence: green.map(({ t, a }) => evidenceOf(t, a)),
    });
  }
  return out;
}

function scopeTrials(
  ruleSource: string,
  document: string,
  owned: { concept: Concept; rule: OwnedRule },
  threads: readonly ThreadGate[],
  qualifying: ReadonlySet<string>,
  facts: RefinementFacts,
): Array<RefinementTrial & { evidence: RefinementEvidence[] }> {
  const declared = scopeOf(owned);
  if (declared.length === 0) return []; // every file is in scope already
  const inside = compileGlobs(declared);
  const out: Array<RefinementTrial & { evidence: RefinementEvidence[] }> = [];
  const outside = threads.filter((t) => t.thread.state === 'ACCEPT' && t.thread.file && !inside(t.thread.file));
  // Outside the scope, places are grouped from the top; a file at the top is no folder to widen to.
  for (const { folder, globs, items: inFolder } of folderGroups(outside, (t) => t.thread.file, [])) {
    if (globs.length !== 1 || !globs[0]!.endsWith('/**')) continue;
    const fixed = inFolder.filter((t) => qualifying.has(t.thread.id) && t.accept);
    const people = new Set(fixed.flatMap((t) => t.thread.occurrences.map((o) => person(o.author))));
    const glob = globs[0]!;
    const checks: RefinementCheck[] = [
      {
        name: 'recurrence',
        met: fixed.length >= facts.minRecurrence,
        fact: m.fixedOutside(fixed.length, inFolder.length, folder, facts.minRecurrence),
      },
      {
        name: 'several_authors',
        met: people.size >= facts.minAuthors,
        fact: m.recordedBy(people.size, facts.minAuthors),
      },
    ];
    out.push({
      kind: 'scope',
      rule_source: ruleSource,
      document,
      folder,
      glob,
      globs,
      threads: fixed.map((t) => t.thread.id),
      count: fixed.length,
      people: people.size,
      passed: checks.every((c) => c.met),
      checks,
      evidence: fixed.map((t) => evidenceOf(t, t.accept!)),
    });
  }
  return out;
}

/**
 * The document's text with `glob` added to the rule's `exclude` (an exception) or its `paths`
 * (a scope; the document's own `paths` when the rule names none). Null when the frontmatter
 * cannot be edited line by line (a doc map document has none; a rule written in flow style).
 */
export function editedDocument(
  text: string,
  trial: Pick<RefinementTrial, 'kind' | 'glob'> & { globs?: readonly string[] },
  owned: { concept: Concept; rule: OwnedRule },
): string | null {
  const lines = text.split('\n');
  if (lines[0]?.replace(/^\uFEFF/, '').trim() !== '---') return null;
  const end = lines.indexOf('---', 1);
  if (end === -1) return null;
  const idLine = lines.findIndex(
    (l, i) => i < end && new RegExp(`^\\s*-\\s+id:\\s*['"]?${escapeRegExp(owned.rule.id)}['"]?\\s*$`).test(l),
  );
  if (idLine === -1) return null;
  const dash = lines[idLine]!.indexOf('-');
  const keyIndent = lines[idLine]!.length - lines[idLine]!.replace(/^\s*-\s+/, '').length;
  let stanzaEnd = idLine + 1;
  while (stanzaEnd < end) {
    const l = lines[stanzaEnd]!;
    if (l.trim() !== '' && l.length - l.trimStart().length <= dash) break;
    stanzaEnd++;
  }
  const quoted = (trial.globs ?? [trial.glob]).map((g) => JSON.stringify(g));
  const useRule = trial.kind === 'exception' || owned.rule.paths.length > 0;
  if (useRule) {
    const key = trial.kind === 'exception' ? 'exclude' : 'paths';
    return addToList(lines, idLine + 1, stanzaEnd, keyIndent, key, quoted, idLine + 1)?.join('\n') ?? null;
  }
  // The document's `paths`: the key at the level of `rules` (under `x:`), before the rules.
  const rulesLine = lines.findIndex((l, i) => i < idLine && /^\s*rules:\s*$/.test(l));
  if (rulesLine === -1) return null;
  const indent = lines[rulesLine]!.length - lines[rulesLine]!.trimStart().length;
  const start = lines.findIndex(
    (l, i) => i > 0 && i < end && l.length - l.trimStart().length < indent && /:\s*$/.test(l),
  );
  return addToList(lines, start === -1 ? 1 : start + 1, end, indent, 'paths', quoted, rulesLine)?.join('\n') ?? null;
}

/** `key` at `indent` between `from` and `to`: the value added to its list, or the key written at `insertAt`. */
function addToList(
  lines: string[],
  from: number,
  to: number,
  indent: number,
  key: string,
  values: readonly string[],
  insertAt: number,
): string[] | null {
  const pad = ' '.repeat(indent);
  const at = lines.findIndex((l, i) => i >= from && i < to && l.startsWith(`${pad}${key}:`) && l[indent] !== ' ');
  const out = lines.slice();
  const value = values.join(', ');
  if (at === -1) {
    out.splice(insertAt, 0, `${pad}${key}: [${value}]`);
    return out;
  }
  const rest = lines[at]!.slice(pad.length + key.length + 1).trim();
  if (rest.startsWith('[') && rest.endsWith(']')) {
    const inner = rest.slice(1, -1).trim();
    out[at] = `${pad}${key}: [${inner ? `${inner}, ` : ''}${value}]`;
    return out;
  }
  if (rest !== '') return null;
  // A block list: the new item after the last one.
  let last = at;
  while (
    last + 1 < to &&
    /^\s*-\s/.test(lines[last + 1]!) &&
    lines[last + 1]!.length - lines[last + 1]!.trimStart().length > indent - 1
  )
    last++;
  const itemPad = last > at ? lines[last]!.slice(0, lines[last]!.length - lines[last]!.trimStart().length) : `${pad}  `;
  out.splice(last + 1, 0, ...values.map((v) => `${itemPad}- ${v}`));
  return out;
}
