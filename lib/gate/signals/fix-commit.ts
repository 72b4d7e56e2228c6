/** `fix_commit`: the commit carrying the fix touches the thread's file in its first-parent diff. */
import { fixOf, met, noFileCase, noFixCommitCase, threadSignal, unmet, type ThreadContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.fix_commit;
const cases = {
  changes: met<ThreadContext>((ctx) => m.met(fixOf(ctx), ctx.thread.file!)),
  elsewhere: unmet<ThreadContext>((ctx) => [
    m.unmet(fixOf(ctx), ctx.thread.file!, ctx.facts.touched.get(fixOf(ctx))?.size ?? 0),
    m.change(ctx.thread.file!),
  ]),
};

export const signal = threadSignal({
  name: 'fix_commit',
  needs: 'history',
  decide: ({ thread, facts, accept }) => {
    if (!accept) return noFixCommitCase;
    if (!thread.file) return noFileCase;
    return facts.touched.get(accept.commit)?.has(thread.file) ? cases.changes : cases.elsewhere;
  },
});
