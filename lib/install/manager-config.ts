/**
 * revtrail's entries in a team's lefthook or pre-commit config, edited in place (docs/hooks.md,
 * "Other hook managers"). The `yaml` package's Document API reads the config and gives each
 * node's place in the text; revtrail's lines are then spliced in at those places, so every byte
 * of the team's file stays where it was (a re-printed document would move comments and
 * spacing). A config whose shape leaves no place to splice (a flow map, a hook with no body) is
 * edited through the Document and printed again: comments and order are still kept.
 * Taking the entries out again is exact through the install record (the text before install);
 * without one (a teammate's clone) the entries are deleted through the Document.
 */
import { isMap, isScalar, isSeq, parseDocument, type Document, type YAMLMap, type YAMLSeq } from 'yaml';

/** The script name under lefthook's `scripts:` (the file .lefthook/<hook>/revtrail). */
export const LEFTHOOK_SCRIPT = 'revtrail';
/** pre-commit before 3.2 (Debian 12 ships 3.0.4) names these stages the old way; later ones take git's names. */
const OLD_STAGES: Record<string, string> = {
  'pre-commit': 'commit',
  'pre-push': 'push',
  'pre-merge-commit': 'merge-commit',
};
export const stageName = (hook: string, oldStages: boolean) => (oldStages ? (OLD_STAGES[hook] ?? hook) : hook);

export interface ManagedHook {
  hook: string;
  /** The hook reads git's stdin (pre-push): lefthook must hand it over. */
  stdin: boolean;
  /** pre-commit: the script path the entry runs. */
  script: string;
}

export class ConfigShapeError extends Error {}

function parse(text: string): Document.Parsed {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length) throw new ConfigShapeError(doc.errors[0]!.message.split('\n')[0]!);
  if (doc.contents !== null && !isMap(doc.contents)) throw new ConfigShapeError('the top level is not a map');
  return doc;
}

/** Start of the line holding offset `at`. */
const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
/** The offset just after the line holding offset `at` (its newline included). */
function lineAfter(text: string, at: number): number {
  const nl = text.indexOf('\n', Math.max(at - 1, 0));
  return nl === -1 ? text.length : nl + 1;
}
const column = (text: string, at: number) => at - lineStart(text, at);
const pad = (n: number) => ' '.repeat(n);

/** Where a block collection's lines end: after the line of its last item's value. */
function blockEnd(text: string, node: YAMLMap | YAMLSeq): number | null {
  if ((node as { flow?: boolean }).flow || !node.range) return null;
  // range[1] is where the value's own text ends (comments after it excluded).
  return lineAfter(text, node.range[1]);
}

interface Splice {
  at: number;
  text: string;
}

function apply(text: string, splices: Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.at - a.at)) {
    // After a last line without its newline, revtrail's lines start on a line of their own.
    const nl = s.at === out.length && out.length && !out.endsWith('\n') ? '\n' : '';
    out = out.slice(0, s.at) + nl + s.text + out.slice(s.at);
  }
  return out;
}

/** `lines` indented by `by`, one per line, each ending in a newline. */
const block = (lines: string[], by: number) => lines.map((l) => `${pad(by)}${l}\n`).join('');

function lefthookEntry(h: ManagedHook): string[] {
  return [`"${LEFTHOOK_SCRIPT}":`, '  runner: sh', ...(h.stdin ? ['  use_stdin: true'] : [])];
}

/** The text to append at the end of a file: a newline first when its last line has none. */
const tail = (text: string) => (text.length && !text.endsWith('\n') ? '\n' : '');

/** The indentation of the top-level keys (0 unless the file indents them). */
function topIndent(text: string, doc: Document.Parsed): number {
  const first = (doc.contents as YAMLMap | null)?.items[0]?.key;
  return isScalar(first) && first.range ? column(text, first.range[0]) : 0;
}

/** The lefthook config with revtrail's script added to each hook; the same text when all are there. */
export function addLefthook(text: string, hooks: readonly ManagedHook[]): string {
  const doc = parse(text);
  const top = doc.contents as YAMLMap | null;
  if (top && (top as { flow?: boolean }).flow) return addLefthookByDocument(doc, hooks);
  const base = top ? topIndent(text, doc) : 0;
  const splices: Splice[] = [];
  let appended = '';
  for (const h of hooks) {
    const hook = top?.get(h.hook, true);
    if (hook === undefined) {
      appended += block([`${h.hook}:`, '  scripts:', ...lefthookEntry(h).map((l) => `    ${l}`)], base);
      continue;
    }
    if (!isMap(hook) || hook.items.length === 0) return addLefthookByDocument(doc, hooks);
    const scripts = hook.get('scripts', true);
    if (isMap(scripts) && scripts.has(LEFTHOOK_SCRIPT)) continue;
    const firstKey = hook.items[0]!.key;
    const end = blockEnd(text, hook);
    if (!isScalar(firstKey) || !firstKey.range || end === null) return addLefthookByDocument(doc, hooks);
    const indent = column(text, firstKey.range[0]);
    if (scripts === undefined) {
      splices.push({ at: end, text: block(['scripts:', ...lefthookEntry(h).map((l) => `  ${l}`)], indent) });
      continue;
    }
    if (!isMap(scripts) || scripts.items.length === 0) return addLefthookByDocument(doc, hooks);
    const scriptKey = scripts.items[0]!.key;
    const scriptsEnd = blockEnd(text, scripts);
    if (!isScalar(scriptKey) || !scriptKey.range || scriptsEnd === null) return addLefthookByDocument(doc, hooks);
    splices.push({ at: scriptsEnd, text: block(lefthookEntry(h), column(text, scriptKey.range[0])) });
  }
  const spliced = apply(text, splices);
  // A blank line between the team's last lines (often lefthook's commented example) and revtrail's
  // hooks, always one, so that removeLefthook takes exactly one away.
  const gap = spliced.trim() ? '\n' : '';
  return appended ? `${spliced}${tail(spliced)}${gap}${appended}` : spliced;
}

function addLefthookByDocument(doc: Document.Parsed, hooks: readonly ManagedHook[]): string {
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  for (const h of hooks) {
    const entry = { runner: 'sh', ...(h.stdin ? { use_stdin: true } : {}) };
    const hook = doc.get(h.hook, true);
    if (!isMap(hook)) doc.set(h.hook, doc.createNode({ scripts: { [LEFTHOOK_SCRIPT]: entry } }));
    else {
      const scripts: unknown = hook.get('scripts', true);
      if (isMap(scripts)) scripts.set(LEFTHOOK_SCRIPT, doc.createNode(entry));
      else hook.set('scripts', doc.createNode({ [LEFTHOOK_SCRIPT]: entry }));
    }
  }
  return doc.toString();
}

/**
 * The lefthook config without revtrail's scripts; null: none were there. The lines of each entry
 * are cut out (with its `scripts:` or its hook when nothing else is in them), the inverse of
 * addLefthook's splices; a config printed through the Document is cut through it.
 */
export function removeLefthook(text: string): string | null {
  const doc = parse(text);
  const top = doc.contents as YAMLMap | null;
  if (!top) return null;
  const cuts: Array<[number, number]> = [];
  for (const pair of top.items) {
    const hook = pair.value;
    if (!isMap(hook)) continue;
    const scripts = hook.get('scripts', true);
    if (!isMap(scripts) || !scripts.has(LEFTHOOK_SCRIPT)) continue;
    const ours = scripts.items.find((p) => isScalar(p.key) && p.key.value === LEFTHOOK_SCRIPT)!;
    const whole =
      scripts.items.length === 1
        ? hook.items.length === 1
          ? pair
          : hook.items.find((p) => p.value === scripts)!
        : ours;
    const key = whole.key;
    const value = whole.value as { range?: [number, number, number] } | null;
    if (!isScalar(key) || !key.range || !value?.range || (top as { flow?: boolean }).flow) return removeByDocument(doc);
    cuts.push([lineStart(text, key.range[0]), lineAfter(text, value.range[1])]);
  }
  if (!cuts.length) return null;
  let out = text;
  for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) {
    // The blank line addLefthook put before hooks it appended at the end goes with them.
    const gap = to === out.length && out.slice(0, from).endsWith('\n\n') && out.slice(0, from).trim() ? 1 : 0;
    out = out.slice(0, from - gap) + out.slice(to);
  }
  return out;
}

function removeByDocument(doc: Document.Parsed): string {
  const top = doc.contents as YAMLMap;
  for (const pair of [...top.items]) {
    const hook = pair.value;
    const scripts = isMap(hook) ? hook.get('scripts', true) : null;
    if (!isMap(hook) || !isMap(scripts)) continue;
    scripts.delete(LEFTHOOK_SCRIPT);
    if (scripts.items.length === 0) hook.delete('scripts');
    if (hook.items.length === 0) top.delete(pair.key);
  }
  if (top.items.length === 0) doc.contents = null;
  return doc.toString();
}

/** The hooks of `hooks` whose lefthook entry is missing from `text` (all of them when it is unreadable). */
export function lefthookMissing(text: string | null, hooks: readonly string[]): string[] {
  let top: YAMLMap | null = null;
  try {
    top = text === null ? null : (parse(text).contents as YAMLMap | null);
  } catch {
    return [...hooks];
  }
  return hooks.filter((h) => {
    const scripts = (top?.get(h, true) as YAMLMap | undefined)?.get?.('scripts', true);
    return !(isMap(scripts) && scripts.has(LEFTHOOK_SCRIPT));
  });
}

/** The pre-commit entry of `h` as YAML lines (a hook of the `repo: local` list). */
function preCommitEntry(h: ManagedHook, oldStages: boolean): string[] {
  const fileArg = h.hook === 'commit-msg' || h.hook === 'prepare-commit-msg';
  return [
    `- id: revtrail-${h.hook}`,
    `  name: revtrail ${h.hook}`,
    `  entry: sh ${h.script}`,
    '  language: system', // pre-commit 4.4 calls it unsupported and still takes system; older ones know only system
    `  stages: [${stageName(h.hook, oldStages)}]`,
    '  always_run: true',
    `  pass_filenames: ${fileArg}`,
    '  verbose: true', // pre-commit hides a passing hook's output: the findings would not show
  ];
}

const PRE_COMMIT_MARK = '# revtrail: reviews commits and pushes, keeps the record (revtrail install --pre-commit)';

function strings(node: unknown): string[] | null {
  return isSeq(node) ? node.items.map((i) => String(isScalar(i) ? i.value : i)) : null;
}

/**
 * The pre-commit config with revtrail's `repo: local` entries, their hook types in
 * default_install_hook_types (pre-commit installs only those), and default_stages where the
 * team had none: set to the hook types installed before, so a hook of the team's without
 * `stages` runs where it ran (not at commit-msg and pre-push too).
 */
export function addPreCommit(text: string, hooks: readonly ManagedHook[], oldStages: boolean): string {
  const doc = parse(text);
  const top = doc.contents as YAMLMap | null;
  const repos = top?.get('repos', true);
  const ids = new Set(
    (isSeq(repos) ? repos.items : []).flatMap((r) =>
      isMap(r) && isSeq(r.get('hooks', true))
        ? (r.get('hooks', true) as unknown as YAMLSeq).items.map((h) => String(isMap(h) ? h.get('id') : ''))
        : [],
    ),
  );
  const wanted = hooks.filter((h) => !ids.has(`revtrail-${h.hook}`));
  const typesNode = top?.get('default_install_hook_types', true);
  const types = strings(typesNode) ?? ['pre-commit'];
  const newTypes = hooks.map((h) => h.hook).filter((h) => !types.includes(h));
  const needStages = top?.get('default_stages', true) === undefined && (wanted.length > 0 || newTypes.length > 0);
  if (!wanted.length && !newTypes.length) return text;
  if (top && (top as { flow?: boolean }).flow) throw new ConfigShapeError('the top level is a flow map');
  const base = top ? topIndent(text, doc) : 0;
  const splices: Splice[] = [];
  let appended = '';
  const entries = wanted.flatMap((h) => preCommitEntry(h, oldStages));
  const localRepo = ['- repo: local', '  hooks:', ...entries.map((l) => `    ${l}`)];
  if (wanted.length) {
    if (repos === undefined || repos === null) {
      if (repos === null) throw new ConfigShapeError('repos: has no list');
      appended += block(['repos:', ...localRepo.map((l) => `  ${l}`)], base);
    } else if (isSeq(repos) && repos.items.length && blockEnd(text, repos) !== null && repos.range) {
      splices.push({ at: blockEnd(text, repos)!, text: block(localRepo, column(text, repos.range[0])) });
    } else throw new ConfigShapeError('repos: is not a block list');
  }
  // The top-level keys go first in the file, after its leading comments, where a reader of the config looks.
  const head: string[] = [];
  if (newTypes.length) {
    if (typesNode === undefined) head.push(`default_install_hook_types: [${[...types, ...newTypes].join(', ')}]`);
    else if (isSeq(typesNode) && typesNode.range) {
      if ((typesNode as { flow?: boolean }).flow) {
        // Inside the brackets, after the last item: `[pre-commit]` -> `[pre-commit, commit-msg, pre-push]`.
        const close = text.lastIndexOf(']', typesNode.range[1]);
        const last = typesNode.items.at(-1);
        const at = isScalar(last) && last.range ? last.range[1] : close;
        splices.push({ at, text: `${typesNode.items.length ? ', ' : ''}${newTypes.join(', ')}` });
      } else {
        const first = typesNode.items[0];
        const indent = isScalar(first) && first.range ? column(text, first.range[0]) - 2 : base + 2;
        splices.push({
          at: blockEnd(text, typesNode)!,
          text: block(
            newTypes.map((t) => `- ${t}`),
            indent,
          ),
        });
      }
    } else throw new ConfigShapeError('default_install_hook_types is not a list');
  }
  if (needStages) head.push(`default_stages: [${types.map((t) => stageName(t, oldStages)).join(', ')}]`);
  if (head.length) {
    const firstKey = top?.items[0]?.key;
    const at = isScalar(firstKey) && firstKey.range ? lineStart(text, firstKey.range[0]) : text.length;
    splices.push({ at, text: block([PRE_COMMIT_MARK, ...head], base) });
  }
  const spliced = apply(text, splices);
  return appended ? `${spliced}${tail(spliced)}${appended}` : spliced;
}

/** The pre-commit config without revtrail's entries and hook types; null: none were there. */
export function removePreCommit(text: string, hooks: readonly string[]): string | null {
  const doc = parse(text);
  const top = doc.contents as YAMLMap | null;
  const repos = top?.get('repos', true);
  if (!top || !isSeq(repos)) return null;
  let changed = false;
  for (const repo of [...repos.items]) {
    const list = isMap(repo) ? repo.get('hooks', true) : null;
    if (!isSeq(list)) continue;
    for (const h of [...list.items])
      if (isMap(h) && String(h.get('id')).startsWith('revtrail-')) {
        list.items.splice(list.items.indexOf(h), 1);
        changed = true;
      }
    if (changed && list.items.length === 0 && isMap(repo) && repo.get('repo') === 'local')
      repos.items.splice(repos.items.indexOf(repo), 1);
  }
  if (!changed) return null;
  const types = top.get('default_install_hook_types', true);
  if (isSeq(types)) {
    types.items = types.items.filter((i) => !(isScalar(i) && hooks.includes(String(i.value))));
    if (types.items.every((i) => isScalar(i) && i.value === 'pre-commit')) top.delete('default_install_hook_types');
  }
  return doc.toString();
}

export interface PreCommitState {
  /** revtrail hooks without an entry. */
  missing: string[];
  /** revtrail hooks whose type pre-commit install does not install (default_install_hook_types). */
  notInstalled: string[];
  /** The team's hooks without stages that run at every installed type (no default_stages). */
  loose: string[];
  types: string[];
}

/** What pre-commit will do with `text` for revtrail's `hooks`. Throws ConfigShapeError when unreadable. */
export function preCommitState(text: string, hooks: readonly string[]): PreCommitState {
  const doc = parse(text);
  const top = doc.contents as YAMLMap | null;
  const repos = top?.get('repos', true);
  const all = (isSeq(repos) ? repos.items : []).flatMap((r) =>
    isMap(r) && isSeq(r.get('hooks', true)) ? ((r.get('hooks', true) as unknown as YAMLSeq).items as unknown[]) : [],
  );
  const ids = new Set(all.map((h) => String(isMap(h) ? h.get('id') : '')));
  const types = strings(top?.get('default_install_hook_types', true)) ?? ['pre-commit'];
  const loose =
    top?.get('default_stages', true) === undefined && types.some((t) => t !== 'pre-commit')
      ? all
          .filter((h) => isMap(h) && !String(h.get('id')).startsWith('revtrail-') && !isSeq(h.get('stages', true)))
          .map((h) => String((h as YAMLMap).get('id')))
      : [];
  return {
    missing: hooks.filter((h) => !ids.has(`revtrail-${h}`)),
    notInstalled: hooks.filter((h) => !types.includes(h)),
    loose,
    types,
  };
}

/** revtrail's hooks that a pre-commit config takes from a `repo:` entry (revtrail's .pre-commit-hooks.yaml), not `repo: local`. */
export interface PreCommitRoute {
  /** The `repo:` of the first entry naming one of revtrail's hook ids. */
  repo: string;
  rev: string | null;
  /** The hooks of `hooks` some such entry runs. */
  runs: string[];
  /** The hooks of `hooks` none runs. */
  missing: string[];
}

/**
 * The `repo:` route (docs/hooks.md, "Repositories that are not Node projects"): an entry whose
 * repo is neither `local` nor `meta` and lists `revtrail-<hook>` ids; null: none does. Throws
 * ConfigShapeError when unreadable.
 */
export function preCommitRoute(text: string, hooks: readonly string[]): PreCommitRoute | null {
  const repos = (parse(text).contents as YAMLMap | null)?.get('repos', true);
  let first: { repo: string; rev: string | null } | null = null;
  const runs = new Set<string>();
  for (const r of isSeq(repos) ? repos.items : []) {
    if (!isMap(r)) continue;
    const repo = String(r.get('repo') ?? '');
    const list = r.get('hooks', true);
    if (!repo || repo === 'local' || repo === 'meta' || !isSeq(list)) continue;
    const ids = list.items.map((h) => String(isMap(h) ? h.get('id') : ''));
    const ours = hooks.filter((h) => ids.includes(`revtrail-${h}`));
    if (!ours.length) continue;
    first ??= { repo, rev: r.get('rev') == null ? null : String(r.get('rev')) };
    for (const h of ours) runs.add(h);
  }
  if (!first) return null;
  return { ...first, runs: hooks.filter((h) => runs.has(h)), missing: hooks.filter((h) => !runs.has(h)) };
}

/** A lefthook `remotes:` entry that takes revtrail's hooks/lefthook.yml. */
export interface LefthookRoute {
  gitUrl: string;
  ref: string | null;
  /** The config path as the entry names it (ends with hooks/lefthook.yml). */
  config: string;
}

/** The path in revtrail's repository of the lefthook config its `remotes:` route names. */
export const LEFTHOOK_REMOTE_CONFIG = 'hooks/lefthook.yml';

/** The repository name in a git URL or path: its last segment, without .git. */
export function repositoryName(gitUrl: string): string {
  return (
    gitUrl
      .replace(/[/\\]+$/, '')
      .replace(/\.git$/, '')
      .split(/[/\\:]/)
      .pop() ?? ''
  );
}

/**
 * lefthook's `remotes:` route (docs/hooks.md, "Repositories that are not Node projects"): an
 * entry whose `configs:` (or the older single `config:`) names hooks/lefthook.yml and that is
 * revtrail's: its git_url's repository name contains "revtrail", or `isRevtrail` says so (doctor
 * asks lefthook's fetched copy, for a mirror named otherwise; hooks/lefthook.yml alone is too
 * common a path). null: none. Throws ConfigShapeError when unreadable.
 */
export function lefthookRoute(
  text: string,
  isRevtrail: (route: LefthookRoute) => boolean = () => false,
): LefthookRoute | null {
  const remotes = (parse(text).contents as YAMLMap | null)?.get('remotes', true);
  for (const r of isSeq(remotes) ? remotes.items : []) {
    if (!isMap(r)) continue;
    const gitUrl = String(r.get('git_url') ?? '');
    const list = r.get('configs', true);
    const configs = isSeq(list) ? list.items.map((c) => String(isScalar(c) ? c.value : '')) : [];
    if (r.get('config') != null) configs.push(String(r.get('config')));
    const config = configs.find(
      (c) => c.replace(/^\.?\//, '') === LEFTHOOK_REMOTE_CONFIG || c.endsWith(`/${LEFTHOOK_REMOTE_CONFIG}`),
    );
    if (!gitUrl || !config) continue;
    const route = { gitUrl, ref: r.get('ref') == null ? null : String(r.get('ref')), config };
    if (/revtrail/i.test(repositoryName(gitUrl)) || isRevtrail(route)) return route;
  }
  return null;
}
