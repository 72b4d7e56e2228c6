/**
 * One `git cat-file --batch` kept open for many questions (docs/mining.md "Backtest"): a history
 * replay asks for a few files of each of thousands of commits, and a process per commit would
 * cost more than the review. Questions are answered in the order asked; a name git does not
 * have is null. Started through the runner's fixed environment (./run.ts).
 */
import { spawnGit } from './run.js';
import { catFileSession } from './commands/objects.js';
import type { CatFileObject } from './commands/parse.js';

export class CatFileSession {
  private readonly child: ReturnType<typeof spawnGit>;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Array<(object: CatFileObject | null) => void> = [];
  private failure: Error | null = null;

  constructor(cwd: string) {
    // An input that never settles (the command's): stdin is a pipe the runner leaves open, and
    // this session writes its questions into it.
    this.child = spawnGit(catFileSession(), { cwd });
    this.child.stderr!.resume();
    this.child.stdout!.on('data', (b: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, b]) : b;
      this.drain();
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const give of this.waiting.splice(0)) give(null);
    };
    this.child.on('error', fail);
    this.child.on('close', () => fail(new Error('git cat-file ended')));
  }

  /** The object `name` names (an oid, `commit:path`), or null. */
  read(name: string): Promise<CatFileObject | null> {
    if (this.failure || /[\r\n]/.test(name)) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin!.write(`${name}\n`);
    });
  }

  close(): void {
    this.child.stdin!.end();
  }

  private drain(): void {
    while (this.waiting.length) {
      const eol = this.buffer.indexOf(0x0a);
      if (eol === -1) return;
      const header = /^[0-9a-f]+ (\S+) (\d+)$/.exec(this.buffer.subarray(0, eol).toString('utf8'));
      if (!header) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.waiting.shift()!(null);
        continue;
      }
      const size = Number(header[2]);
      if (this.buffer.length < eol + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(eol + 1, eol + 1 + size));
      this.buffer = this.buffer.subarray(eol + 1 + size + 1);
      this.waiting.shift()!({ type: header[1]!, content });
    }
  }
}
