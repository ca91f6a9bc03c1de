/** Whether the sign-in page's query is the identity provider's answer (`state` with `code` or `error`). */
export const isSsoAnswer = (search: URLSearchParams) =>
  search.has('state') && (search.has('code') || search.has('error'));

/** Where the e-mail step stands: whether the typed address signs in with single sign-on, and how to go on. */
export interface SsoState {
  sso: boolean;
  busy: boolean;
  error: string | null;
  continue: () => void;
}

/** Before the look-up has answered: a password address. */
export const NO_SSO: SsoState = { sso: false, busy: false, error: null, continue: () => {} };
