/**
 * Self-service account creation (stp/register, email_otp, stp/company): the
 * package → services table, and the request and answer shapes shared by the studio and the server. The
 * password rule is passwords.ts.
 */
import { z } from 'zod';
import { emailOtpSubmitBodySchema, loginSuccessSchema } from './auth';
import { idSchema, lineText } from './common';
import type { Service } from './constants';

// ---------------------------------------------------------------- packages and their services

/**
 * A package that names no services (`services` null, e.g. the custom-priced one) gives the new company only
 * this; otherwise the company's config gets the package's services (docs/product/roles.md#services).
 */
export const BASE_SERVICES: readonly Service[] = ['verification'];

/** From this many verifications the price is agreed (custom price). */
export const CUSTOM_PRICE_FROM_VERIFICATIONS = 1000;

// ---------------------------------------------------------------- requests and answers

const trimmed = (max: number) => lineText.trim().min(1, 'This field can not be empty.').max(max);

/** POST /api/v2/stp/register */
export const registerBodySchema = z.strictObject({
  email: lineText
    .trim()
    .min(6)
    .max(254)
    .regex(/^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/, 'This is not a valid e-mail address.'),
  password: lineText.min(1).max(256),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;
/**
 * `signup`: the handle of this registration. Only its registrant has it; POST
 * /user/email_otp/submit needs it with the code to give the sign-up token of this registration's password.
 */
export const registerResponseSchema = z.object({ detail: z.string(), signup: z.string() });

/** POST /api/v2/user/email_otp/submit: the code, and for a sign-up the registration's handle. */
export const emailVerifyBodySchema = emailOtpSubmitBodySchema.extend({
  signup: z.string().trim().min(1).max(100).optional(),
});

/**
 * POST /api/v2/user/email_otp/submit answers `verified`, and for an address with a pending sign-up either the
 * short-lived `signup_token` that POST /stp/company needs, or `already_registered` when the (now proven) owner
 * of the address already has an account: only the owner learns it.
 */
export const emailVerifiedSchema = z.object({
  verified: z.literal(true),
  signup_token: z.string().optional(),
  already_registered: z.boolean().optional(),
});
export type EmailVerified = z.infer<typeof emailVerifiedSchema>;

/** POST /api/v2/stp/company (bearer: the sign-up token). */
export const companyBodySchema = z.strictObject({
  company_name: trimmed(200),
  package: idSchema,
  first_name: trimmed(100),
  last_name: trimmed(100),
  phone: lineText
    .trim()
    .min(1, 'This field can not be empty.')
    .max(32)
    .regex(/^\+?[0-9 ()-]{5,31}$/, 'This is not a valid phone number.'),
  industry: lineText.trim().min(1, 'Choose an industry.').max(100),
  /** ISO 3166-1 alpha-2 code from the payment service's countries. */
  country: lineText
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'This is not a valid country.')
    .transform((c) => c.toUpperCase()),
});
export type CompanyBody = z.input<typeof companyBodySchema>;

/** The answer: the new admin's sign-in (the same shape as a login) and the company's services. */
export const companyCreatedSchema = loginSuccessSchema.extend({
  user_id: z.number().int(),
  services: z.array(z.string()),
});
export type CompanyCreated = z.infer<typeof companyCreatedSchema>;
