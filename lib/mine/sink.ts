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
  /** Bytes as they are (a cached run copied straight out). */
  writeBytes(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
}

export function streamSink(stream: NodeJS.WritableStream, { close = false } = {}): Sink {
  let buffer: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!size) return;
    const text = buffer.join('');
    buffer = [];
    size = 0;
    await put(text);
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
  return {
    async write(text) {
      buffer.push(text);
      size += text.length;
      if (size >= 1 << 16) await flush();
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
