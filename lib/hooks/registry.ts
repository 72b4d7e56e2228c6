/**
 * The hooks revtrail knows: one record per file of lib/hooks/hook/ (./record.ts), gathered by
 * the build into ./hook/index.ts (generated, not committed). Every list of hooks comes from
 * here, so adding a hook is adding its file (docs/hooks.md, "The hooks, and adding one").
 */
import { records } from './hook/index.js';
import type { HookRecord } from './record.js';

export type { HookRecord } from './record.js';

/** Every hook, in the order of their file names. */
export const HOOK_RECORDS: readonly HookRecord[] = records;

const byName = new Map(records.map((r) => [r.name, r]));

export function hookRecord(name: string): HookRecord | undefined {
  return byName.get(name);
}

/** The hooks `revtrail install` writes into a clone (husky, lefthook, pre-commit). */
export const CLIENT_HOOKS: readonly HookRecord[] = records.filter((r) => r.side === 'client');

/** The hooks `revtrail hook NAME` runs: those with a handler. */
export const RUNNABLE_HOOKS: readonly HookRecord[] = records.filter((r) => r.run);
