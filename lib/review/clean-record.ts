/**
 * The record a full review leaves for the clean-commit check (./clean-check.ts): made only for
 * a policy under which a review with no rule reaching any line says nothing at all, and whose
 * every rule is known by its needles (docs/hooks.md "Clean commits").
 */
import type { Bundle } from '../bundle/types.js';
import type { Config } from '../config/schema.js';
import type { ConfigSource } from '../config/load.js';
import { readDerivedFile, writeDerivedFile } from '../core/derived-cache.js';
import { builtinRules, credentialOverrides, unknownBuiltinIds } from './builtin.js';
import { prefilterOf } from './engine/prefilter.js';
import { bundleHasCredentialSources } from './credentials.js';
import type { ReviewRule } from './engine/types.js';
import type { CleanRecord, StructuralGlob } from './clean-check.js';
import { compiledGlob, costlyGlob } from '../bundle/globs.js';
import { screenNeedles } from './credential-screen.js';

export interface RecordedPolicy {
  top: string;
  config: Config;
  configSource?: ConfigSource;
  configProblem?: string | null;
}

/**
 * The record for this policy, or null when the clean check cannot answer for it: a reviewer
 * program (it reads every piece; a model reviewer's hooks are kept, for each hook to ask), a doc map, anything the
 * review warns about on every run (a config problem or override, bundle diagnostics), a
 * syntax-tree or import rule without `paths`, a rule without needles, or a bundle file not known
 * by its signature. A syntax-tree or import rule with `paths` is kept by its globs: a piece
 * with added lines on a path they match is "maybe" (it may match on any node, so no needle).
 */
export function cleanRecordOf(policy: RecordedPolicy, bundle: Bundle): CleanRecord | null {
  const { config } = policy;
  if (!policy.configSource || policy.configProblem) return null;
  if (config.reviewer.command?.length) return null;
  if (config.docMap !== undefined || !bundle.sources || bundle.diagnostics.length) return null;
  if (
    credentialOverrides(config).length ||
    (Array.isArray(config.builtinRules) && unknownBuiltinIds(config.builtinRules).length)
  )
    return null;
  const baseline = builtinRules(config.builtinRules);
  const rules: ReviewRule[] = [...baseline];
  const structuralGlobs = new Map<string, StructuralGlob>();
  for (const concept of bundle.concepts) {
    for (const rule of concept.structural ?? []) {
      if (!rule.paths.length) return null;
      for (const glob of rule.paths) {
        // A glob the matcher gives up on (it matches nothing there): no record, the review decides.
        if (costlyGlob(glob)) return null;
        if (!structuralGlobs.has(glob)) structuralGlobs.set(glob, [glob, ...compiledGlob(glob)]);
      }
    }
    rules.push(...concept.rules);
  }
  const needles = new Set<string>();
  const lowerNeedles = new Set<string>();
  for (const rule of rules) {
    const filter = prefilterOf(rule);
    if (!filter) return null;
    for (const n of filter.needles) (filter.ignoreCase ? lowerNeedles : needles).add(n);
  }
  return {
    top: policy.top,
    config: policy.configSource,
    files: bundle.sources.map(([file, signature]) => [file, signature]),
    chunkLines: config.chunkLines,
    foldAt: config.trailers.foldAt,
    modelHooks: config.reviewer.model ? [...config.reviewer.model.hooks] : [],
    credentialSources: bundleHasCredentialSources(bundle),
    credentialNeedles: screenNeedles(baseline.filter((r) => r.credential)),
    needles: [...needles].sort(),
    lowerNeedles: [...lowerNeedles].sort(),
    structuralGlobs: [...structuralGlobs.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  };
}

/** Keeps `record` in `file` (or nothing, for null) unless it is there already. Never an error. */
export async function keepCleanRecord(file: string, record: CleanRecord | null): Promise<void> {
  if (!record) return;
  const known = readDerivedFile(file)?.record;
  if (known && JSON.stringify(known) === JSON.stringify(record)) return;
  await writeDerivedFile(file, { record });
}

/** Leaves the record of a review's policy (`session`, its loaded bundle) in `file`. Never an error. */
export async function keepRecordOf(file: string, session: RecordedPolicy, bundle: Bundle): Promise<void> {
  let record: CleanRecord | null;
  try {
    record = cleanRecordOf(session, bundle);
  } catch {
    return; // a pattern the needle reader trips on: no record, every commit reviewed in full
  }
  await keepCleanRecord(file, record);
}
