/** What git writes to a hook's stdin (pre-push's ref lines), read whole: the handler and the start-up's clean-push check share it. */
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';

export function readStdin(): Promise<string> {
  if (isatty(0)) return Promise.resolve('');
  // A pipe or a file (what git gives a hook) is read at once: process.stdin would load the
  // stream and socket modules first, on every push.
  try {
    return Promise.resolve(readFileSync(0, 'utf8'));
  } catch {
    // a non-blocking descriptor (EAGAIN), a closed one: the stream below
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    process.stdin.on('data', (b: Buffer) => parts.push(b));
    process.stdin.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    process.stdin.on('error', reject);
  });
}
