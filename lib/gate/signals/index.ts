/**
 * The gate's signals, in the order they are shown (docs/gate.md "The gate"). A signal is one file
 * in this folder and one line here; test/gate/registry.test.ts fails when a file's `signal` is
 * not listed, and when docs/gate.md's table does not name the signals in this order.
 */
import type { RuleSignal, ThreadSignal } from './define.js';
import { signal as merged } from './merged.js';
import { signal as resolved } from './resolved.js';
import { signal as fixCommit } from './fix-commit.js';
import { signal as notDismissed } from './not-dismissed.js';
import { signal as ciSuccessful } from './ci-successful.js';
import { signal as generalizable } from './generalizable.js';
import { signal as evidence } from './evidence.js';
import { signal as severalAuthors } from './several-authors.js';

export const REGISTRY = [
  merged,
  resolved,
  fixCommit,
  notDismissed,
  ciSuccessful,
  generalizable,
  evidence,
  severalAuthors,
] as const;

export type SignalName = (typeof REGISTRY)[number]['name'];

/** Every signal's name, in registry order. */
export const SIGNALS = REGISTRY.map((s) => s.name) as unknown as readonly [SignalName, ...SignalName[]];

/** The signals decided per thread, in the order they are decided. */
export const THREAD_SIGNALS: readonly ThreadSignal<SignalName>[] = REGISTRY.filter(
  (s): s is Extract<(typeof REGISTRY)[number], { level: 'thread' }> => s.level === 'thread',
);

/** The signals decided per rule_source, over the threads meeting every thread signal. */
export const RULE_SIGNALS: readonly RuleSignal<SignalName>[] = REGISTRY.filter(
  (s): s is Extract<(typeof REGISTRY)[number], { level: 'rule' }> => s.level === 'rule',
);
