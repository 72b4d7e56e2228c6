/**
 * `several_authors`: the qualifying threads' records come from commits by at least
 * gate.minAuthors people (default 2; docs/gate.md). One person raising and fixing every finding of a rule is that person's habit;
 * a second person who wrote the flagged code, or fixed it, makes it the team's.
 */
import { ruleSignal, type Case, type RuleContext } from './define.js';
import { signalMessages } from '../../messages/gate.js';

const m = signalMessages.several_authors;

/** Who a commit's author is: the email, case-folded (a name is spelled many ways; `Name <email>` otherwise whole). */
function person(author: string): string {
  const email = /<([^<>]*)>\s*$/.exec(author);
  return (email ? email[1]! : author).trim().toLowerCase();
}

/** Distinct authors of every commit that records a qualifying thread (the one that raised it, the one that fixed it, copies). */
function authors(c: RuleContext): number {
  const seen = new Set<string>();
  for (const q of c.qualifying) for (const o of q.thread.occurrences) seen.add(person(o.author));
  return seen.size;
}

const several: Case<RuleContext> = { met: true, texts: (c) => [m.met(c.rule, authors(c)), null] };
const one: Case<RuleContext> = {
  met: false,
  texts: (c) => [m.unmet(c.rule, authors(c), c.qualifying.length), m.change(c.rule, c.minAuthors)],
};

export const signal = ruleSignal({
  name: 'several_authors',
  decide: (c) => (authors(c) >= c.minAuthors ? several : one),
});
