/**
 * Where mining's output goes (./output.ts writes records into it): text batched, bytes as they
 * are, and waiting for the stream when it asks to. Apart from the records, so that a cached
 * re-run (lib/start/mine.ts) copies its file out without loading the record code.
 */
import { readSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Where text goes: batched, and waiting for the stream when it asks us to. */
export interface Sink {
  write(text: string): Promise<void>;
  /** Lines, each followed by a newline: as write(lines.join('\n') + '\n'), without making that text. */
  writeLines(lines: readonly string[]): Promise<void>;
  /** Bytes as they are (a cached run copied straight out). */
  writeBytes(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
}

/** How many bytes a sink gathers before it writes them. */
const SINK_BYTES = 1 << 16;

/**
 * A sink on a stream. Text is encoded into the bytes waiting to be written as soon as it comes:
 * a streamed history then holds no text past the batch that made it (a list of texts waiting to
 * be joined lived through several batches and was what V8 promoted to its old generation, and
 * the join was a second copy of the whole output: docs/mining.md "At history scale"). Each
 * write is whole texts, so every chunk the stream gets is valid UTF-8 by itself.
 */
export function streamSink(stream: NodeJS.WritableStream, { close = false } = {}): Sink {
  let buffer = Buffer.allocUnsafe(SINK_BYTES);
  let used = 0;
  const flush = async () => {
    if (!used) return;
    const bytes = buffer.subarray(0, used);
    // The stream may hold on to what it was given: the next bytes go into a new buffer.
    buffer = Buffer.allocUnsafe(SINK_BYTES);
    used = 0;
    await put(bytes);
  };
  const put = async (chunk: string | Buffer) => {
    if (!stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('error', fail);
          resolve();
        };
        const fail = (e: Error) => {
          stream.off('drain', done);
          reject(e);
        };
        stream.once('drain', done);
        stream.once('error', fail);
      });
    }
  };
  /** Whether `text` and `extra` bytes fit in what is left of the buffer. */
  const fits = (text: string, extra: number): boolean =>
    // A UTF-16 unit is at most three bytes of UTF-8: count them only when it may not fit.
    used + text.length * 3 + extra <= SINK_BYTES || used + Buffer.byteLength(text) + extra <= SINK_BYTES;
  const sink: Sink = {
    async write(text) {
      if (!fits(text, 0)) {
        await flush();
        if (!fits(text, 0)) return put(text);
      }
      used += buffer.write(text, used);
    },
    async writeLines(lines) {
      for (const line of lines) {
        if (!fits(line, 1)) {
          await flush();
          if (!fits(line, 1)) {
            await put(line + '\n');
            continue;
          }
        }
        used += buffer.write(line, used);
        buffer[used++] = 10;
      }
    },
    async writeBytes(bytes) {
      await flush();
      await put(bytes);
    },
    async end() {
      await flush();
      if (close) {
        await new Promise<void>((resolve, reject) => {
          stream.once('error', reject);
          stream.end(() => resolve());
        });
      }
    },
  };
  return sink;
}

/** Copies a file (an open handle) into the sink. */
export async function copyInto(sink: Sink, file: FileHandle): Promise<void> {
  const size = 1 << 20;
  for (;;) {
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await file.read(buffer, 0, size, null);
    if (!bytesRead) return;
    await sink.writeBytes(buffer.subarray(0, bytesRead));
  }
}

/**
 * Copies a file (an open handle) to a file descriptor with blocking writes: a cached re-run's
 * stdout (lib/start/mine.ts). Into a pipe that another process reads, 8 MiB took about 10 ms
 * less this way than through process.stdout, whose stream waits for the event loop whenever the
 * pipe is full (docs/mining.md "Start-up"). A descriptor that is non-blocking (EAGAIN: a stream
 * was opened on the same pipe, as `2>&1` does with stderr's) gets the rest through `fallback()`,
 * each write waited for until it is out, so that what is written after the copy (the notices
 * on stderr) still comes after it.
 */
export async function copyToFd(fd: number, file: FileHandle, fallback: () => NodeJS.WritableStream): Promise<void> {
  const size = 1 << 20;
  const buffer = Buffer.allocUnsafe(size);
  let stream: NodeJS.WritableStream | null = null;
  const out = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => stream!.write(chunk, (error) => (error ? reject(error) : resolve())));
  for (;;) {
    const bytesRead = readSync(file.fd, buffer, 0, size, null);
    if (!bytesRead) return;
    if (stream) {
      await out(buffer.subarray(0, bytesRead));
      continue;
    }
    let at = 0;
    try {
      while (at < bytesRead) at += writeSync(fd, buffer, at, bytesRead - at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      stream = fallback();
      await out(buffer.subarray(at, bytesRead));
    }
  }
}

/** Descriptors that refused a blocking write: what follows goes through their stream, in order. */
const refused = new Set<number>();

/**
 * Text to a file descriptor at once (blocking), as copyToFd writes: a cached re-run's notices
 * on stderr, without making process.stderr (a stream on a pipe costs about 1.5 ms to make).
 * From where the descriptor refuses (EAGAIN), this and every later text go through `fallback()`.
 */
export function writeToFd(fd: number, text: string, fallback: () => NodeJS.WritableStream): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  if (!refused.has(fd)) {
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      refused.add(fd);
    }
  }
  fallback().write(bytes.subarray(at));
}
