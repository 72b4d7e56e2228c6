/**
 * The model reviewer (docs/model.md): an OpenAI-compatible chat completions
 * server on this machine (llama.cpp's llama-server, Ollama, vLLM, LM Studio), asked once per
 * chunk and held to the same finding contract as a reviewer program (../program/reviewer.ts
 * askWith: citations of selected documents, added lines only, one re-ask, minConfidence).
 *
 * Bounded: the whole review spends at most `timeoutMs` on the model; after the first failure
 * (down, slow, garbage) it is not asked again in this review, with one warning line, and the
 * rules and the baseline decide. Answers are cached in the git common dir by the exact request
 * (chunk, documents, model, prompt version), so the push after a reviewed commit asks nothing.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChunkSelection } from '../../select/types.js';
import { askWith, type ReviewerChunkResult, type ReviewerInput, type ReviewerTransport } from '../program/reviewer.js';
import { findingJsonSchema } from '../findings/index.js';
import { writeFileAtomic } from '../../core/fs/atomic.js';
import { ensureDir } from '../../core/fs/storage.js';
import { answerSchema, chatMessages, PROMPT_VERSION } from './prompt.js';
import { answerOf, postChat } from './http.js';
import { modelRuleSource } from './rule-source.js';
import { reviewMessages as m } from '../../messages/review.js';

export interface ModelSettings {
  /** The chat completions URL. */
  url: string;
  model: string;
  timeoutMs: number;
  maxConcurrency: number;
  /** From the person's environment (REVTRAIL_MODEL_API_KEY), never from the repository. */
  apiKey?: string;
  /** Where answers are cached; null: not cached (outside a repository). */
  cacheDir: string | null;
}

/** One review's use of the model: its deadline, and whether it was stopped by a failure. */
export interface ModelRun {
  settings: ModelSettings;
  deadline: number;
  stopped: boolean;
  /** Requests sent and answers taken from the cache in this review (bench, tests). */
  asked: number;
  cached: number;
}

export function startModelRun(settings: ModelSettings): ModelRun {
  return { settings, deadline: Date.now() + settings.timeoutMs, stopped: false, asked: 0, cached: 0 };
}

const MAX_CACHED_BYTES = 1024 * 1024;

function cacheFile(dir: string, body: unknown): string {
  return join(dir, `${createHash('sha256').update(JSON.stringify(body)).digest('hex')}.json`);
}

function readCached(file: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { prompt?: unknown; content?: unknown };
    return value.prompt === PROMPT_VERSION && typeof value.content === 'string' ? value.content : undefined;
  } catch {
    return undefined;
  }
}

async function saveCached(dir: string, file: string, content: string): Promise<void> {
  if (content.length > MAX_CACHED_BYTES) return;
  try {
    await ensureDir(dir);
    await writeFileAtomic(file, JSON.stringify({ prompt: PROMPT_VERSION, content }));
  } catch {
    // A cache that cannot be written only means asking again next time.
  }
}

function transport(run: ModelRun): ReviewerTransport {
  const { settings } = run;
  const schema = answerSchema(findingJsonSchema());
  let previous: string | undefined;
  return {
    async ask(input: ReviewerInput) {
      const body = {
        model: settings.model,
        messages: chatMessages(input, schema, previous),
        temperature: 0,
        stream: false,
        response_format: { type: 'json_schema', json_schema: { name: 'revtrail_review', strict: true, schema } },
      };
      const file =
        settings.cacheDir === null
          ? null
          : cacheFile(settings.cacheDir, { v: PROMPT_VERSION, url: settings.url, body });
      let content = file ? readCached(file) : undefined;
      if (content !== undefined) run.cached++;
      else {
        run.asked++;
        const answer = await postChat(settings.url, body, { deadline: run.deadline, apiKey: settings.apiKey });
        if (!answer.ok) return answer;
        content = answer.content;
        const parsed = answerOf(content);
        if (parsed.ok && file) await saveCached(settings.cacheDir!, file, content);
        previous = content;
        return parsed;
      }
      previous = content;
      return answerOf(content);
    },
    prepare(item: unknown) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
      const { rule, rule_source: _ignored, ...rest } = item as Record<string, unknown>;
      return { ...rest, rule_source: modelRuleSource(settings.model, rule, rest.citations) };
    },
    failed: (where, kind, detail, round) => m.modelFailed(settings.model, where, kind, detail, round),
  };
}

const EMPTY: ReviewerChunkResult = { summary: null, drafts: [], dropped: [], warnings: [], failure: null };

/**
 * Starts asking about every selection, at most `maxConcurrency` at once, in order; each result is
 * awaited by the pipeline when it reaches that chunk. After the first failure the rest are not
 * asked (their results are empty) and only that failure's warning is kept.
 */
export function askModel(
  run: ModelRun,
  selections: readonly ChunkSelection[],
  minConfidence: number,
): Map<ChunkSelection, Promise<ReviewerChunkResult>> {
  const results = new Map<ChunkSelection, Promise<ReviewerChunkResult>>();
  const queue = selections.map((selection) => {
    let resolve!: (r: ReviewerChunkResult) => void;
    results.set(selection, new Promise((r) => (resolve = r)));
    return { selection, resolve };
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const { selection, resolve } = queue[next++]!;
      if (run.stopped) {
        resolve(EMPTY);
        continue;
      }
      const result = await askWith(transport(run), selection, { minConfidence }).catch(
        (error: unknown): ReviewerChunkResult => ({
          ...EMPTY,
          failure: {
            kind: 'crash',
            message: m.modelFailed(run.settings.model, selection.chunk.path, 'crash', String(error), 1),
          },
        }),
      );
      if (result.failure) {
        // One warning for the review: the first failure stops the model, later ones are not news.
        const first = !run.stopped;
        run.stopped = true;
        resolve(
          first
            ? { ...result, warnings: [...result.warnings, m.modelStopped(run.settings.model)] }
            : { ...result, warnings: [] },
        );
      } else resolve(result);
    }
  };
  for (let i = 0; i < Math.min(run.settings.maxConcurrency, queue.length); i++) void worker();
  return results;
}
