/** `merged`: the commit carrying the ACCEPT is reachable from the mainline. */
import { fixOf, met, noAcceptCase, threadSignal, unmet, type ThreadContext } from './define.js';
import { gateMessages, signalMessages } from '../../messages/gate.js';

const m = signalMessages.merged;
const cases = {
  noMainline: unmet<ThreadContext>(({ facts }) => [
    m.noMainline(facts.mainlineProblem ?? ''),
    gateMessages.setMainline,
  ]),
  reachable: met<ThreadContext>((ctx) => m.met(fixOf(ctx), ctx.mainlineName)),
  unreachable: unmet<ThreadContext>((ctx) => [
    m.unmet(fixOf(ctx), ctx.mainlineName),
    m.change(fixOf(ctx), ctx.mainlineName),
  ]),
};

export const signal = threadSignal({
  name: 'merged',
  needs: 'history',
  decide: ({ facts, accept }) => {
    if (!accept) return noAcceptCase;
    if (!facts.mainline) return cases.noMainline;
    return facts.reachable.has(accept.commit) ? cases.reachable : cases.unreachable;
  },
});
