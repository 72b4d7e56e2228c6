/** `generalizable`: the rule has at least gate.minRecurrence qualifying threads, in two files or more. */
import { ruleSignal, type Case, type RuleContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.generalizable;
const fact = (c: RuleContext) => m.fact(c.rule, c.qualifying.length, c.files.length, c.minRecurrence, c.threadSignals);
const enough: Case<RuleContext> = { met: true, texts: (c) => [fact(c), null] };
const tooFew: Case<RuleContext> = {
  met: false,
  texts: (c) => [fact(c), m.change(c.rule, Math.max(0, c.minRecurrence - c.qualifying.length), c.files.length < 2)],
};

export const signal = ruleSignal({
  name: 'generalizable',
  decide: (c) => (c.qualifying.length >= c.minRecurrence && c.files.length >= 2 ? enough : tooFew),
});
