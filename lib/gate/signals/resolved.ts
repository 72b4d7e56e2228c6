/** `resolved`: the thread's latest verdict is ACCEPT. */
import { met, threadSignal, unmet, type ThreadContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.resolved;
const cases = {
  accepted: met<ThreadContext>(({ latest }) => m.met(latest.commit)),
  other: unmet<ThreadContext>(({ thread, latest }) => [m.unmet(thread.state, latest.commit), m.change(thread.id)]),
};

export const signal = threadSignal({
  name: 'resolved',
  needs: 'history',
  decide: ({ thread }) => (thread.state === 'ACCEPT' ? cases.accepted : cases.other),
});
