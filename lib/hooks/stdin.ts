/**
 * What git writes to a hook's stdin (pre-push's ref lines), read whole: the handler and the
 * start-up's clean-push check share it. node:tty (which loads net) is asked only when stdin is
 * neither a pipe nor a file: the start-up of every hook loads this module.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { tty } from '../core/node-module.js';

export async function readStdin(): Promise<string> {
  let piped = false;
  try {
    const stats = fstatSync(0);
    piped = stats.isFIFO() || stats.isFile();
  } catch {
    // no stdin at all: as a terminal, nothing to read
  }
  if (!piped && tty().isatty(0)) return '';
  // A pipe or a file (what git gives a hook) is read at once: process.stdin would load the
  // stream and socket modules first, on every push.
  try {
    return readFileSync(0, 'utf8');
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
