import { desc, eq, sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  /** The one-time code the message carries: printed on the console line, never stored apart. */
  code?: string;
}

/**
 * Sending e-mail. Every message is stored in the `mail_outbox` table; outside production it is also
 * printed on one console line; with `SMTP_URL` it is sent by SMTP (nodemailer) as well.
 */
export interface MailOutbox {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxOptions {
  /** Prints one line per message (to, subject, code); unset: nothing is printed. */
  print?: (line: string) => void;
  /** `smtp://user:pass@host:587` or `smtps://…`: also sent by SMTP. */
  smtpUrl?: string;
  from?: string;
  /** Where SMTP failures go (the message stays in the outbox). */
  onError?: (error: unknown) => void;
}

export function createDbOutbox(db: Db, options: OutboxOptions = {}): MailOutbox {
  const smtp = options.smtpUrl ? createTransport(options.smtpUrl) : null;
  return {
    async send({ code, ...message }) {
      await db.insert(mailOutbox).values(message);
      options.print?.(
        `mail to=${message.to} subject=${JSON.stringify(message.subject)}${code ? ` code=${code}` : ''}`,
      );
      if (smtp) {
        // Not awaited by the caller's answer time: a slow relay must not reveal anything or stall.
        smtp
          .sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.body })
          .catch((error: unknown) => options.onError?.(error));
      }
    },
  };
}

/** The newest stored messages to one address (the dev-only outbox listing). */
export async function recentMail(db: Db, to: string, limit = 20) {
  const rows = await db
    .select({
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      body: mailOutbox.body,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()))
    .orderBy(desc(mailOutbox.id))
    .limit(limit);
  return rows.map((r) => ({
    to: r.to,
    subject: r.subject,
    body: r.body,
    created_at: r.createdAt.toISOString(),
  }));
}
