/**
 * One chat completions request (docs/model.md): bounded in time (the review's
 * remaining model budget) and size (MAX_ANSWER_BYTES, then the connection is dropped), plain or
 * streamed (server-sent events), and its answer reduced to `{summary, findings}` or a failure of
 * the kinds every reviewer has. Never throws.
 */
import type { FailureKind, ProgramOutcome } from '../program/reviewer.js';

export const MAX_ANSWER_BYTES = 1024 * 1024;

export type HttpOutcome = { ok: true; content: string } | { ok: false; kind: FailureKind; detail: string };

export interface PostOptions {
  /** Epoch ms after which the request is abandoned. */
  deadline: number;
  maxBytes?: number;
  apiKey?: string;
}

function failureOf(error: unknown, timedOut: boolean, cap: number, tooLarge: boolean): HttpOutcome {
  if (tooLarge) return { ok: false, kind: 'too-large', detail: `more than ${cap} bytes` };
  if (timedOut) return { ok: false, kind: 'timeout', detail: 'no answer in time' };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as NodeJS.ErrnoException).code;
  return { ok: false, kind: 'unreachable', detail: code ?? cause?.message ?? (error as Error).message };
}

export async function postChat(url: string, body: unknown, options: PostOptions): Promise<HttpOutcome> {
  const cap = options.maxBytes ?? MAX_ANSWER_BYTES;
  const remaining = options.deadline - Date.now();
  if (remaining <= 0) return { ok: false, kind: 'timeout', detail: 'the model budget of this review is spent' };
  const controller = new AbortController();
  let timedOut = false;
  let tooLarge = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, remaining);
  try {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: controller.signal,
      redirect: 'error',
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        tooLarge = true;
        controller.abort();
        break;
      }
      chunks.push(value);
    }
    if (tooLarge) return failureOf(null, false, cap, true);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!response.ok) {
      const shown = text.trim().slice(0, 80).replace(/\s+/g, ' ');
      return { ok: false, kind: 'crash', detail: `HTTP ${response.status}${shown ? `: ${shown}` : ''}` };
    }
    const streamed =
      (response.headers.get('content-type') ?? '').includes('text/event-stream') || /^data:/m.test(text.slice(0, 200));
    return streamed ? streamedContent(text) : plainContent(text);
  } catch (error) {
    return failureOf(error, timedOut, cap, tooLarge);
  } finally {
    clearTimeout(timer);
  }
}

function plainContent(text: string): HttpOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, kind: 'garbage', detail: 'the response is not JSON' };
  }
  const content = (value as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    return { ok: false, kind: 'garbage', detail: 'no choices[0].message.content in the response' };
  return { ok: true, content };
}

/** Server-sent events: the `delta.content` of each `data:` line, until `[DONE]`. */
function streamedContent(text: string): HttpOutcome {
  let content = '';
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') break;
    try {
      const delta = (JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown } }> }).choices?.[0]?.delta
        ?.content;
      if (typeof delta === 'string') content += delta;
    } catch {
      return { ok: false, kind: 'garbage', detail: 'a streamed event is not JSON' };
    }
  }
  return { ok: true, content };
}

/** The model's message as `{summary, findings}`; a fenced ```json block is accepted (servers that ignore response_format). */
export function answerOf(content: string): ProgramOutcome {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(content);
  let value: unknown;
  try {
    value = JSON.parse(fenced ? fenced[1]! : content);
  } catch {
    const shown = content.trim().slice(0, 60).replace(/\s+/g, ' ');
    return { ok: false, kind: 'garbage', detail: shown ? `not JSON: "${shown}"` : 'an empty answer' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, kind: 'garbage', detail: 'not a JSON object {summary, findings}' };
  const { summary, findings } = value as { summary?: unknown; findings?: unknown };
  if (!Array.isArray(findings)) return { ok: false, kind: 'garbage', detail: '"findings" is not an array' };
  return { ok: true, summary: typeof summary === 'string' ? summary : '', findings };
}
