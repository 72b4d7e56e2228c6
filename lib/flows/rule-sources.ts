/**
 * The rule sources a review of this repository runs (the enabled baseline and the bundle's
 * rules). An OPEN row of one of them is dropped by a rewrite when the rewritten commit no longer
 * raises it; a row from anything else (a reviewer program, a removed document) is kept, since a
 * review cannot tell whether it still applies (docs/record.md "Amend").
 */
import type { Workspace } from '../workspace/index.js';
import { builtinRules } from '../review/builtin.js';

export async function runnableRuleSources(session: Workspace): Promise<Set<string>> {
  const sources = new Set(builtinRules(session.config.builtinRules).map((r) => r.ruleSource));
  try {
    for (const c of (await session.bundle()).concepts)
      for (const r of [...c.rules, ...(c.structural ?? [])]) sources.add(r.ruleSource);
  } catch {
    // a bundle that cannot load runs no rules of its own
  }
  return sources;
}
