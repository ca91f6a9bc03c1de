import { z } from 'zod';
import { isoDateTime } from './common';

export const TRANSACTION_KINDS = [
  'deposit',
  'withdrawal',
  'transfer_in',
  'transfer_out',
  'card_payment',
] as const;
export const TRANSACTION_STATUSES = ['completed', 'pending', 'declined'] as const;

/** GET /api/v2/profile/{id}/transactions: newest first (the Transactions tab's data). */
export const transactionSchema = z.object({
  id: z.number().int(),
  occurred_at: isoDateTime,
  kind: z.enum(TRANSACTION_KINDS),
  /** In minor units (cents). */
  amount_minor: z.number().int(),
  currency: z.string(),
  counterparty: z.string().nullable(),
  status: z.enum(TRANSACTION_STATUSES),
  /** Why monitoring flagged it, or null. */
  flag_reason: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;
