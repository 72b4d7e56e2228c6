/** `ci_successful`: a `pass` note in refs/notes/revtrail-ci on the fix commit. */
import { outcomeOf } from '../../ci/notes.js';
import { fixOf, met, noFixCommitCase, threadSignal, unmet, type ThreadContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.ci_successful;
const cases = {
  pass: met<ThreadContext>((ctx) => m.pass(fixOf(ctx))),
  fail: unmet<ThreadContext>((ctx) => [m.fail(fixOf(ctx)), m.failChange(fixOf(ctx))]),
  none: unmet<ThreadContext>((ctx) => [m.none(fixOf(ctx)), m.noneChange(fixOf(ctx))]),
  other: unmet<ThreadContext>((ctx) => [
    m.other(fixOf(ctx), ctx.facts.ci.get(fixOf(ctx)) ?? ''),
    m.otherChange(fixOf(ctx)),
  ]),
};

export const signal = threadSignal({
  name: 'ci_successful',
  needs: 'history',
  decide: ({ facts, accept }) => (accept ? cases[outcomeOf(facts.ci.get(accept.commit))] : noFixCommitCase),
});
