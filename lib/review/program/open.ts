/**
 * The reviewer program's entry in the reviewers' table (../reviewers.ts). One typed on the
 * command line is the person's own choice and runs; one from the repository's configuration runs
 * only once the person trusted that exact command for this clone (`revtrail trust`,
 * docs/trust.md), else one warning line says how and the review goes on with the rules.
 */
import { relative } from 'node:path';
import { commandLabel } from '../../core/output.js';
import { RevtrailError } from '../../core/errors.js';
import { reviewMessages as m } from '../../messages/review.js';
import type { ReviewerOpening, ReviewerRun } from '../reviewers.js';
import { askReviewer, type FailureKind } from './reviewer.js';
import { trustState } from '../../config/trust.js';

export interface ReviewerSettings {
  argv: string[];
  timeoutMs: number;
  required: boolean;
  /** How warnings name the program (its command line). */
  label: string;
}

/** Failures after which asking about further chunks is pointless. */
const STOPS_REVIEWER: readonly FailureKind[] = ['missing', 'not-executable', 'spawn', 'timeout'];

export async function openProgram({
  session,
  options,
  warnings,
  minConfidence,
}: ReviewerOpening): Promise<ReviewerRun | null> {
  if (options.program === false) return null;
  const argv = options.reviewer === false ? undefined : (options.reviewer ?? session.config.reviewer.command);
  if (!argv || argv.length === 0) return null;
  const label = commandLabel(argv);
  if (options.reviewer === undefined) {
    const trust =
      session.commonDir === null ? { state: 'untrusted' as const } : await trustState(session.commonDir, argv);
    if (trust.state === 'untrusted' && trust.problem) warnings.push(trust.problem);
    if (trust.state !== 'trusted') {
      const where = session.configFile
        ? relative(session.top, session.configFile.replace(/#revtrail$/, '')) || session.configFile
        : null;
      warnings.push(
        session.commonDir === null
          ? m.reviewerOutsideRepo(label)
          : m.reviewerNotTrusted(label, where, trust.state === 'changed'),
      );
      return null;
    }
  }
  const { timeoutMs, required } = session.config.reviewer;
  return programRun({ argv, timeoutMs, required, label }, session.top, minConfidence);
}

/** The program asked about one chunk at a time, in the pipeline's order, from `cwd`. */
export function programRun(settings: ReviewerSettings, cwd: string, minConfidence: number): ReviewerRun {
  let stopped = false;
  return {
    answer(selection) {
      if (stopped) return null;
      return (async () => {
        const asked = await askReviewer(settings.argv, selection, {
          cwd,
          timeoutMs: settings.timeoutMs,
          minConfidence,
          label: settings.label,
        });
        if (asked.failure && settings.required) {
          throw new RevtrailError(m.reviewerRequired(settings.label), {
            exitCode: 2,
            remedy: `${asked.failure.message}. ${m.reviewerRequiredRemedy}`,
          });
        }
        if (asked.failure && STOPS_REVIEWER.includes(asked.failure.kind)) {
          stopped = true;
          return { ...asked, stopped: m.reviewerStopped(settings.label) };
        }
        return asked;
      })();
    },
  };
}
