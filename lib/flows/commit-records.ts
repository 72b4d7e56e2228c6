/**
 * The commit flow's record stage (./commit.ts), loaded as one when a commit reads or writes
 * Review-Finding rows: each of these modules brings zod and the CSV libraries, which a commit
 * with nothing to record never loads (docs/hooks.md "Start-up").
 */
export { commitMessages, readHistoryOf, recordKey } from '../record/history.js';
export { lintMessage, trailerValuesFromParse } from '../record/lint.js';
export {
  addTrailersToFile,
  configuredFoldAt,
  keyFor,
  parseTrailers,
  TrailersUnreadableError,
} from '../record/write.js';
export { findingRow } from '../report/trailer-rows.js';
export { chooseQueued } from '../verdicts/choose.js';
export { pruneQueue, readQueue } from '../verdicts/queue.js';
