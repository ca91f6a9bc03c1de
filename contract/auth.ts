import { z } from 'zod';
import { lineText } from './common';
import { passkeyAssertionSchema } from './passkeys';

export const regionSchema = z.object({ name: z.string(), server: z.string() });
export type Region = z.infer<typeof regionSchema>;

export const regionsResponseSchema = z.array(regionSchema);

/** POST /api/v1/login/ */
export const loginBodySchema = z.strictObject({
  username: lineText.trim().min(1).max(254),
  password: z.string().min(1).max(256),
  otp: lineText.trim().max(16).optional().nullable(),
  /**
   * A face photo: a data URL (or bare base64) of a JPEG or PNG of at most 5 MB. Required when the user
   * has an auth photo; compared with it, never stored.
   */
  photo: z.string().max(7_000_000).optional().nullable(),
  /** The region server chosen when the first answer listed several regions. */
  server: lineText.max(500).optional().nullable(),
  /** The user's passkey as the second factor, instead of `otp` (contract/passkeys.ts). */
  passkey: passkeyAssertionSchema.optional().nullable(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The user exists in several regions and no server was sent: choose one, then log in again with `server`. */
export const loginRegionChoiceSchema = z.object({ regions: z.array(regionSchema) });
export const loginSuccessSchema = z.object({
  access: z.string(),
  company_id: z.number().int(),
  server: z.string(),
  regions: z.array(regionSchema),
});
export const loginResponseSchema = z.union([loginSuccessSchema, loginRegionChoiceSchema]);
export type LoginSuccess = z.infer<typeof loginSuccessSchema>;
export type LoginRegionChoice = z.infer<typeof loginRegionChoiceSchema>;
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Claims of the access token, readable without verifying (the studio decodes them). */
export const accessTokenClaimsSchema = z.object({
  user_id: z.number().int(),
  company_id: z.number().int(),
  email: z.string(),
  is_api_user: z.boolean(),
  exp: z.number(),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/** POST /api/v2/user/socket_token */
export const socketTokenBodySchema = z.strictObject({ studio: z.literal(true) });
export const socketTokenResponseSchema = z.object({ token: z.string() });

/**
 * A 400 of the login: `{ detail }`; with "Two Factor Reset Required" also `access` (a token that may only
 * call `otp_reset` and `otp_verify` of that user, 10 minutes), the user's region `server` and `user_id`.
 */
export const loginErrorSchema = z.object({
  detail: z.string(),
  access: z.string().optional(),
  server: z.string().optional(),
  user_id: z.number().int().optional(),
  /** With "Passkey Required": whether a TOTP code is accepted instead. */
  otp: z.boolean().optional(),
});
export type LoginError = z.infer<typeof loginErrorSchema>;

/** The e-mail rule (6 to 254 characters, local part up to 64). */
export const EMAIL_MESSAGE = 'This is not a valid e-mail address.';
const emailField = lineText
  .trim()
  .min(6, EMAIL_MESSAGE)
  .max(254, EMAIL_MESSAGE)
  .regex(/^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/, EMAIL_MESSAGE);

/** POST /api/v2/user/reset_password/send and /user/email_otp/send: always 200 `{ detail }`. */
export const sendCodeBodySchema = z.strictObject({ email: emailField });
export type SendCodeBody = z.infer<typeof sendCodeBodySchema>;
export const sendCodeResponseSchema = z.object({ detail: z.string() });

/** POST /api/v2/user/reset_password/submit */
export const resetPasswordSubmitBodySchema = z.strictObject({
  email: emailField,
  otp: lineText.trim().min(1).max(16),
  new_password: lineText.min(1).max(256),
});
export type ResetPasswordSubmitBody = z.infer<typeof resetPasswordSubmitBodySchema>;
export const resetPasswordSubmitResponseSchema = z.object({ detail: z.string() });

/** POST /api/v2/user/email_otp/submit */
export const emailOtpSubmitBodySchema = z.strictObject({
  email: emailField,
  otp: lineText.trim().min(1).max(16),
});
export type EmailOtpSubmitBody = z.infer<typeof emailOtpSubmitBodySchema>;
export const emailOtpSubmitResponseSchema = z.object({ verified: z.literal(true) });

/** GET /api/dev/outbox?to= (development only): the newest e-mails to one address. */
export const devOutboxQuerySchema = z.strictObject({
  to: lineText.trim().min(1).max(254),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const devOutboxResponseSchema = z.array(
  z.object({ to: z.string(), subject: z.string(), body: z.string(), created_at: z.string() }),
);
