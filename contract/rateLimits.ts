/**
 * The details of the 429 answers of rate-limited routes (docs/decisions/0198-rate-limits-and-evidence-roles.md):
 * each answer also carries `Retry-After` and `retry_after`, the seconds to wait.
 */
export const PASSKEY_TOO_FAST = 'Too many passkey sign-in requests, try again later';
export const EVIDENCE_TOO_FAST = 'Too many evidence packages, try again later';
export const REPORTS_TOO_FAST = 'Too many reports, try again later';
export const OUTSIDE_CALLS_TOO_FAST = 'Too many requests to outside services, try again later';
export const WHISPERS_TOO_FAST = 'Too many whispers, try again later';
