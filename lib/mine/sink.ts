/**
 * Where mining's output goes (./output.ts writes records into it): text batched, bytes as they
 * are, and waiting for the stream when it asks to. Apart from the records, so that a cached
 * re-run (lib/cli/mine-fast.ts) copies its file out without loading the record code.
 */
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
