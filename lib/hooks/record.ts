/**
 * What revtrail knows about one git hook, in one record (docs/hooks.md, "The hooks, and adding
 * one"): each file of lib/hooks/hook/ exports one, and every list of hooks is derived from them
 * (the install, the start-up's code caches, `revtrail hook`'s choices and its dispatch).
 *
 * A record is read on every hook start, so it holds data and a lazy handler only: the handler is
 * a module of its own (./handler/), loaded by ./handlers.ts when that hook runs.
 */
import type { CliContext } from '../core/output.js';
import type { ReadSet } from '../flows/reads.js';

/** What a hook handler is given: the terminal, and what the start-up already read for its flow. */
export interface HookContext extends CliContext {
  /** The start-up's reads, when its clean check ran and could not decide (lib/flows/reads.ts). */
  reads?: ReadSet;
}

export interface HookRecord {
  /** git's name of the hook, and of its file in lib/hooks/hook/. */
  name: string;
  /**
   * Where it is installed: client hooks by `revtrail install` (husky, lefthook, pre-commit),
   * server hooks by `revtrail install --server`. REVTRAIL=0 in a pusher's environment never
   * skips a server hook (docs/server.md).
   */
  side: 'client' | 'server';
  /** A V8 code cache of its own at start-up (lib/start/starter.ts): it runs on every commit or push. */
  cached: boolean;
  /**
   * git writes lines to its stdin. The handler gets them; the installed block reads them first
   * and hands them on to the lines of a user's own hook after it, so it goes at the top there.
   */
  stdin: boolean;
  /** What git passes it, as `revtrail hook --help` shows it (empty: nothing). */
  usage: string;
  /**
   * What doctor says when an install lacks it: `fail` for a hook the record cannot do
   * without, `warn` for one whose absence costs a convenience (or that older installs did not
   * write: they keep working without it until `revtrail install` runs again).
   */
  missing: 'fail' | 'warn';
  /**
   * Its shell template in hooks/: by default `hook`, the one for any hook that only runs
   * `revtrail hook NAME "$@"` (exit 1 blocks, any other failure warns); a hook that needs shell
   * of its own (a fast path without Node, stdin, a check that fails closed) names its own.
   */
  script?: string;
  /**
   * The handler of `revtrail hook NAME ARGS`: 0 go on, 1 blocking outcome, anything else a
   * check that did not finish (lib/hooks/run.ts). None: the installed script does all in shell.
   */
  run?: (args: readonly string[], context: HookContext, stdin: string) => Promise<number>;
}

/** A hook file's record, typed. */
export const defineHook = (record: HookRecord): HookRecord => record;
