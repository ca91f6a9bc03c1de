/** Package purchases through the payment provider. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { packages } from './reference';

export const payments = pgTable(
  'payments',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    packageId: integer().references(() => packages.id),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    /** open | paid | declined | expired */
    status: text().notNull(),
    sessionId: text().notNull().unique(),
    createdAt: createdAt(),
    paidAt: ts(),
    /** The checkout session's address and end of life (set by the payment provider). */
    checkoutUrl: text(),
    expiresAt: ts(),
    /** Who started the purchase (null: the company's self-service sign-up). */
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    /** Receipt number, given when the provider reports the payment (R-YYYY-000123). */
    receiptNumber: text().unique(),
    /** The provider's receipt page for a paid session. */
    receiptUrl: text(),
    /** Why a payment was declined (the provider's decline code). */
    failureCode: text(),
    /** Minor units the provider reports refunded (0: none); the status stays `paid` (migration 0031). */
    refundedCents: integer().notNull().default(0),
    /** When the latest refund was reported. */
    refundedAt: ts(),
  },
  (t) => [index('payments_company').on(t.companyId, t.createdAt)],
);

/**
 * Signed notifications of the payment provider already applied, by their id: a replayed or retried
 * notification (same id) changes nothing. Written in the transaction that applies it.
 */
export const paymentNotifications = pgTable('payment_notifications', {
  id: text().primaryKey(),
  type: text().notNull(),
  sessionId: text().notNull(),
  receivedAt: createdAt(),
});
