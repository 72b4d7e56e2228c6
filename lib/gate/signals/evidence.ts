/** `evidence`: an occurrence's file:line lies in lines its commit changed. */
import type { MinedFinding } from '../../mine/types.js';
import type { Thread } from '../types.js';
import { intersects, lineRange } from '../facts.js';
import { met, threadSignal, unmet, type GateFacts, type ThreadContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.evidence;
const located = (o: MinedFinding) => !!o.file && lineRange(o.line) !== null;

/** The occurrence whose file:line lies in lines its commit changed: the evidence, if any. */
export function evidenceHit(thread: Thread, facts: GateFacts): MinedFinding | null {
  for (const o of thread.occurrences)
    if (located(o) && intersects(lineRange(o.line)!, facts.changed.get(o.commit)?.get(o.file!))) return o;
  return null;
}

const cases = {
  noLocation: unmet<ThreadContext>(() => [m.noLocation, m.noLocationChange]),
  // Outside the scope only when an earlier signal already rules the thread out.
  notChecked: unmet<ThreadContext>((ctx) => {
    const first = ctx.before.find((s) => !s.case.met);
    return [m.notChecked(first?.name ?? 'the gate'), first?.case.texts(ctx)[1] ?? m.change];
  }),
  hit: met<ThreadContext>((ctx) => {
    const hit = evidenceHit(ctx.thread, ctx.facts)!;
    return m.met(hit.file!, hit.line!, hit.commit);
  }),
  miss: unmet<ThreadContext>(({ thread }) => [m.unmet(thread.occurrences.filter(located).length), m.change]),
};

export const signal = threadSignal({
  name: 'evidence',
  // Reading changed lines costs a diff per commit: only for threads the history signals leave in.
  needs: 'diffs',
  decide: ({ thread, facts }) => {
    if (!thread.occurrences.some(located)) return cases.noLocation;
    if (!facts.evidenceScope.has(thread.id)) return cases.notChecked;
    return evidenceHit(thread, facts) ? cases.hit : cases.miss;
  },
});
