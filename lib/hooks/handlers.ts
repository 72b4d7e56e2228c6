/**
 * The hook registry's lazy half (docs/hooks.md, "The hooks, and adding one"): a hook record is
 * read on every hook start, so its handler is a module of its own in ./handler/ (named after
 * the hook), loaded here when that hook runs; the handler imports its flow statically. The map
 * (./handler/index.ts) is written by the build from the files of ./handler/, as the records'
 * list is.
 */
import { handlers } from './handler/index.js';
import type { HookRecord } from './record.js';

/** A hook record's `run`: loads the hook's handler module when the hook runs. */
export function lazyHandler(name: keyof typeof handlers): NonNullable<HookRecord['run']> {
  return async (args, context, stdin) => (await handlers[name]()).run(args, context, stdin);
}
