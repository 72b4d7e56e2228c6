/** The event is mechanical (SPEC §4): it follows from the counted findings alone. */
import { BLOCKING_SEVERITIES, type Severity } from '../core/vocabulary.js';
import type { Finding, ReviewEvent } from './types.js';

export function isBlocking(severity: Severity, softTests: boolean): boolean {
  return BLOCKING_SEVERITIES.includes(severity) || (severity === 'test' && !softTests);
}

export function computeEvent(counted: readonly Pick<Finding, 'severity'>[], softTests: boolean): ReviewEvent {
  if (counted.length === 0) return 'APPROVE';
  return counted.some((f) => isBlocking(f.severity, softTests)) ? 'REQUEST_CHANGES' : 'COMMENT';
}
