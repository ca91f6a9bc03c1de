import { z } from 'zod';
import { isoDateTime } from './common';

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
});
export type Package = z.infer<typeof packageSchema>;

export const paymentSchema = z.object({
  id: z.number().int(),
  package: packageSchema.pick({ id: true, name: true }).nullable(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['open', 'paid', 'failed', 'expired']),
  session_id: z.string(),
  created_at: isoDateTime,
  paid_at: isoDateTime.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;
