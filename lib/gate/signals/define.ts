/**
 * How a gate signal is written (docs/gate.md "The gate"): one file per signal in this folder,
 * exporting `signal`, listed once in ./index.ts. Everything else (SIGNALS, the thread and rule
 * signals, the counts in messages and the candidates' gate record) is derived from that list.
 */
import type { MinedFinding } from '../../mine/types.js';
import type { Mainline, Thread } from '../types.js';
import type { LineRanges } from '../facts.js';
import { gateMessages as m } from '../../messages/gate.js';

export interface GateFacts {
  mainline: Mainline | null;
  mainlineProblem: string | null;
  /** Commits (those carrying findings) reachable from the mainline. */
  reachable: Set<string>;
  /** Files each ACCEPT commit's first-parent diff touches. */
  touched: Map<string, Set<string>>;
  /** Thread files that exist at the mainline tip. */
  present: Set<string>;
  /** CI note text per commit. */
  ci: Map<string, string>;
  /** Lines each commit changed, per file; read only for the threads in evidenceScope. */
  changed: Map<string, Map<string, LineRanges>>;
  evidenceScope: Set<string>;
}

/**
 * One way a signal can come out, with the texts that say so: the fact, and what would change an
 * unmet signal. Cases are made once, with the signal; deciding a signal picks one and builds
 * nothing, so every thread of a long history is decided cheaply, and the texts are written only
 * when someone reads them (`--explain`).
 */
export interface Case<C> {
  met: boolean;
  texts(ctx: C): [fact: string, change: string | null];
}

export const met = <C>(fact: (ctx: C) => string): Case<C> => ({ met: true, texts: (ctx) => [fact(ctx), null] });
export const unmet = <C>(texts: (ctx: C) => [fact: string, change: string]): Case<C> => ({ met: false, texts });

/** What a thread signal decides on: the thread, the facts, and (for the texts) the signals decided before it. */
export interface ThreadContext {
  thread: Thread;
  facts: GateFacts;
  accept: MinedFinding | null;
  latest: MinedFinding;
  mainlineName: string;
  /** The thread signals decided before this one, in registry order. */
  before: ReadonlyArray<{ name: string; case: Case<ThreadContext> }>;
}

/** A thread that meets every thread signal, as a rule signal sees it. */
export interface Qualifying {
  thread: Thread;
  /** The occurrence carrying the ACCEPT (the fix). */
  accept: MinedFinding | null;
  /** The occurrence that is the evidence. */
  hit: MinedFinding | null;
}

/** What a rule signal decides on: the rule's threads that meet every thread signal. */
export interface RuleContext {
  rule: string;
  qualifying: readonly Qualifying[];
  /** Distinct files of the qualifying threads, sorted. */
  files: readonly string[];
  minRecurrence: number;
  /** config.gate.minAuthors: distinct authors several_authors asks for. */
  minAuthors: number;
  /** How many thread signals there are (for the texts). */
  threadSignals: number;
}

/**
 * A signal decided per thread. `needs` says what deciding it costs: `history` signals are decided
 * from the mined history and a few batched git facts; `diffs` needs each commit's changed lines,
 * read only for threads that meet every `history` signal.
 */
export interface ThreadSignal<N extends string = string> {
  name: N;
  level: 'thread';
  needs: 'history' | 'diffs';
  decide(ctx: ThreadContext): Case<ThreadContext>;
}

/** A signal decided per rule_source, over the threads that meet every thread signal. */
export interface RuleSignal<N extends string = string> {
  name: N;
  level: 'rule';
  needs: 'rule';
  decide(ctx: RuleContext): Case<RuleContext>;
}

export type GateSignal<N extends string = string> = ThreadSignal<N> | RuleSignal<N>;

export const threadSignal = <const N extends string>(s: Omit<ThreadSignal<N>, 'level'>): ThreadSignal<N> => ({
  ...s,
  level: 'thread',
});
export const ruleSignal = <const N extends string>(s: Omit<RuleSignal<N>, 'level' | 'needs'>): RuleSignal<N> => ({
  ...s,
  level: 'rule',
  needs: 'rule',
});

// Cases several thread signals share: the thread has no ACCEPT, or no file.
/** The accept of a case that is only decided when there is one. */
export const fixOf = (ctx: ThreadContext) => ctx.accept!.commit;
export const noAcceptCase = unmet<ThreadContext>(({ thread, mainlineName }) => [
  m.noAccept,
  m.recordAccept(thread.id, mainlineName),
]);
export const noFixCommitCase = unmet<ThreadContext>(({ thread, mainlineName }) => [
  m.noFixCommit,
  m.recordAccept(thread.id, mainlineName),
]);
export const noFileCase = unmet<ThreadContext>(() => [m.noFile, m.noFileChange]);
