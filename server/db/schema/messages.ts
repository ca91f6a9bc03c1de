/** Outgoing mail (the local outbox) and support messages. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';

/**
 * The mail queue (docs/decisions/0160-mail-queue.md): every e-mail is queued here, in the transaction of the change that sends it,
 * and a worker hands it to the relay with retries. `body` and `html` never hold a one-time code (it shows as
 * BLANKED_CODE); the full message is in `sealed` (AES-256-GCM) only until it is sent or its code expires.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text().notNull(),
    subject: text().notNull(),
    /** The plain-text part, code blanked. */
    body: text().notNull(),
    /** The HTML part, code blanked; null for plain-text-only messages (the help desk's). */
    html: text(),
    /** The template (MAIL_KINDS of contract/mail.ts), 'other' for messages without one. */
    kind: text().notNull().default('other'),
    /** The company the message belongs to (its Admins list it); null when none (sign-up, help desk). */
    companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
    /** The language it was written in: 'en' or 'tr'. */
    language: text().notNull().default('en'),
    /** queued (waiting or retrying), sent, failed (final until an Admin retries). */
    status: text().notNull().default('queued'),
    /** The sealed full message ({ body, html } with the code), and when it must be wiped at the latest. */
    sealed: text(),
    sealedUntil: ts(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts().notNull().defaultNow(),
    /** The relay's answer to the last failed attempt. */
    lastError: text(),
    sentAt: ts(),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due').on(t.status, t.nextAttemptAt),
    index('mail_outbox_company').on(t.companyId, t.id),
  ],
);

/** The local SMS integration (the second-channel code): every text message "sent" is stored here. */
export const smsOutbox = pgTable('sms_outbox', {
  id: id(),
  to: text().notNull(),
  body: text().notNull(),
  createdAt: createdAt(),
});

export const supportMessages = pgTable('support_messages', {
  id: id(),
  email: text().notNull(),
  message: text().notNull(),
  page: text(),
  userId: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});
