/** Terminal output: colour only on a TTY and never with NO_COLOR (docs/cli.md). */

/** Where a command runs and writes: the CLI and the hooks take it, tests pass their own. */
export interface CliContext {
  cwd: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * Colour on a TTY (not TERM=dumb), or wherever FORCE_COLOR asks for it (CI logs render colour);
 * NO_COLOR always wins. FORCE_COLOR `0` or `false` turns colour off, as Node reads it.
 */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  const env = process.env;
  if ('NO_COLOR' in env) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function paint(enabled: boolean = useColor()): Paint {
  if (!enabled) return { red: plain, yellow: plain, green: plain, dim: plain, bold: plain };
  return { red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

/** Between two plain progress lines when the stream is not a terminal (a CI log: docs/cli.md). */
const PLAIN_EVERY_MS = 5000;

/**
 * The interval of plain progress lines: REVTRAIL_PROGRESS_EVERY_MS, a test knob (docs/hooks.md
 * "Push"), so that a test sees them without work that takes seconds; else every five seconds.
 */
export function plainLineEvery(): number {
  const given = Number(process.env.REVTRAIL_PROGRESS_EVERY_MS);
  return Number.isFinite(given) && given > 0 ? given : PLAIN_EVERY_MS;
}

/** Progress for long work: stderr, TTY only, one overwritten line. */
export function progress(stream: NodeJS.WriteStream = process.stderr): { update(text: string): void; done(): void } {
  if (!stream.isTTY) return { update() {}, done() {} };
  let shown = false;
  return {
    update(text) {
      stream.write(`\r\x1b[K${text}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

// C0 controls but tab, DEL, C1 controls, and the bidirectional overrides and isolates that can
// make text read differently from what it is (docs/trust.md, "What reaches the terminal").
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\x1b': '\\e' };

/**
 * Text from repositories (paths, trailers, titles, bundle content, program output) made safe
 * for a terminal: every control character becomes a visible escape (`\e`, `\n`, `\x07`,
 * `\u202e`), so an ESC sequence in a file name cannot recolour, move or hide output. Every
 * text output runs what it did not write itself through this. `keepNewlines` is for text made
 * of several lines (a whole message): its line breaks stay, every other control is escaped.
 */
export function escapeControl(text: string, options: { keepNewlines?: boolean } = {}): string {
  const pattern = options.keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL;
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  return text.replace(pattern, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

// What JSON.stringify leaves raw that a terminal may act on: DEL, C1, bidirectional controls.
const JSON_RAW_CONTROL = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the controls JSON.stringify leaves raw written as `\uXXXX` escapes: the same
 * JSON to a parser, and nothing a terminal acts on when it is printed (docs/trust.md, "What
 * reaches the terminal"). They can only occur inside strings, where an escape means the same.
 */
export function jsonForTerminal(text: string): string {
  JSON_RAW_CONTROL.lastIndex = 0;
  if (!JSON_RAW_CONTROL.test(text)) return text;
  return text.replace(JSON_RAW_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One shell word that pastes as itself: plain words stay, anything else goes in single quotes
 * (inside double quotes a backtick or `$(` would run a command).
 */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command as a person would type it (words with spaces, quotes or backslashes quoted), escaped. */
export function commandLabel(argv: readonly string[]): string {
  return escapeControl(argv.map((a) => (a === '' || /[\s"'\\$`]/.test(a) ? JSON.stringify(a) : a)).join(' '));
}
