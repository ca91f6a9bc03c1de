import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

/** Sending e-mail. The local implementation stores every message in the `mail_outbox` table. */
export interface MailOutbox {
  send(message: { to: string; subject: string; body: string }): Promise<void>;
}

export function createDbOutbox(db: Db): MailOutbox {
  return {
    async send(message) {
      await db.insert(mailOutbox).values(message);
    },
  };
}
