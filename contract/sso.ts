/**
 * Enterprise sign-in: a company's OpenID Connect single sign-on (its identity provider, the e-mail domains it
 * covers, how the provider's groups map to roles and groups, SSO only with break-glass accounts) and its SCIM 2.0
 * provisioning token. docs/operators/sso.md explains the set-up.
 */
import { z } from 'zod';
import { lineText } from './common';
import { ROLES } from './constants';

export { SSO_DETAILS, type SsoDetail } from './ssoDetails';

/** A lower-case e-mail domain (`bank.example`). */
const domain = lineText
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, {
    message: 'This is not a valid domain',
  });

/** One rule: members of the provider's group `claim` get `role` (the highest rule wins) and join `group_id`. */
export const ssoMappingSchema = z.strictObject({
  claim: lineText.trim().min(1).max(256),
  role: z.enum(ROLES).nullable().default(null),
  group_id: z.number().int().positive().max(2_147_483_647).nullable().default(null),
});
export type SsoMapping = z.infer<typeof ssoMappingSchema>;

/** GET /api/v2/company/sso: the company's configuration; the secret is never sent back. */
export const ssoConfigSchema = z.object({
  enabled: z.boolean(),
  issuer: z.string(),
  client_id: z.string(),
  /** A secret is stored (sealed); it is shown only when typed. */
  client_secret_set: z.boolean(),
  domains: z.array(z.string()),
  groups_claim: z.string(),
  /** The role of a user none of whose groups maps to a role. */
  default_role: z.enum(ROLES),
  mappings: z.array(ssoMappingSchema),
  sso_only: z.boolean(),
  break_glass_user_ids: z.array(z.number().int()),
  /** Where the provider sends the browser back (register it with the provider). */
  redirect_uri: z.string(),
  /** A SCIM token exists (it is shown once, when rotated). */
  scim_token_set: z.boolean(),
  /** The SCIM base address for the provider's provisioning. */
  scim_base_url: z.string(),
});
export type SsoConfig = z.infer<typeof ssoConfigSchema>;

/** PUT /api/v2/company/sso. Without `client_secret` the stored one is kept. */
export const ssoConfigBodySchema = z.strictObject({
  enabled: z.boolean(),
  issuer: lineText
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/, { message: 'Please type a valid url' }),
  client_id: lineText.trim().min(1).max(256),
  client_secret: lineText.min(1).max(1024).optional(),
  domains: z.array(domain).min(1).max(50),
  groups_claim: lineText.trim().min(1).max(100).default('groups'),
  default_role: z.enum(ROLES).default('Restricted User'),
  mappings: z.array(ssoMappingSchema).max(100).default([]),
  sso_only: z.boolean().default(false),
  break_glass_user_ids: z.array(z.number().int().positive().max(2_147_483_647)).max(20).default([]),
});
export type SsoConfigBody = z.input<typeof ssoConfigBodySchema>;

/** POST /api/v2/company/sso/test: what discovery found, or why it failed. */
export const ssoTestReportSchema = z.object({
  ok: z.boolean(),
  issuer: z.string().nullable(),
  authorization_endpoint: z.string().nullable(),
  token_endpoint: z.string().nullable(),
  jwks_uri: z.string().nullable(),
  end_session_endpoint: z.string().nullable(),
  /** Keys the provider publishes to sign ID tokens. */
  keys: z.number().int(),
  code_challenge_methods: z.array(z.string()),
  /** Why not, in words (null when ok). */
  problem: z.string().nullable(),
});
export type SsoTestReport = z.infer<typeof ssoTestReportSchema>;

/** POST /api/v2/sso/start: the e-mail address decides the company and its provider. */
export const ssoStartBodySchema = z.strictObject({
  email: lineText.trim().min(3).max(254),
  /** The studio page to come back to (a path of the studio only). */
  return_to: lineText
    .max(500)
    .regex(/^\/(?!\/)/)
    .optional(),
  /** Only say whether the address signs in with SSO (the sign-in page asks while the e-mail is typed). */
  check_only: z.boolean().optional(),
});
export const ssoStartResponseSchema = z.object({
  sso: z.boolean(),
  /** Where to send the browser (only with `sso: true`). */
  authorization_url: z.string().optional(),
});
export type SsoStartResponse = z.infer<typeof ssoStartResponseSchema>;

/** POST /api/v2/sso/callback: the query the provider sent the browser back with. */
export const ssoCallbackBodySchema = z.strictObject({
  state: lineText.min(1).max(200),
  code: lineText.min(1).max(2000).optional(),
  error: lineText.max(200).optional(),
  error_description: lineText.max(1000).optional(),
  iss: lineText.max(500).optional(),
});
export type SsoCallbackBody = z.infer<typeof ssoCallbackBodySchema>;
export const ssoCallbackResponseSchema = z.object({
  access: z.string(),
  company_id: z.number().int(),
  server: z.string(),
  regions: z.array(z.object({ name: z.string(), server: z.string() })),
  return_to: z.string().nullable(),
});
export type SsoCallbackResponse = z.infer<typeof ssoCallbackResponseSchema>;

/** POST /api/v2/sso/logout: the provider's end-session address for the caller's SSO session, if it has one. */
export const ssoLogoutResponseSchema = z.object({ logout_url: z.string().nullable() });

/** POST /api/v2/company/scim/token: the new token, shown this once. */
export const scimTokenSchema = z.object({ token: z.string() });
