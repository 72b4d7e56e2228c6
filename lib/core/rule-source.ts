/**
 * The one grammar of a rule_source, `name[/section]:rule-id` (docs/trust.md, "Trailer
 * grammar"): a finding, a trailer row and a bundle's concept id all check against this, so a
 * rule can never raise a finding that cannot be recorded. Its own module, with no imports: the
 * review's finding contract and the bundle loader use it without the CSV libraries.
 *
 * Each part is ASCII letters, digits and `_ . + @ -`, starting with a letter, digit or `_`:
 * nothing a CSV field, a shell, a terminal or an HTML page would read as syntax.
 */
const PART = '[A-Za-z0-9_][A-Za-z0-9_.+@-]*';

export const RULE_SOURCE_PATTERN = new RegExp(`^${PART}(?:/${PART})?:${PART}$`);

/** A concept id that can be the `name[/section]` of a rule source. */
export const RULE_SOURCE_NAME = new RegExp(`^${PART}(?:/${PART})?$`);

export const RULE_SOURCE_SHAPE = 'name[/section]:rule-id (letters, digits, _ . + @ -; at most one /)';
