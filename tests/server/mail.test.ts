import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../server/db/schema';
import { BLANKED_CODE, createDbOutbox, recentMail } from '../../server/integrations/mail';
import { startTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('mail outbox without a relay (the local stand-in)', () => {
  it('stores the message as sent without its code, prints one line with it, and the dev listing shows it', async () => {
    const lines: string[] = [];
    const outbox = createDbOutbox(t.app.ctx.db, {
      secrets: t.app.ctx.secrets,
      relay: false,
      print: (line) => lines.push(line),
      devCodesMs: 60_000,
    });
    await outbox.send({
      to: 'local@acme.test',
      subject: 'Your code',
      body: 'Your code is 424242.',
      code: '424242',
    });
    expect(lines).toEqual(['mail to=local@acme.test subject="Your code" code=424242']);
    expect(await recentMail(t.app.ctx.db, 'LOCAL@acme.test')).toEqual([
      {
        to: 'local@acme.test',
        subject: 'Your code',
        body: 'Your code is 424242.',
        created_at: expect.any(String),
      },
    ]);
    // The table keeps the message without its code, and nothing sealed: there is nothing left to send.
    const [stored] = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'local@acme.test'));
    expect(stored).toMatchObject({
      body: `Your code is ${BLANKED_CODE}.`,
      status: 'sent',
      sealed: null,
      sentAt: expect.any(Date),
      attempts: 1,
    });
  });

  it('a message queued in a transaction that rolls back is gone with it', async () => {
    const outbox = createDbOutbox(t.app.ctx.db, { secrets: t.app.ctx.secrets, relay: true });
    await t.app.ctx.db
      .transaction(async (tx) => {
        await outbox.send({ to: 'rolled-back@acme.test', subject: 'Never', body: 'Never sent' }, tx);
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect(
      await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'rolled-back@acme.test')),
    ).toEqual([]);
  });
});
