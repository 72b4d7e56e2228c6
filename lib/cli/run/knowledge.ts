/** The handlers of `revtrail knowledge` (its options: ../commands/knowledge.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import type { CliContext } from '../command.js';
import { requireValues, diffSourceOf } from '../options.js';
import type { CheckArgs, SelectArgs } from '../commands/knowledge.js';
import { escapeControl } from '../../core/output.js';
import { selectMessages as m } from '../../messages/select.js';
import { formatDiagnostic } from '../../bundle/load.js';
import { selectChunks } from '../../review/index.js';
import { openWorkspace } from '../../workspace/index.js';
import type { Concept } from '../../bundle/types.js';
import { checkKnowledge } from '../../review/knowledge-check.js';
import { bundleMessages as bm } from '../../messages/bundle.js';

export const handlers = {
  async check(args: CheckArgs, context: CliContext): Promise<number> {
    requireValues(args as unknown as Record<string, unknown>, ['knowledge']);
    return await check(args, context);
  },
  async select(args: SelectArgs, context: CliContext): Promise<number> {
    requireValues(args as unknown as Record<string, unknown>, ['knowledge']);
    return await select(args, context);
  },
};

/** Prints the use-case's result (lib/review/knowledge-check.ts); the workspace found the repository and read the config once. */
async function check(args: CheckArgs, context: CliContext): Promise<number> {
  const dir = args.dir ?? args.knowledge;
  // Outside a repository a named folder is still checked, with the default configuration.
  const ws = await openWorkspace(context.cwd, { needRepo: dir === undefined, configCache: false });
  const result = await checkKnowledge(ws, dir);
  const { name, bundle, errors, warnings, docMap } = result;
  if (args.json) {
    const plain = (d: (typeof errors)[number]) => ({ file: d.file, line: d.line, message: d.message });
    const report = {
      bundle: name,
      concepts: bundle.concepts.map((c) => ({
        id: c.id,
        file: c.file,
        type: c.type,
        title: c.title,
        rules: [...c.rules, ...(c.structural ?? [])].map((r) => r.ruleSource),
        ...(c.mapped ? { mapped: true, paths: c.paths } : {}),
      })),
      ...(docMap ? { docMap } : {}),
      errors: errors.map(plain),
      warnings: warnings.map(plain),
    };
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const lines = [...errors, ...warnings].map((d) => escapeControl(formatDiagnostic(d)));
    lines.push(bm.checkSummary(name, bundle.concepts.length, result.rules, errors.length, warnings.length));
    if (docMap) lines.push(bm.checkDocMap(docMap.file, docMap.documents, !docMap.usable));
    context.stdout.write(`${lines.join('\n')}\n`);
  }
  return result.exitCode;
}

async function select(args: SelectArgs, context: CliContext): Promise<number> {
  const source = await diffSourceOf(args, context.cwd);
  const session = await openWorkspace(context.cwd, { knowledge: args.knowledge, needRepo: source.kind !== 'text' });
  const { chunks, selections, bundle } = await selectChunks(session, source);
  // A config that could not be used: selection ran with the defaults, as a review does.
  const warnings = [
    ...(session.configProblem ? [session.configProblem] : []),
    ...(bundle ?? (await session.bundle())).diagnostics.map(formatDiagnostic),
  ];
  const shownWarnings = warnings.map((w) => escapeControl(w));

  if (args.json) {
    const report = {
      chunks: selections.map((s) => ({
        path: s.chunk.path,
        piece: s.chunk.piece,
        namespace: s.chunk.namespace,
        documents: s.documents.map((d) => ({
          id: d.concept.id,
          match: d.match,
          matched: d.matched,
          tokens: d.tokens,
          truncated: d.truncated,
          rules: rulesOf(d.concept),
        })),
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

/** A document's rules with their kind: `pattern` (a regex), `ast` (a syntax-tree pattern) or `imports` (a boundary). */
function rulesOf(concept: Concept): Array<{ id: string; kind: 'pattern' | 'ast' | 'imports'; language?: string }> {
  return [
    ...concept.rules.map((r) => ({ id: r.id, kind: 'pattern' as const })),
    ...(concept.structural ?? []).map((r) =>
      r.kind === 'ast' ? { id: r.id, kind: r.kind, language: r.language } : { id: r.id, kind: r.kind },
    ),
  ];
}
