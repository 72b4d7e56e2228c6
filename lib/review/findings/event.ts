/** The event is mechanical (docs/review.md): it follows from the counted findings alone. */
import { BLOCKING_SEVERITIES, type Severity } from '../../core/vocabulary.js';
import type { Finding, ReviewEvent } from '../types.js';

export function isBlocking(severity: Severity, softTests: boolean): boolean {
  return BLOCKING_SEVERITIES.includes(severity) || (severity === 'test' && !softTests);
}

/** Whether a counted finding blocks: a blocking severity, unless calibration demoted its rule (then at most COMMENT). */
export function blocks(f: Pick<Finding, 'severity' | 'calibration'>, softTests: boolean): boolean {
  return !f.calibration && isBlocking(f.severity, softTests);
}

export function computeEvent(
  counted: readonly Pick<Finding, 'severity' | 'calibration'>[],
  softTests: boolean,
): ReviewEvent {
  if (counted.length === 0) return 'APPROVE';
  return counted.some((f) => blocks(f, softTests)) ? 'REQUEST_CHANGES' : 'COMMENT';
}
