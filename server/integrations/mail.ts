import { desc, eq, sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  /** The one-time code the message carries: sent, never stored (the outbox keeps the body without it). */
  code?: string;
}

/**
 * Sending e-mail. Every message is stored in the `mail_outbox` table with its one-time code blanked; outside
 * production it is also printed on one console line; with `SMTP_URL` it is sent by SMTP (nodemailer) as well.
 */
export interface MailOutbox {
  send(message: MailMessage): Promise<void>;
  /**
   * Runs mail work after the caller has answered (e.g. looking up whether an address is known, then mailing):
   * the answer does not wait for it, so it cannot tell anything by its timing. Failures go to `onError`.
   */
  defer(work: () => Promise<void>): void;
}

export interface OutboxOptions {
  /** Prints one line per message (to, subject, code); unset: nothing is printed. */
  print?: (line: string) => void;
  /** `smtp://user:pass@host:587` or `smtps://…`: also sent by SMTP. */
  smtpUrl?: string;
  from?: string;
  /** Where SMTP failures (the message stays in the outbox) and failed deferred work go. */
  onError?: (error: unknown) => void;
  /**
   * Keeps each code in this process's memory for the dev outbox listing (`/api/dev/outbox`, only with the dev
   * endpoints), for as long as a code lives; never in the database.
   */
  devCodesMs?: number;
}

/** What the stored body shows where the code was. */
export const BLANKED_CODE = '••••••';
/** Most codes the dev view holds (the oldest go first). */
const DEV_CODES_MAX = 1_000;

interface OutboxState {
  /** The dev view of codes: message id → code and when it stops showing. */
  codes: Map<number, { code: string; until: number }> | null;
  /** Deferred work not finished yet (the listing waits for it). */
  pending: Set<Promise<void>>;
}

/** Per database (one outbox per app), for the dev listing `recentMail`. */
const states = new WeakMap<Db, OutboxState>();

export function createDbOutbox(db: Db, options: OutboxOptions = {}): MailOutbox {
  const smtp = options.smtpUrl ? createTransport(options.smtpUrl) : null;
  const state: OutboxState = {
    codes: options.devCodesMs ? new Map() : null,
    pending: new Set(),
  };
  const keep = state.codes;
  if (keep || !states.has(db)) states.set(db, state);
  return {
    defer(work) {
      const running: Promise<void> = Promise.resolve()
        .then(work)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => state.pending.delete(running));
      state.pending.add(running);
    },
    async send({ code, ...message }) {
      const stored = code ? message.body.replaceAll(code, BLANKED_CODE) : message.body;
      const [row] = await db
        .insert(mailOutbox)
        .values({ ...message, body: stored })
        .returning({ id: mailOutbox.id });
      if (keep && code && row && options.devCodesMs) {
        keep.set(row.id, { code, until: Date.now() + options.devCodesMs });
        for (const id of keep.keys()) {
          if (keep.size <= DEV_CODES_MAX) break;
          keep.delete(id);
        }
      }
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

/**
 * The newest stored messages to one address (the dev-only outbox listing), once the deferred mail work under
 * way is done. A code still in this process's dev view is put back into its message; the database holds none.
 */
export async function recentMail(db: Db, to: string, limit = 20) {
  const state = states.get(db);
  await Promise.all(state?.pending ?? []);
  const rows = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      body: mailOutbox.body,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()))
    .orderBy(desc(mailOutbox.id))
    .limit(limit);
  const keep = state?.codes;
  const now = Date.now();
  return rows.map((r) => {
    const kept = keep?.get(r.id);
    if (kept && kept.until <= now) keep?.delete(r.id);
    const code = kept && kept.until > now ? kept.code : null;
    return {
      to: r.to,
      subject: r.subject,
      body: code ? r.body.replaceAll(BLANKED_CODE, code) : r.body,
      created_at: r.createdAt.toISOString(),
    };
  });
}
