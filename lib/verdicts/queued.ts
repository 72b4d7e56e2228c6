/**
 * The queued verdicts a review counts, read without loading the queue's module (and with it
 * node:fs/promises and the lock) when there is no queue: most reviews, the editor's first one
 * among them (docs/editor.md "Start-up").
 */
import { existsSync } from 'node:fs';
import { queueFile } from '../core/state.js';
import type { QueuedVerdict } from './queue.js';

export function readQueueIfAny(commonDir: string): Promise<QueuedVerdict[]> {
  // A queue written after this check is read by the next review, as one written after the read.
  if (!existsSync(queueFile(commonDir))) return Promise.resolve([]);
  return import('./queue.js').then((q) => q.readQueue(commonDir));
}
