/** Outgoing mail (the local outbox) and support messages. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { users } from './companies';

/** The local mail integration: every e-mail the server "sends" is stored here. */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text().notNull(),
  subject: text().notNull(),
  body: text().notNull(),
  createdAt: createdAt(),
});

/** The local SMS integration (issue 29's second-channel code): every text message "sent" is stored here. */
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
