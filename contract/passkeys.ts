/**
 * Passkeys for staff: WebAuthn credentials registered in /settings, used as the second
 * factor or to sign in without a password, and required by a company when its Admin says so.
 */
import { z } from 'zod';
import { lineText } from './common';

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

const transports = z.array(z.string().max(32)).max(10);

/** The browser's answer to `navigator.credentials.create()` as JSON (WebAuthn L3 `toJSON()`). */
export const registrationResponseSchema = z.object({
  id: base64url(1_400).min(1),
  rawId: base64url(1_400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4_096),
    attestationObject: base64url(32_768),
    authenticatorData: base64url(32_768).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8_192).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** The browser's answer to `navigator.credentials.get()` as JSON. */
export const authenticationResponseSchema = z.object({
  id: base64url(1_400).min(1),
  rawId: base64url(1_400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4_096),
    authenticatorData: base64url(32_768),
    // ML-DSA signatures (COSE -48…-50, offered first by @simplewebauthn/server where the runtime has them)
    // take 2,420 to 4,627 bytes: 6,170 characters of base64url.
    signature: base64url(8_192),
    userHandle: base64url(256).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/** A challenge the server keeps (5 minutes, used once) and the options to hand to the browser. */
export const passkeyOptionsSchema = z.object({
  challenge_id: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** A signed assertion answering the challenge `challenge_id` (second factor or sign-in without password). */
export const passkeyAssertionSchema = z.strictObject({
  challenge_id: lineText.max(64),
  response: authenticationResponseSchema,
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** POST /api/v1/login/passkey: sign in with a passkey alone (a face photo too when the user has one). */
export const passkeyLoginBodySchema = passkeyAssertionSchema.extend({
  photo: z.string().max(7_000_000).optional().nullable(),
});
export type PasskeyLoginBody = z.infer<typeof passkeyLoginBodySchema>;

export const MAX_PASSKEY_NAME = 60;
/** A passkey's name: trimmed, 1 to 60 characters, no control characters. */
export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_PASSKEY_NAME)
  .regex(/^[^\p{Cc}]*$/u, 'No control characters');

/** POST /api/v2/passkeys: stores the new passkey once the account password and the attestation check out. */
export const passkeyRegisterBodySchema = z.strictObject({
  challenge_id: lineText.max(64),
  name: passkeyNameSchema,
  password: z.string().min(1).max(256),
  response: registrationResponseSchema,
});
export type PasskeyRegisterBody = z.infer<typeof passkeyRegisterBodySchema>;

/** DELETE /api/v2/passkeys/{id}: the account password confirms it. */
export const passkeyDeleteBodySchema = z.strictObject({ password: z.string().min(1).max(256) });

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The host name the passkey works on (its relying party). */
  rp_id: z.string(),
  /** `multiDevice`: synced (backed up) passkey; `singleDevice`: bound to one authenticator. */
  device_type: z.enum(['singleDevice', 'multiDevice']),
  backed_up: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET/PUT /api/v2/company/passkeys: whether the company's staff must sign in with a passkey. */
export const passkeyPolicySchema = z.object({ require_passkeys: z.boolean() });
export const passkeyPolicyBodySchema = z.strictObject({
  require_passkeys: z.boolean(),
  password: z.string().min(1).max(256),
});
export type PasskeyPolicy = z.infer<typeof passkeyPolicySchema>;

/** 400 details of the passkey paths (the studio branches on them). */
export const PASSKEY_DETAILS = {
  /** The login needs the user's passkey (`otp: true`: a TOTP code is accepted instead). */
  required: 'Passkey Required',
  /** The company requires passkeys and the user has none: register one with the restricted `access`. */
  registrationRequired: 'Passkey Registration Required',
  /** The assertion or attestation did not verify, or the challenge was unknown, used or expired. */
  notAccepted: 'Passkey Not Accepted',
  /** The page's origin is not a studio address, or it is an IP address (WebAuthn needs a domain name). */
  unavailable: 'Passkeys are not available on this address',
  /** An Admin cannot require passkeys without one of their own. */
  adminHasNone: 'Register a passkey for yourself first',
} as const;
