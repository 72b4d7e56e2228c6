/** Terminal output: colour only on a TTY and never with NO_COLOR (docs/cli.md). */

/** Where a command runs and writes: the CLI and the hooks take it, tests pass their own. */
export interface CliContext {
  cwd: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
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
