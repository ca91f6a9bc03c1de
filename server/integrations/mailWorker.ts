import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import type { SecretBox } from '../auth/secrets';
import type { MailConfig } from '../config';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { SealedMail } from './mail';
import { createAttempts, createPollLoop } from './pollLoop';
import { nextRetryDelayMs } from './webhooks/schedule';

/**
 * The mail worker (docs/decisions/0160-mail-queue.md): hands queued messages of `mail_outbox` to the relay. Like the webhook
 * worker, work lives in the database only: a claim takes due rows `FOR UPDATE SKIP LOCKED` and moves their
 * next attempt a lease ahead before sending, so several processes can run workers and none sends a message
 * another holds. The lease outlasts the transport's time-outs, so an attempt in flight never sees its
 * message claimed again; a crash mid-attempt only delays it until the lease ends.
 */
export interface MailWorker {
  start(): void;
  /** Stops the loop and waits for the attempts in flight. */
  stop(): Promise<void>;
  /** Look for work now (after a commit that queued something). */
  kick(): void;
  /** One pass: wipe expired codes, attempt what is due; answers how many attempts were made. */
  runOnce(): Promise<number>;
}

/** What the relay is given; it answers its acceptance line ("250 OK …"), or throws with its refusal. */
export interface MailTransport {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<string>;
}

/** SMTP by nodemailer (SMTP_URL); each attempt is bounded so it ends well inside the lease. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transport = createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      return info.response;
    },
  };
}

interface Deps {
  db: Db;
  secrets: SecretBox;
  transport: MailTransport;
  config: Pick<MailConfig, 'retrySchedule' | 'pollMs' | 'leaseMs'>;
  onError: (error: unknown) => void;
}

/** Attempts in flight in one process. */
const MAX_IN_FLIGHT = 8;
export const CODE_EXPIRED = 'The one-time code expired before the relay took the message';
const UNREADABLE = 'The sealed message cannot be opened with this server secret';

/** The relay's answer kept on the row: its response line, else the error's message (a refused connection). */
export function relayAnswer(error: unknown): string {
  const e = error as { response?: unknown; message?: unknown; code?: unknown };
  const text =
    typeof e.response === 'string' && e.response
      ? e.response
      : typeof e.message === 'string'
        ? e.message
        : String(error);
  return text.slice(0, 1_000);
}

/** A 5xx answer is the relay's final word on that message (a bad address); anything else is worth retrying. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

type Row = typeof mailOutbox.$inferSelect;

export function createMailWorker(deps: Deps): MailWorker {
  const { db, config } = deps;
  const attempts = createAttempts(deps.onError, () => loop.kick());

  const loop = createPollLoop({
    pass: pump,
    nextDueInMs,
    fallbackMs: config.pollMs,
    onError: deps.onError,
  });

  async function nextDueInMs(): Promise<number> {
    const [row] = await db
      .select({ at: sql<string | null>`min(${mailOutbox.nextAttemptAt})` })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'queued'));
    if (!row?.at) return config.pollMs;
    return Math.max(0, Math.min(config.pollMs, new Date(row.at).getTime() - Date.now()));
  }

  /**
   * Wipes codes past their life, then starts attempts for the due messages that fit; true when every slot is
   * taken (the attempts kick the loop as they finish).
   */
  async function pump(): Promise<boolean> {
    await wipeExpired();
    const free = MAX_IN_FLIGHT - attempts.size;
    if (free <= 0) return true;
    const claimed = await claim(free);
    for (const row of claimed) attempts.start(() => attempt(row));
    return claimed.length >= free;
  }

  /**
   * A sealed message is kept only while its code lives (docs/decisions/0160-mail-queue.md): past that it is wiped, and a message
   * still queued with it has failed (its code is useless now; the person asks for a new one).
   */
  async function wipeExpired(): Promise<void> {
    const now = new Date();
    const expired = and(isNotNull(mailOutbox.sealed), lte(mailOutbox.sealedUntil, now));
    await db
      .update(mailOutbox)
      .set({ status: 'failed', lastError: CODE_EXPIRED })
      .where(and(expired, eq(mailOutbox.status, 'queued')));
    await db.update(mailOutbox).set({ sealed: null, sealedUntil: null }).where(expired);
  }

  /** Takes up to `limit` due messages: their next attempt moves a lease ahead, so no other worker takes them. */
  async function claim(limit: number): Promise<Row[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, new Date())))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(mailOutbox)
        .set({
          nextAttemptAt: new Date(Date.now() + config.leaseMs),
          attempts: sql`${mailOutbox.attempts} + 1`,
        })
        .where(
          inArray(
            mailOutbox.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async function attempt(row: Row): Promise<void> {
    const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'queued'));
    const content = contentOf(row);
    if (!content) {
      // Sealed under another server secret (JWT_SECRET changed): it can never be opened, so it has failed.
      await db
        .update(mailOutbox)
        .set({ status: 'failed', lastError: UNREADABLE, sealed: null, sealedUntil: null })
        .where(mine);
      return;
    }
    try {
      await deps.transport.send({
        to: row.to,
        subject: row.subject,
        text: content.body,
        ...(content.html ? { html: content.html } : {}),
      });
    } catch (error) {
      const delay = isPermanent(error) ? null : nextRetryDelayMs(config.retrySchedule, row.attempts, null);
      await db
        .update(mailOutbox)
        .set({
          status: delay === null ? 'failed' : 'queued',
          nextAttemptAt: new Date(Date.now() + (delay ?? 0)),
          lastError: relayAnswer(error),
        })
        .where(mine);
      return;
    }
    // Sent: the code's sealed copy goes at once.
    await db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: new Date(), lastError: null, sealed: null, sealedUntil: null })
      .where(mine);
  }

  /** What the relay gets: the sealed full message when there is one, else the stored one (it has no code). */
  function contentOf(row: Row): SealedMail | null {
    if (!row.sealed) return { body: row.body, html: row.html };
    try {
      return JSON.parse(deps.secrets.open(row.sealed)) as SealedMail;
    } catch {
      return null;
    }
  }

  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      await attempts.settled();
    },
    kick: loop.kick,
    runOnce: () => attempts.runOnce(pump),
  };
}
