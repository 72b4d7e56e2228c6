/**
 * Every git command revtrail runs, named once (like simple-git's tasks), and the entry shapes
 * that run them (./run.ts): each command is data (the argv, the input, the exit codes that are
 * answers, a timeout, its own environment) plus its output format, a parse for `run` or a
 * stream format for `stream`. Grouped by topic in ./commands/ (docs/architecture.md "The git
 * runner"); this module is where callers import them from.
 */
export {
  run,
  stream,
  type GitAnswer,
  type GitCommand,
  type GitOptions,
  type StreamCommand,
  type StreamFormat,
} from './run.js';
export * from './commands/parse.js';
export * from './commands/repository.js';
export * from './commands/refs.js';
export * from './commands/walk.js';
export * from './commands/log.js';
export * from './commands/objects.js';
export * from './commands/diff.js';
export * from './commands/worktree.js';
export * from './commands/config.js';
