import { desc, eq, sql } from 'drizzle-orm';
import type { MailKind, MailLanguage } from '#contract/mail';
import type { SecretBox } from '../auth/secrets';
import type { Db, DbOrTx } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part. */
  body: string;
  /** The HTML part (templated messages, mailTemplates/). */
  html?: string;
  /**
   * The one-time code the message carries: the visible columns never hold it; the full message is sealed in
   * the row until it is sent or the code expires (docs/decisions/0160-mail-queue.md).
   */
  code?: string;
  /** How long the code lives (the sealed copy is wiped after it); the outbox's `codeTtlMs` when unset. */
  codeValidMs?: number;
  kind?: MailKind | 'other';
  /** The company whose Admins see it in their Mail tab; null or unset: none. */
  companyId?: number | null;
  language?: MailLanguage;
}

/**
 * Sending e-mail (docs/decisions/0160-mail-queue.md). `send` queues the message in `mail_outbox` (in the caller's transaction when
 * it passes one, so a rolled-back change mails nothing); the mail worker (mailWorker.ts) hands it to the
 * relay with retries. Outside production each message is also printed on one console line.
 */
export interface MailOutbox {
  /** The product's name the templates sign with (MAIL_PRODUCT_NAME). */
  readonly product: string;
  send(message: MailMessage, db?: DbOrTx): Promise<void>;
  /**
   * Runs mail work after the caller has answered (e.g. looking up whether an address is known, then mailing):
   * the answer does not wait for it, so it cannot tell anything by its timing. Failures go to `onError`.
   */
  defer(work: () => Promise<void>): void;
}

export interface OutboxOptions {
  /** Seals the full message of one carrying a code (the server secret's box). */
  secrets: SecretBox;
  /** True when a relay (SMTP_URL) sends the queue; false: the local stand-in, every message is sent at once. */
  relay: boolean;
  product?: string;
  /** Prints one line per message (to, subject, code); unset: nothing is printed. */
  print?: (line: string) => void;
  /** A message was queued: the worker may look now. */
  onQueued?: () => void;
  /** How long a code lives when the message does not say (the e-mailed codes' lifetime). */
  codeTtlMs?: number;
  /** Where failed deferred work goes. */
  onError?: (error: unknown) => void;
  /**
   * Keeps each code in this process's memory for the dev outbox listing (`/api/dev/outbox`, only with the dev
   * endpoints), for as long as a code lives; never in the database in the clear.
   */
  devCodesMs?: number;
}

/** What the stored body shows where the code was. */
export const BLANKED_CODE = '••••••';
/** Most codes the dev view holds (the oldest go first). */
const DEV_CODES_MAX = 1_000;
const DEFAULT_CODE_TTL_MS = 10 * 60_000;
export const DEFAULT_PRODUCT = 'Verification Studio';

/** The sealed part of a message with a code: what the relay gets. */
export interface SealedMail {
  body: string;
  html: string | null;
}

interface OutboxState {
  /** The dev view of codes: message id → code and when it stops showing. */
  codes: Map<number, { code: string; until: number }> | null;
  /** Deferred work not finished yet (the listing waits for it). */
  pending: Set<Promise<void>>;
}

/** Per database (one outbox per app), for the dev listing `recentMail`. */
const states = new WeakMap<Db, OutboxState>();

export function createDbOutbox(db: Db, options: OutboxOptions): MailOutbox {
  const state: OutboxState = {
    codes: options.devCodesMs ? new Map() : null,
    pending: new Set(),
  };
  const keep = state.codes;
  if (keep || !states.has(db)) states.set(db, state);
  return {
    product: options.product ?? DEFAULT_PRODUCT,
    defer(work) {
      const running: Promise<void> = Promise.resolve()
        .then(work)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => state.pending.delete(running));
      state.pending.add(running);
    },
    async send(message, handle) {
      const { code } = message;
      const blank = (text: string) => (code ? text.replaceAll(code, BLANKED_CODE) : text);
      const now = new Date();
      const validMs = message.codeValidMs ?? options.codeTtlMs ?? DEFAULT_CODE_TTL_MS;
      // The local stand-in has nothing to send to: the message is done as it is queued (as before the queue).
      const sealed =
        code && options.relay
          ? options.secrets.seal(JSON.stringify({ body: message.body, html: message.html ?? null }))
          : null;
      const [row] = await (handle ?? db)
        .insert(mailOutbox)
        .values({
          to: message.to,
          subject: message.subject,
          body: blank(message.body),
          html: message.html === undefined ? null : blank(message.html),
          kind: message.kind ?? 'other',
          companyId: message.companyId ?? null,
          language: message.language ?? 'en',
          sealed,
          sealedUntil: sealed ? new Date(now.getTime() + validMs) : null,
          ...(options.relay ? { status: 'queued' } : { status: 'sent', sentAt: now, attempts: 1 }),
        })
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
      // In a transaction the row is visible only after the commit: the response hook (app.ts) kicks again then.
      if (options.relay) options.onQueued?.();
    },
  };
}

/**
 * The newest stored messages to one address (the dev-only outbox listing), once the deferred mail work under
 * way is done. A code still in this process's dev view is put back into its message; the database holds none
 * in the clear.
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
