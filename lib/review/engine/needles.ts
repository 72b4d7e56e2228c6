/**
 * Literal prefilters for rules: from a regex, a few strings of which every match must contain
 * one ("needles"). A chunk whose added text holds none of them cannot match the rule, so the
 * rule is skipped for the whole chunk after a few `includes` calls, without running the regex
 * on every line (most rules of a large bundle match nothing in most chunks).
 *
 * Sound, not complete: whatever this reader does not understand ends a run of literal
 * characters or gives no needles at all (the rule then runs on every line, as before).
 */

export interface NeedleOptions {
  /**
   * The regex runs on a masked view of the line (literal contents blanked to spaces): a space
   * in the pattern may then stand for any character of the raw text, so it ends a literal.
   */
  masked?: boolean;
}

/** At most this many strings in one set (alternatives multiply in a sequence). */
const MAX_SET = 64;
/** Needles shorter than this are found almost everywhere: no prefilter is cheaper. */
const MIN_USEFUL = 2;

/** What a part of the pattern matches: exactly one of `exact` (when known), and always one of `needs` as a substring. */
interface Shape {
  exact: string[] | null;
  needs: string[] | null;
}

const NOTHING_KNOWN: Shape = { exact: null, needs: null };

class Unsupported extends Error {}

/**
 * The needles of a regex, lower-cased under the `i` flag (compare with lower-cased ASCII text
 * only: Unicode case folding is not lower-casing), or null when none are known.
 */
export function regexNeedles(source: string, flags: string, options: NeedleOptions = {}): string[] | null {
  if (flags.includes('v') || /[\uD800-\uDFFF]/.test(source)) return null;
  const ignoreCase = flags.includes('i');
  let needles: string[] | null | undefined = literalAlternatives(source, options.masked === true);
  if (needles === undefined) {
    const shape = parse(source, flags, options);
    if (!shape) return null;
    needles = shape.needs;
  }
  if (!needles || score(needles) < MIN_USEFUL) return null;
  if (ignoreCase) {
    if (needles.some((n) => /[^\x00-\x7f]/.test(n))) return null;
    needles = needles.map((n) => n.toLowerCase());
  }
  // A needle that contains another is redundant: finding the shorter one is already required.
  const unique = [...new Set(needles)].sort((a, b) => a.length - b.length);
  return unique.filter((n, i) => !unique.slice(0, i).some((shorter) => n.includes(shorter)));
}

const ALTERNATIVES = /^(?:[A-Za-z0-9_ ]|\\[^A-Za-z0-9])+(?:\|(?:[A-Za-z0-9_ ]|\\[^A-Za-z0-9])+)*$/;

/**
 * The common simple pattern, `literal|literal` (letters, digits, escaped punctuation), read
 * without the parser: its needles are its alternatives. Undefined for any other pattern.
 */
function literalAlternatives(source: string, masked: boolean): string[] | undefined {
  if (!ALTERNATIVES.test(source) || (masked && source.includes(' '))) return undefined;
  const alternatives = [''];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '|') alternatives.push('');
    else alternatives[alternatives.length - 1] += c === '\\' ? source[++i]! : c; // an escaped `|` is a literal one
  }
  return alternatives;
}

function parse(source: string, flags: string, options: NeedleOptions): Shape | null {
  let shape: Shape;
  try {
    const parser = new Parser(source, flags.includes('u'), options.masked === true);
    shape = parser.parseAlternation();
    if (parser.at < source.length) return null; // an unbalanced `)`: not a pattern this reader follows
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  return shape;
}

function score(set: readonly string[]): number {
  let min = Infinity;
  for (const s of set) min = Math.min(min, s.length);
  return min === Infinity ? 0 : min;
}

/** The better necessary condition: longer shortest needle, then fewer needles. */
function better(a: string[] | null, b: string[] | null): string[] | null {
  if (!a || score(a) === 0) return b && score(b) > 0 ? b : null;
  if (!b || score(b) === 0) return a;
  const sa = score(a);
  const sb = score(b);
  if (sa !== sb) return sa > sb ? a : b;
  return b.length < a.length ? b : a;
}

function product(a: readonly string[], b: readonly string[]): string[] | null {
  if (a.length * b.length > MAX_SET) return null;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return out;
}

function power(set: readonly string[], n: number): string[] | null {
  let out: string[] | null = [''];
  for (let k = 0; k < n && out; k++) out = product(out, set);
  return out;
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));
/** Characters that are not plain literals where an atom starts. */
const SPECIAL = new Set('^$\\.*+?()[]{}|'.split(''));
const QUANTIFIER_START = new Set(['*', '+', '?', '{']);

class Parser {
  at = 0;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
    private readonly masked: boolean,
  ) {}

  parseAlternation(): Shape {
    const branches = [this.parseSequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.parseSequence());
    }
    if (branches.length === 1) return branches[0]!;
    let exact: string[] | null = [];
    let needs: string[] | null = [];
    for (const b of branches) {
      exact = exact && b.exact && exact.length + b.exact.length <= MAX_SET ? [...exact, ...b.exact] : null;
      needs = needs && b.needs && score(b.needs) > 0 ? [...needs, ...b.needs] : null;
    }
    return { exact, needs };
  }

  private parseSequence(): Shape {
    let best: string[] | null = null;
    let run: string[] | null = null; // the exact strings of the current run of exact items
    let whole: string[] | null = ['']; // the exact strings of the sequence so far
    const endRun = () => {
      best = better(best, run);
      run = null;
    };
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const item = this.plainRun() ?? this.quantified(this.parseAtom());
      whole = whole && item.exact ? product(whole, item.exact) : null;
      if (item.exact) {
        const joined: string[] | null = run ? product(run, item.exact) : item.exact;
        if (joined) run = joined;
        else {
          endRun();
          run = item.exact;
        }
      } else {
        endRun();
        best = better(best, item.needs);
      }
    }
    endRun();
    return { exact: whole, needs: whole ?? best };
  }

  /** A run of ordinary characters none of which is quantified, read at once (most of a typical pattern). */
  private plainRun(): Shape | null {
    const s = this.source;
    let end = this.at;
    while (
      end < s.length &&
      !SPECIAL.has(s[end]!) &&
      !(this.masked && s[end] === ' ') &&
      !QUANTIFIER_START.has(s[end + 1] ?? '')
    )
      end++;
    if (end === this.at) return null;
    const run = s.slice(this.at, end);
    this.at = end;
    return { exact: [run], needs: [run] };
  }

  private quantified(atom: Shape): Shape {
    const s = this.source;
    let min: number;
    let max: number;
    const c = s[this.at];
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(s.slice(this.at, this.at + 24));
      if (!m) return atom; // a literal brace (not a quantifier) is read as the next atom
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.at += m[0].length - 1;
    } else return atom;
    this.at++;
    if (s[this.at] === '?') this.at++; // lazy: same strings
    if (min === 0) return NOTHING_KNOWN;
    const repeated = atom.exact && min <= 16 ? power(atom.exact, min) : null;
    if (min === max) return { exact: repeated, needs: repeated ?? atom.needs };
    return { exact: null, needs: repeated ?? atom.needs };
  }

  private parseAtom(): Shape {
    const s = this.source;
    const c = s[this.at]!;
    if (c === '(') return this.parseGroup();
    if (c === '[') {
      this.at++;
      if (s[this.at] === '^') this.at++;
      while (this.at < s.length && s[this.at] !== ']') this.at += s[this.at] === '\\' ? 2 : 1;
      if (this.at >= s.length) throw new Unsupported();
      this.at++;
      return NOTHING_KNOWN;
    }
    if (c === '\\') return this.parseEscape();
    this.at++;
    // `.`, anchors, stray quantifiers and braces, Annex B's literal `]` and `}`: nothing known.
    if ('.^$*+?{}]'.includes(c)) return NOTHING_KNOWN;
    if (c === ')') throw new Unsupported();
    if (this.masked && c === ' ') return NOTHING_KNOWN;
    return { exact: [c], needs: [c] };
  }

  private parseGroup(): Shape {
    const s = this.source;
    let lookaround = false;
    if (s.startsWith('(?:', this.at)) this.at += 3;
    else if (s.startsWith('(?=', this.at) || s.startsWith('(?!', this.at)) {
      this.at += 3;
      lookaround = true;
    } else if (s.startsWith('(?<=', this.at) || s.startsWith('(?<!', this.at)) {
      this.at += 4;
      lookaround = true;
    } else if (s.startsWith('(?<', this.at)) {
      const close = s.indexOf('>', this.at);
      if (close === -1) throw new Unsupported();
      this.at = close + 1;
    } else if (s.startsWith('(?', this.at))
      throw new Unsupported(); // modifiers and the like
    else this.at++;
    const inner = this.parseAlternation();
    if (s[this.at] !== ')') throw new Unsupported();
    this.at++;
    // A lookaround consumes nothing: what it looks at need not be next to the rest.
    return lookaround ? NOTHING_KNOWN : inner;
  }

  private parseEscape(): Shape {
    const s = this.source;
    const next = s[this.at + 1];
    if (next === undefined) throw new Unsupported();
    this.at += 2;
    if (SYNTAX.has(next) || (/[!-~]/.test(next) && !/[A-Za-z0-9]/.test(next))) {
      if (this.masked && next === ' ') return NOTHING_KNOWN;
      return { exact: [next], needs: [next] };
    }
    // Escapes that stand for something else: skip their whole length, learn nothing. An
    // escape without its expected tail (`\x` alone is an `x` outside Unicode mode) skips no
    // more, so the structure after it (a `|`, a `(`) is still read.
    const rest = s.slice(this.at);
    if (next === 'x' && /^[0-9A-Fa-f]{2}/.test(rest)) this.at += 2;
    else if (next === 'u' && /^[0-9A-Fa-f]{4}/.test(rest)) this.at += 4;
    else if (next === 'u' && this.unicode && rest.startsWith('{')) this.skipPast('}');
    else if (next === 'c' && /^[A-Za-z]/.test(rest)) this.at += 1;
    else if (next === 'k' && /^<[A-Za-z_$][\w$]*>/.test(rest)) this.skipPast('>');
    else if ((next === 'p' || next === 'P') && this.unicode && rest.startsWith('{')) this.skipPast('}');
    else if (/[0-9]/.test(next)) while (/[0-9]/.test(s[this.at] ?? '')) this.at++;
    return NOTHING_KNOWN;
  }

  private skipPast(ch: string): void {
    const at = this.source.indexOf(ch, this.at);
    if (at === -1) throw new Unsupported();
    this.at = at + 1;
  }
}
