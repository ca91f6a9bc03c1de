import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { smsOutbox } from '../db/schema';
import { BLANKED_CODE } from './mail';

export interface SmsMessage {
  /** The phone number, as the profile holds it. */
  to: string;
  body: string;
  /** The one-time code the message carries: sent, never stored (the outbox keeps the body without it). */
  code?: string;
}

/**
 * Sending a text message (the second-channel code). The local stand-in stores every message in the
 * `sms_outbox` table with its code blanked and prints one console line outside production; a real provider
 * (an SMS gateway's HTTP API) implements the same interface.
 */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** Per database, the dev view of codes while they live (message id → code, until), as for mail. */
const devCodes = new WeakMap<Db, Map<number, { code: string; until: number }>>();

export function createDbSmsOutbox(
  db: Db,
  options: { print?: (line: string) => void; devCodesMs?: number } = {},
): SmsSender {
  const keep = options.devCodesMs ? new Map<number, { code: string; until: number }>() : null;
  if (keep || !devCodes.has(db)) devCodes.set(db, keep ?? new Map());
  return {
    async send({ to, body, code }) {
      const [row] = await db
        .insert(smsOutbox)
        .values({ to, body: code ? body.replaceAll(code, BLANKED_CODE) : body })
        .returning({ id: smsOutbox.id });
      if (keep && code && row && options.devCodesMs) {
        keep.set(row.id, { code, until: Date.now() + options.devCodesMs });
        for (const id of keep.keys()) {
          if (keep.size <= 1_000) break;
          keep.delete(id);
        }
      }
      options.print?.(`sms to=${to}${code ? ` code=${code}` : ''}`);
    },
  };
}

/** The newest stored text messages to one number (the dev-only listing), codes put back while they live. */
export async function recentSms(db: Db, to: string, limit = 20) {
  const keep = devCodes.get(db);
  const now = Date.now();
  const rows = await db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.to, to))
    .orderBy(desc(smsOutbox.id))
    .limit(limit);
  return rows.map((r) => {
    const kept = keep?.get(r.id);
    const code = kept && kept.until > now ? kept.code : null;
    return {
      to: r.to,
      body: code ? r.body.replaceAll(BLANKED_CODE, code) : r.body,
      created_at: r.createdAt.toISOString(),
    };
  });
}
