/**
 * The model reviewer's entry in the reviewers' table (../reviewers.ts; docs/model.md): a
 * loopback endpoint is asked; any other host only once the person trusted that exact endpoint
 * for this clone. Every chunk is asked up front (maxConcurrency at once) and each answer taken
 * in the pipeline's order.
 */
import { modelCacheDir } from '../../core/state.js';
import { reviewMessages as m } from '../../messages/review.js';
import type { ReviewerOpening, ReviewerRun } from '../reviewers.js';
import { endpointTrusted } from '../../config/trust.js';
import { checkEndpoint, chatCompletionsUrl, loopbackTarget } from './endpoint.js';
import { askModel, startModelRun } from './index.js';

export async function openModel({
  session,
  options,
  warnings,
  minConfidence,
}: ReviewerOpening): Promise<ReviewerRun | null> {
  const settings = session.config.reviewer.model;
  if (!settings || options.reviewer === false || options.model === false) return null;
  const checked = checkEndpoint(settings.endpoint);
  if (!checked.ok) {
    warnings.push(m.modelBadEndpoint(settings.endpoint, checked.why));
    return null;
  }
  // On this machine: the address checked is where the request goes (a name resolved once, here).
  const local = await loopbackTarget(checked);
  if (!local) {
    if (session.commonDir === null) {
      warnings.push(m.modelOutsideRepo(settings.endpoint));
      return null;
    }
    if (!(await endpointTrusted(session.commonDir, settings.endpoint))) {
      warnings.push(m.modelNotTrusted(settings.endpoint));
      return null;
    }
  }
  const run = startModelRun({
    url: chatCompletionsUrl(local ?? checked.url),
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    maxConcurrency: settings.maxConcurrency,
    apiKey: process.env.REVTRAIL_MODEL_API_KEY || undefined,
    cacheDir: session.commonDir === null ? null : modelCacheDir(session.commonDir),
  });
  let answers: ReturnType<typeof askModel> | undefined;
  return {
    start(selections) {
      answers = askModel(run, selections, minConfidence);
    },
    answer(selection) {
      return answers?.get(selection) ?? null;
    },
  };
}
