// Without zod (docs/decisions/0014-contract-constants-without-zod.md): the studio's HTTP client and sign-in page read these, and both are in the first load.

/**
 * Why a session ended: the 401 `detail` a token of an ended session gets, so the studio can say on
 * the sign-in page what happened and what to do. Other 401s keep their own details.
 */
export const SESSION_END_DETAILS = {
  disabled: 'Your account has been disabled. Contact your administrator.',
  password_changed: 'Your password was changed. Sign in with the new password.',
  password_reset_required: 'An administrator asked you to choose a new password. Sign in to set it.',
  signed_out: 'This session was signed out from another device. Sign in again.',
  expired: 'Your session expired. Sign in again.',
  logged_out: 'This session was logged out. Sign in again.',
} as const;
export type SessionEndReason = keyof typeof SESSION_END_DETAILS;
export const SESSION_END_REASONS = Object.keys(SESSION_END_DETAILS) as SessionEndReason[];

/** The reason of a 401 detail, or null for any other detail. */
export const sessionEndReasonOf = (detail: string | null | undefined): SessionEndReason | null =>
  SESSION_END_REASONS.find((reason) => SESSION_END_DETAILS[reason] === detail) ?? null;

/** The sign-in answer (400) to a disabled user who gave the right password (a wrong one stays Invalid Credentials). */
export const ACCOUNT_DISABLED_DETAIL = 'Your account is disabled. Contact your administrator.';
