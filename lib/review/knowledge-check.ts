/**
 * `knowledge check` as a use-case (docs/bundle.md "Discovery"): the bundle of a workspace validated,
 * with what only a check adds (rule patterns' risks, syntax-tree patterns parsed, the config's
 * excludes against the rules there are). The workspace found the repository and loaded the
 * config once; this reads them and prints nothing.
 */
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { toPosix } from '../core/fs/path.js';
import type { Workspace } from '../workspace/index.js';
import { conceptPath } from '../bundle/load.js';
import type { Bundle, Diagnostic } from '../bundle/types.js';
import { InputError } from '../core/errors.js';
import { matchesEmpty, ruleTimeKey, superLinearRisk } from './engine/regex-guard.js';
import { bundleMessages as bm } from '../messages/bundle.js';
import { checkExcludes } from './engine/excludes.js';
import { checkAstRule } from './structural/match.js';

export interface KnowledgeCheck {
  /** The bundle folder as the user sees it (from the start folder). */
  name: string;
  bundle: Bundle;
  errors: Diagnostic[];
  warnings: Diagnostic[];
  /** Rules of every kind in the bundle's documents. */
  rules: number;
  /** The doc map's file (as the user sees it) and its mapped documents, when one is configured. */
  docMap: { file: string; usable: boolean; documents: number } | null;
  /** 0 clean or warnings only, 1 errors, 2 a configuration or doc map that cannot be used. */
  exitCode: 0 | 1 | 2;
}

const shown = (cwd: string, abs: string) => toPosix(relative(cwd, abs)) || '.';

/** DIR is the folder the user named (from the start folder); none: the configured bundle. */
export async function checkKnowledge(ws: Workspace, dir?: string): Promise<KnowledgeCheck> {
  // With DIR given the configuration is still checked (a broken one would stop every review);
  // without DIR it names the bundle, so a broken one stops the check as it stops a review.
  if (dir === undefined && ws.configError) throw ws.configError;
  const configError: Diagnostic | null = ws.configError
    ? { level: 'error', file: null, line: null, message: ws.configError.message }
    : null;
  const root = dir !== undefined ? resolve(ws.cwd, dir) : ws.knowledge;
  const name = shown(ws.cwd, root);
  const mapsDocuments = ws.repo !== null && ws.config.docMap !== undefined;
  const info = await stat(root).catch(() => null);
  // With a doc map the bundle may be absent (docs/bundle.md "Doc map").
  if (!info && !mapsDocuments) throw new InputError(bm.checkMissing(name), { remedy: bm.checkMissingRemedy });
  if (info && !info.isDirectory()) throw new InputError(bm.checkNotAFolder(name), { remedy: bm.checkMissingRemedy });

  // The repository's bundle cache, when there is one, holds the rules that overran in reviews.
  const bundle = await ws.bundle(root, { audit: true });
  const diagnostics = [
    ...bundle.diagnostics,
    ...patternWarnings(bundle, ws.cwd),
    ...(await structuralErrors(bundle, ws.cwd)),
    ...(await excludeDiagnostics(ws, bundle)),
  ];
  const errors = [...(configError ? [configError] : []), ...diagnostics.filter((d) => d.level === 'error')];
  const warnings = diagnostics.filter((d) => d.level === 'warning');
  const rules = bundle.concepts.reduce((n, c) => n + c.rules.length + (c.structural?.length ?? 0), 0);
  const docMap = bundle.docMap
    ? {
        file: shown(ws.cwd, bundle.docMap.file),
        usable: !bundle.docMap.unusable,
        documents: bundle.concepts.filter((c) => c.mapped).length,
      }
    : null;
  // A configuration or a doc map that cannot be used is an input error (exit 2): in a review and
  // the hooks it only warns (docs/trust.md "Fails closed").
  const exitCode = configError || bundle.docMap?.unusable ? 2 : errors.length ? 1 : 0;
  return { name, bundle, errors, warnings, rules, docMap, exitCode };
}

/** The config's per-rule excludes against the rules there are: a bad glob is an error, an unknown rule a warning. */
async function excludeDiagnostics(ws: Workspace, bundle: Bundle): Promise<Diagnostic[]> {
  if (ws.configError || Object.keys(ws.config.exclude).length === 0) return [];
  const file = ws.configFile ? shown(ws.cwd, ws.configFile) : null;
  return checkExcludes(ws.config.exclude, bundle).map((p) => ({
    level: p.level,
    file,
    line: null,
    message: p.message,
  }));
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

/** Every `ast` rule's pattern parsed in its language (the parser loads only if a bundle has one). */
async function structuralErrors(bundle: Bundle, cwd: string): Promise<Diagnostic[]> {
  const rules = bundle.concepts.flatMap((c) =>
    (c.structural ?? []).filter((r) => r.kind === 'ast').map((rule) => ({ concept: c, rule })),
  );
  if (!rules.length) return [];
  const out: Diagnostic[] = [];
  for (const { concept, rule } of rules) {
    const why = rule.kind === 'ast' ? checkAstRule(rule) : null;
    if (why)
      out.push({
        level: 'error',
        file: shown(cwd, conceptPath(bundle, concept)),
        line: rule.line ?? null,
        message: bm.astPattern(`"${rule.id}"`, why),
      });
  }
  return out;
}
