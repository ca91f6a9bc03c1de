/**
 * The refusals of single sign-on and SCIM, apart from their schemas: the sign-in page compares them without
 * loading zod before anyone has signed in.
 */
/** A password sign-in refused because the company signs in with single sign-on only. */
export const SSO_PASSWORD_OFF =
  'Your company signs in with single sign-on only. Continue with your company account.';

/** One text each, compared by the studio and listed in docs/product/errors.md. */
export const SSO_DETAILS = {
  notConfigured: 'Single sign-on is not set up for this e-mail address',
  passwordOff: SSO_PASSWORD_OFF,
  stateInvalid: 'This sign-in is unknown, expired or already used. Start again.',
  providerRefused: 'The identity provider refused the sign-in',
  providerUnreachable: 'The identity provider could not be reached',
  wrongIssuer: 'The ID token comes from another identity provider',
  wrongAudience: 'The ID token was issued for another application',
  tokenExpired: 'The ID token has expired',
  badSignature: "The ID token is not signed by the identity provider's keys",
  nonceMismatch: 'The ID token does not belong to this sign-in',
  tokenInvalid: 'The ID token failed validation',
  emailMissing: 'The identity provider sent no verified e-mail address',
  emailOutsideDomains: "The e-mail address is outside the company's single sign-on domains",
  duplicateDomain: 'Another company already signs in with this domain',
  secretRequired: 'A client secret is required',
  breakGlassRequired: 'Name at least one enabled Admin as a break-glass account before turning on SSO only',
  breakGlassUnknown: 'A break-glass account must be an enabled Admin of the company',
  scimTokenInvalid: 'The SCIM token is invalid',
} as const;
export type SsoDetail = (typeof SSO_DETAILS)[keyof typeof SSO_DETAILS];
