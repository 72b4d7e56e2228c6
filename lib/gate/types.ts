/** Finding threads and the promotion gate (docs/gate.md). */
import type { MinedFinding } from '../mine/types.js';
import type { Verdict } from '../core/vocabulary.js';

/** Every occurrence of one finding ID, oldest first; its state is the latest verdict. */
export interface Thread {
  id: string;
  occurrences: MinedFinding[];
  state: Verdict;
  rule_source: string;
  /** The latest occurrence that names a file (findings move with their file). */
  file: string | null;
  line: string | null;
  issue: string;
  category: string;
}

import type { SignalName } from './signals/index.js';
// The signals are one registry, one file each (lib/gate/signals/, docs/gate.md).
export { SIGNALS, type SignalName } from './signals/index.js';

/** One observed fact: whether it holds, what was seen, and what would change it. */
export interface Signal {
  name: SignalName;
  met: boolean;
  fact: string;
  /** What would make an unmet signal met; null when it is met. */
  change: string | null;
}

export interface ThreadGate {
  thread: Thread;
  /** The occurrence carrying the latest ACCEPT (the fix), if any. */
  accept: MinedFinding | null;
  /** The occurrence whose file:line lies in lines its commit changed, if one was found. */
  evidence: MinedFinding | null;
  /** Whether each signal holds (read only: threads with the same outcome share one record). */
  met: Readonly<Record<SignalName, boolean>>;
  /**
   * Every signal with the fact behind it and what would change it; only for the threads the
   * gate was asked to explain (GateOptions.explain), null for the rest.
   */
  signals: Record<SignalName, Signal> | null;
  passed: boolean;
}

export interface RuleGate {
  rule_source: string;
  threads: ThreadGate[];
  /** Threads meeting every thread signal (the rule signals are decided over these). */
  qualifying: ThreadGate[];
  files: string[];
  minRecurrence: number;
  passed: boolean;
  /** The rule signals, in registry order, each with its fact. */
  signals: Signal[];
}

export interface Mainline {
  /** The name used (config value, origin/HEAD's target, main or master). */
  name: string;
  sha: string;
}

export interface GateReport {
  mainline: Mainline | null;
  /** Why there is no mainline, when there is none. */
  mainlineProblem: string | null;
  threads: ThreadGate[];
  rules: RuleGate[];
}
