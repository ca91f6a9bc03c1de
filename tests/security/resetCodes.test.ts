/**
 * Findings "reset-code sending answers a known address measurably slower than an unknown one" and
 * "the mail outbox keeps reset codes in clear": the answer goes out before any work that depends on the address,
 * and the outbox table holds messages without their codes (the dev listing still shows them, from memory).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../server/db/schema';
import type { MailMessage } from '../../server/integrations/mail';
import { login, mailedCode, post, startTestApp, type TestApp } from '../server/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/v2/user/reset_password/send', payload: { email } });

describe('password reset code sends', () => {
  it('answer a known address before its lookup and mail are done, exactly as an unknown one', async () => {
    const mail = t.app.ctx.mail;
    const original = mail.send.bind(mail);
    const attempted: MailMessage[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The mail work never finishes until released: an answer that waited for it would never come.
    mail.send = async (message) => {
      attempted.push(message);
      await held;
      return original(message);
    };
    try {
      const unanswered = Symbol('no answer while the mail work is held');
      const within = <T>(promise: Promise<T>) =>
        Promise.race([
          promise,
          new Promise<symbol>((resolve) => setTimeout(() => resolve(unanswered), 10_000)),
        ]);
      const known = await within(send('agent@acme.test'));
      const unknown = await within(send('nobody-at-all@acme.test'));
      expect(known).not.toBe(unanswered);
      expect(unknown).not.toBe(unanswered);
      if (typeof known === 'symbol' || typeof unknown === 'symbol') return;
      expect(known.statusCode).toBe(200);
      expect({ status: known.statusCode, body: known.json() }).toEqual({
        status: unknown.statusCode,
        body: unknown.json(),
      });
      // The work was still done, after the answer: the known address gets its code.
      await expect.poll(() => attempted.map((m) => m.to)).toEqual(['agent@acme.test']);
    } finally {
      release();
      mail.send = original;
    }
    const code = await mailedCode(t.app, 'agent@acme.test');
    expect(code).toMatch(/^\d{6}$/);
  });

  it('keep no code in clear in the outbox; the dev listing shows it, and it resets the password', async () => {
    expect((await send('viewer@acme.test')).statusCode).toBe(200);
    const code = await mailedCode(t.app, 'viewer@acme.test');
    const rows = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'viewer@acme.test'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.body).not.toContain(code);
      expect(row.body).not.toMatch(/\b\d{6}\b/);
    }
    const reset = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'viewer@acme.test',
      otp: code,
      new_password: 'Viewer@2027',
    });
    expect(reset.status).toBe(200);
    expect((await login(t.app, 'viewer@acme.test', 'Viewer@2027')).statusCode).toBe(200);
  });

  it('keep no sign-up verification code in clear either', async () => {
    const email = `outbox-${Date.now()}@newco.test`;
    expect((await post(t.app, '/api/v2/stp/register', { email, password: 'Signup#2026' })).status).toBe(200);
    const code = await mailedCode(t.app, email);
    const rows = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(rows.map((r) => r.body.includes(code))).toEqual([false]);
  });
});
