import { z } from 'zod';
import { idSchema, isoDateTime, lineText } from './common';

/** GET /api/v2/stp/packages */
export const packageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  verifications: z.number().int(),
  /** Price in minor units (cents); 0 for a custom-priced package. */
  price: z.number().int(),
  currency: z.string(),
  is_custom: z.boolean(),
  /** Services a paid plan switches on in the company config (null: none named). */
  services: z.array(z.string()).nullable(),
  /** Length of one paid period in days. */
  period_days: z.number().int(),
});
export type Package = z.infer<typeof packageSchema>;

/** The minimum plan commitment: from 1000 verifications (custom price). */
export const MINIMUM_COMMITMENT_VERIFICATIONS = 1000;

/** What a checkout session is, as the studio sees it (GET /payment/session_status). */
export const PAYMENT_STATUSES = ['open', 'paid', 'declined', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const paymentSchema = z.object({
  id: z.number().int(),
  package: packageSchema.pick({ id: true, name: true }).nullable(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  session_id: z.string(),
  created_at: isoDateTime,
  /** When an open checkout stops being payable and becomes `expired` (null for older rows). */
  expires_at: isoDateTime.nullable(),
  paid_at: isoDateTime.nullable(),
  /** Our receipt number, given when the provider reports the payment. */
  receipt_number: z.string().nullable(),
  /** The provider's receipt page. */
  receipt_url: z.string().nullable(),
  /** Minor units refunded at the provider (0: none); a refunded payment keeps the status `paid`. */
  refunded_amount: z.number().int(),
  /** When the latest refund was reported (null: none). */
  refunded_at: isoDateTime.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** POST /payment/buy_package */
export const buyPackageBodySchema = z.strictObject({
  package: idSchema,
  /** Where the checkout sends the browser back, with `?session_id=…` added (an address of this studio). */
  studio_url: z.url({ protocol: /^https?$/ }).max(2000),
  /** The checkout page's language (the studio's); default en-US. */
  locale: z.enum(['en-US', 'tr']).optional(),
  /**
   * While a paid period runs, buying any package replaces that period when the payment arrives: its
   * remaining days and verifications end. The caller must say it knows (`true`), else 409.
   */
  replace_current_plan: z.boolean().optional(),
});
export type BuyPackageBody = z.infer<typeof buyPackageBodySchema>;

export const buyPackageReplySchema = z.object({
  session_id: z.string(),
  checkout_url: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number().int(),
  currency: z.string(),
  expires_at: isoDateTime,
});
export type BuyPackageReply = z.infer<typeof buyPackageReplySchema>;

/** GET /payment/session_status?session_id */
export const sessionStatusSchema = z.object({
  session_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /**
   * An open session read back from the provider by the server now (null: closed, or the provider not
   * reachable). `paid` while `status` is `open`: the money arrived, the signed notification that applies it
   * not yet. Shown, never applied.
   */
  provider_status: z.enum(PAYMENT_STATUSES).nullable(),
  package: packageSchema.pick({ id: true, name: true }).nullable(),
  amount: z.number().int(),
  currency: z.string(),
  expires_at: isoDateTime.nullable(),
  paid_at: isoDateTime.nullable(),
  receipt_number: z.string().nullable(),
  receipt_url: z.string().nullable(),
  /** Why a payment was declined (`card_declined`, `authentication_failed`). */
  decline_code: z.string().nullable(),
});
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** GET /payment/plan: the company's plan and its use in the current period. */
export const planSchema = z.object({
  package: packageSchema.nullable(),
  payment_status: z.string(),
  period_start: isoDateTime.nullable(),
  period_end: isoDateTime.nullable(),
  included_verifications: z.number().int().nullable(),
  /** Profiles created in the current period. */
  used_verifications: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

/** The payment service's public reference data (GET /config on its own host). */
export const paymentServiceConfigSchema = z.object({
  currencies: z.array(z.string()),
  default_currency: z.string(),
  countries: z.array(z.object({ code: z.string(), name: z.string() })),
  minimum_commitment: z.object({ verifications: z.number().int(), custom_price: z.boolean() }),
  test_mode: z.boolean(),
});
export type PaymentServiceConfig = z.infer<typeof paymentServiceConfigSchema>;

/** GET /industry on the payment service's host. */
export const industrySchema = z.array(z.object({ code: z.string(), name: z.string() }));
export type Industry = z.infer<typeof industrySchema>[number];

/**
 * The headers that sign a payment notification (POST /payment/notification): the Standard Webhooks ones of the
 * local payment service, or Stripe's `Stripe-Signature`. Which are needed is the configured adapter's check
 * (a missing one: 400); other headers pass through (the object is loose).
 */
export const notificationHeadersSchema = z.looseObject({
  'webhook-id': lineText.min(1).max(200).optional().describe('The notification id, the same on every retry'),
  'webhook-timestamp': lineText
    .min(1)
    .max(20)
    .optional()
    .describe('When it was signed, in seconds since 1970 (UTC)'),
  'webhook-signature': lineText
    .min(1)
    .max(2000)
    .optional()
    .describe('Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` signatures'),
  'stripe-signature': lineText
    .min(1)
    .max(2000)
    .optional()
    .describe('Stripe’s `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">` (the Stripe adapter)'),
});
