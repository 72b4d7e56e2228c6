/** `not_dismissed`: no REJECT in the thread, and its file still exists at the mainline tip. */
import type { MinedFinding } from '../../mine/types.js';
import type { Thread } from '../types.js';
import { met, noFileCase, threadSignal, unmet, type ThreadContext } from './define.js';
import { gateMessages, signalMessages } from '../../messages/gate.js';

const m = signalMessages.not_dismissed;

function lastReject(thread: Thread): MinedFinding | undefined {
  for (let i = thread.occurrences.length - 1; i >= 0; i--)
    if (thread.occurrences[i]!.verdict === 'REJECT') return thread.occurrences[i];
  return undefined;
}

const cases = {
  rejected: unmet<ThreadContext>(({ thread }) => {
    const reject = lastReject(thread)!;
    return [m.rejected(reject.commit, reject.rationale), m.rejectedChange];
  }),
  noMainline: unmet<ThreadContext>(({ thread }) => [m.noMainline(thread.file!), gateMessages.setMainline]),
  gone: unmet<ThreadContext>(({ thread, mainlineName }) => [
    m.fileGone(thread.file!, mainlineName),
    m.fileGoneChange(thread.file!, mainlineName),
  ]),
  present: met<ThreadContext>(({ thread, mainlineName }) => m.met(thread.file!, mainlineName)),
};

export const signal = threadSignal({
  name: 'not_dismissed',
  needs: 'history',
  decide: ({ thread, facts }) => {
    if (lastReject(thread)) return cases.rejected;
    if (!thread.file) return noFileCase;
    if (!facts.mainline) return cases.noMainline;
    return facts.present.has(thread.file) ? cases.present : cases.gone;
  },
});
