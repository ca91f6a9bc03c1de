/**
 * Mail reaches a real SMTP server (smtp-server) as text and
 * HTML in the recipient's language, survives a relay that refuses and one that is down, is never sent twice
 * by two workers, and a message that failed for good is listed for Admins and sent again on their retry.
 */
import { eq, inArray } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailPage, MailPreview } from '../../contract/mail';
import { createSecretBox } from '../../server/auth/secrets';
import { companies, mailOutbox, users } from '../../server/db/schema';
import { BLANKED_CODE } from '../../server/integrations/mail';
import { renderMail } from '../../server/integrations/mailTemplates';
import { createMailWorker, smtpTransport } from '../../server/integrations/mailWorker';
import { bearer, get, PASSWORDS, post, startTestApp, type TestApp, tokenFor, userId } from './helpers';

type Mode = 'accept' | 'refuse' | 'reject';

/** A real SMTP server on loopback (no TLS, no auth) that can refuse for a while, and be stopped and started. */
function relay() {
  const received: ParsedMail[] = [];
  let mode: Mode = 'accept';
  let server: SMTPServer | null = null;
  let port = 0;
  const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      closeTimeout: 100,
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (mode === 'refuse') callback(refusal(451, 'Mailbox busy, try again later'));
        else if (mode === 'reject') callback(refusal(550, 'No such user here'));
        else callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
  return {
    received,
    get port() {
      return port;
    },
    set mode(next: Mode) {
      mode = next;
    },
    start(): Promise<void> {
      server = create();
      const s = server;
      return new Promise((resolve, reject) => {
        const listening = s.listen(port, '127.0.0.1', () => {
          const address = listening.address();
          port = typeof address === 'object' && address ? address.port : port;
          resolve();
        });
        listening.once('error', reject);
      });
    },
    stop(): Promise<void> {
      const s = server;
      server = null;
      return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
    },
    to: (address: string) =>
      received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.text.includes(address))),
  };
}

const smtp = relay();
let t: TestApp;
/** Short, injected delays: a retry waits ~100 ms, up to twenty retries. */
const RETRIES = Array.from({ length: 20 }, () => 0.1);

beforeAll(async () => {
  await smtp.start();
  t = await startTestApp({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    mail: {
      product: 'Verification Studio',
      retrySchedule: RETRIES,
      pollMs: 50,
      leaseMs: 120_000,
      worker: true,
    },
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const db = () => t.app.ctx.db;
const rowsTo = (to: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to, to));
const sendReset = (email: string) => post(t.app, '/api/v2/user/reset_password/send', { email });
const delivered = (to: string, n = 1) => expect.poll(() => smtp.to(to).length, { timeout: 20_000 }).toBe(n);
const statusOf = async (to: string) => (await rowsTo(to)).map((r) => r.status);

/** GET and PUT /mail/language, as `token`. */
const companyLanguage = (token: string) => get(t.app, '/api/v2/mail/language', token);
async function setCompanyLanguage(token: string, payload: unknown) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/mail/language',
    headers: bearer(token),
    payload: payload as Record<string, unknown>,
  });
  return { status: response.statusCode, body: response.json() as unknown };
}

describe('mail reaches the relay, in the recipient language', () => {
  it('a password reset arrives as text and HTML, in Turkish for a Turkish user, the code only in the mail', async () => {
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const me = { id: await userId(t.app, 'agent@acme.test') };
    // The user chooses the language of their own e-mail, without a password.
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/user/${me.id}`,
      headers: bearer(agent),
      payload: { mail_language: 'tr' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ mail_language: 'tr' });
    expect((await sendReset('agent@acme.test')).status).toBe(200);
    await delivered('agent@acme.test');
    const [mail] = smtp.to('agent@acme.test');
    expect(mail?.subject).toBe('Parola sıfırlama kodunuz');
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.html).toContain(code);
    expect(mail?.html).toContain('<html lang="tr">');
    expect(mail?.text).toContain('Acme');
    await expect.poll(() => statusOf('agent@acme.test')).toEqual(['sent']);
    const [row] = await rowsTo('agent@acme.test');
    expect(row).toMatchObject({ kind: 'password_reset', language: 'tr', sealed: null, attempts: 1 });
    expect(`${row?.body} ${row?.html}`).not.toContain(code);
    expect(row?.body).toContain(BLANKED_CODE);
    // The code works: the mail carried the real one.
    const reset = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'agent@acme.test',
      otp: code,
      new_password: PASSWORDS.user,
    });
    expect(reset.status).toBe(200);
  });

  it('an English user gets English; a user without a language gets their company’s, which its Admin sets', async () => {
    expect((await sendReset('viewer@acme.test')).status).toBe(200);
    const globexAdmin = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    expect(await companyLanguage(globexAdmin)).toEqual({ status: 200, body: { mail_language: 'en' } });
    expect(await setCompanyLanguage(globexAdmin, { mail_language: 'tr' })).toEqual({
      status: 200,
      body: { mail_language: 'tr' },
    });
    expect((await sendReset('admin@globex.test')).status).toBe(200);
    await delivered('viewer@acme.test');
    await delivered('admin@globex.test');
    expect(smtp.to('viewer@acme.test')[0]?.subject).toBe('Your password reset code');
    expect(smtp.to('viewer@acme.test')[0]?.html).toContain('<html lang="en">');
    expect(smtp.to('admin@globex.test')[0]?.subject).toBe('Parola sıfırlama kodunuz');
    expect((await setCompanyLanguage(globexAdmin, { mail_language: 'en' })).status).toBe(200);
  });

  it('an invitation is queued in the creating transaction, signed with the product and company names', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const created = await post(
      t.app,
      '/api/v2/user',
      {
        username: 'invited-mail@acme.test',
        first_name: 'Ivy',
        last_name: 'Invited',
        role: 'User',
        password: PASSWORDS.admin,
      },
      admin,
    );
    expect(created.status).toBe(201);
    await delivered('invited-mail@acme.test');
    const [mail] = smtp.to('invited-mail@acme.test');
    expect(mail?.subject).toBe('You are invited to Verification Studio');
    expect(mail?.text).toMatch(/^Hello Ivy,/);
    expect(mail?.html).toMatch(
      /href="http[^"]+\/reset-password\?email=invited-mail%40acme.test&amp;code=\d{6}"/,
    );
    const [row] = await rowsTo('invited-mail@acme.test');
    expect(row?.companyId).toBe(await companyOf('admin@acme.test'));
    expect(row?.kind).toBe('invitation');
  });
});

async function companyOf(email: string): Promise<number | undefined> {
  const [row] = await db().select({ companyId: users.companyId }).from(users).where(eq(users.email, email));
  return row?.companyId;
}

describe('a relay that refuses or is down', () => {
  it('a refusal (451) is retried with its answer kept, and the message is delivered once the relay recovers', async () => {
    smtp.mode = 'refuse';
    try {
      expect((await sendReset('reviewer@acme.test')).status).toBe(200);
      await expect
        .poll(async () => (await rowsTo('reviewer@acme.test'))[0]?.attempts ?? 0, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
      const [waiting] = await rowsTo('reviewer@acme.test');
      expect(waiting?.status).toBe('queued');
      expect(waiting?.lastError).toContain('451');
      expect(waiting?.sealed).not.toBeNull();
    } finally {
      smtp.mode = 'accept';
    }
    await expect.poll(() => statusOf('reviewer@acme.test'), { timeout: 20_000 }).toEqual(['sent']);
    expect(smtp.to('reviewer@acme.test')).toHaveLength(1);
    const [sent] = await rowsTo('reviewer@acme.test');
    expect(sent).toMatchObject({ lastError: null, sealed: null, sealedUntil: null });
  });

  it('a relay that is down for a while: the message waits and goes out when it is back', async () => {
    await smtp.stop();
    try {
      expect((await sendReset('mfa@acme.test')).status).toBe(200);
      await expect
        .poll(async () => (await rowsTo('mfa@acme.test'))[0]?.attempts ?? 0, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
      const [waiting] = await rowsTo('mfa@acme.test');
      expect(waiting?.status).toBe('queued');
      expect(waiting?.lastError).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await smtp.start();
    }
    await expect.poll(() => statusOf('mfa@acme.test'), { timeout: 20_000 }).toEqual(['sent']);
    expect(smtp.to('mfa@acme.test')).toHaveLength(1);
  });

  it('a 5xx answer fails the message at once, with the relay’s words', async () => {
    smtp.mode = 'reject';
    try {
      expect((await sendReset('face@acme.test')).status).toBe(200);
      await expect.poll(() => statusOf('face@acme.test'), { timeout: 20_000 }).toEqual(['failed']);
    } finally {
      smtp.mode = 'accept';
    }
    const [row] = await rowsTo('face@acme.test');
    expect(row).toMatchObject({ attempts: 1, lastError: expect.stringContaining('550 No such user here') });
  });
});

describe('two workers on one database', () => {
  it('never deliver one message twice', async () => {
    const second = createMailWorker({
      db: db(),
      secrets: t.app.ctx.secrets,
      transport: smtpTransport(`smtp://127.0.0.1:${smtp.port}`, t.config.mailFrom),
      config: { retrySchedule: RETRIES, pollMs: 20, leaseMs: 120_000 },
      onError: (error) => {
        throw error;
      },
    });
    second.start();
    try {
      const addresses = Array.from({ length: 12 }, (_, i) => `twice-${i}@nowhere.test`);
      for (const to of addresses)
        await t.app.ctx.mail.send({ to, subject: 'Once', body: `Only once to ${to}` });
      await expect
        .poll(
          async () =>
            (await db().select().from(mailOutbox).where(inArray(mailOutbox.to, addresses))).filter(
              (r) => r.status === 'sent',
            ).length,
          { timeout: 20_000 },
        )
        .toBe(addresses.length);
      for (const to of addresses) expect(smtp.to(to), to).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});

describe('the Admin’s Mail tab', () => {
  it('a message failed after every attempt is listed failed with the relay’s answer; the Admin’s retry sends it', async () => {
    smtp.mode = 'refuse';
    try {
      expect((await sendReset('reset@acme.test')).status).toBe(200);
      await expect.poll(() => statusOf('reset@acme.test'), { timeout: 30_000 }).toEqual(['failed']);
    } finally {
      smtp.mode = 'accept';
    }
    const [row] = await rowsTo('reset@acme.test');
    expect(row?.attempts).toBe(RETRIES.length + 1);
    expect(row?.sealed).not.toBeNull();
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const list = await get<MailPage>(t.app, '/api/v2/mail?status=failed&limit=50', admin);
    expect(list.status).toBe(200);
    const listed = list.body.results.find((m) => m.id === row?.id);
    expect(listed).toMatchObject({
      to: 'reset@acme.test',
      subject: 'Your password reset code',
      kind: 'password_reset',
      status: 'failed',
      attempts: RETRIES.length + 1,
      last_error: expect.stringContaining('451'),
      sent_at: null,
    });
    // Never a body in the listing.
    expect(JSON.stringify(list.body)).not.toContain(BLANKED_CODE);
    // Another company's Admin does not see it and cannot retry it.
    const globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    const theirs = await get<MailPage>(t.app, '/api/v2/mail?limit=200', globex);
    expect(theirs.body.results.some((m) => m.id === row?.id)).toBe(false);
    expect((await post(t.app, `/api/v2/mail/${row?.id}/retry`, {}, globex)).status).toBe(404);
    // Not an Admin: 403.
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect((await get(t.app, '/api/v2/mail', agent)).status).toBe(403);
    expect((await post(t.app, `/api/v2/mail/${row?.id}/retry`, {}, agent)).status).toBe(403);

    const retried = await post(t.app, `/api/v2/mail/${row?.id}/retry`, {}, admin);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'queued', attempts: 0, last_error: null });
    await expect.poll(() => statusOf('reset@acme.test'), { timeout: 20_000 }).toEqual(['sent']);
    const [mail] = smtp.to('reset@acme.test');
    expect(mail?.text).toMatch(/\b\d{6}\b/);
    // Sent now: a second retry is refused.
    expect((await post(t.app, `/api/v2/mail/${row?.id}/retry`, {}, admin)).status).toBe(409);
  });

  it('a failed message whose code expired cannot be retried; the worker wipes the sealed copy', async () => {
    const [company] = await db()
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.name, 'Acme Bank'));
    await t.app.ctx.mail.send({
      to: 'expired@acme.test',
      subject: 'Old code',
      body: 'Your code is 987654.',
      code: '987654',
      codeValidMs: 1,
      companyId: company?.id ?? null,
    });
    await expect.poll(() => statusOf('expired@acme.test'), { timeout: 20_000 }).toEqual(['failed']);
    const [row] = await rowsTo('expired@acme.test');
    expect(row).toMatchObject({ sealed: null, lastError: expect.stringContaining('expired') });
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const retried = await post<{ detail: string }>(t.app, `/api/v2/mail/${row?.id}/retry`, {}, admin);
    expect(retried.status).toBe(409);
    expect(retried.body.detail).toMatch(/expired/);
    expect(smtp.to('expired@acme.test')).toHaveLength(0);
  });

  it('a message sealed under another server secret fails at once instead of coming back forever', async () => {
    const other = createSecretBox('another-server-secret-that-is-long-enough-0123');
    await db()
      .insert(mailOutbox)
      .values({
        to: 'resealed@acme.test',
        subject: 'Sealed elsewhere',
        body: `Code ${BLANKED_CODE}`,
        sealed: other.seal(JSON.stringify({ body: 'Code 111111', html: null })),
        sealedUntil: new Date(Date.now() + 600_000),
      });
    t.app.ctx.mailWorker?.kick();
    await expect.poll(() => statusOf('resealed@acme.test'), { timeout: 20_000 }).toEqual(['failed']);
    const [row] = await rowsTo('resealed@acme.test');
    expect(row).toMatchObject({ sealed: null, lastError: expect.stringContaining('server secret') });
    expect(smtp.to('resealed@acme.test')).toHaveLength(0);
  });

  it('bad input is a 400: unknown status, kind or language, a non-numeric id', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    expect((await get(t.app, '/api/v2/mail?status=lost', admin)).status).toBe(400);
    expect((await get(t.app, '/api/v2/mail/preview?kind=spam&language=en', admin)).status).toBe(400);
    expect((await get(t.app, '/api/v2/mail/preview?kind=invitation&language=de', admin)).status).toBe(400);
    expect((await post(t.app, '/api/v2/mail/abc/retry', {}, admin)).status).toBe(400);
    expect((await post(t.app, '/api/v2/mail/2147483647/retry', {}, admin)).status).toBe(404);
  });

  it('the company’s e-mail language: Admins only, one company’s own, audited, bad values refused', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect((await companyLanguage(user)).status).toBe(403);
    expect((await setCompanyLanguage(user, { mail_language: 'tr' })).status).toBe(403);
    for (const body of [
      { mail_language: 'de' },
      { mail_language: null },
      { mail_language: 'tr\u0000' },
      {},
      { mail_language: 'tr', extra: 1 },
    ])
      expect((await setCompanyLanguage(admin, body)).status).toBe(400);
    expect((await companyLanguage(admin)).body).toEqual({ mail_language: 'en' });

    expect((await setCompanyLanguage(admin, { mail_language: 'tr' })).status).toBe(200);
    const globexAdmin = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    expect((await companyLanguage(globexAdmin)).body).toEqual({ mail_language: 'en' });
    const audit = await get<{ results: { action: string; changes: unknown }[] }>(
      t.app,
      '/api/v2/audit?action=mail_language_changed',
      admin,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.results[0]?.action).toBe('mail_language_changed');
    expect((await setCompanyLanguage(admin, { mail_language: 'en' })).status).toBe(200);
  });

  it('previews each template in both languages, signed with the company', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const en = await get<MailPreview>(t.app, '/api/v2/mail/preview?kind=invitation&language=en', admin);
    const tr = await get<MailPreview>(t.app, '/api/v2/mail/preview?kind=invitation&language=tr', admin);
    expect(en.status).toBe(200);
    expect(en.body.subject).toBe('You are invited to Verification Studio');
    expect(tr.body.subject).toBe('Verification Studio davetiniz');
    expect(tr.body.text).toContain('Merhaba Ada,');
    expect(tr.body.html).toContain('<html lang="tr">');
    const [acme] = await db().select({ name: companies.name }).from(companies).where(eq(companies.id, 1));
    expect(en.body.text).toContain(acme?.name ?? '?');
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect((await get(t.app, '/api/v2/mail/preview?kind=invitation&language=en', agent)).status).toBe(403);
  });
});

describe('templates', () => {
  it('escape every value in the HTML part, the company name too, and never make a link of javascript:', () => {
    const mail = renderMail(
      'invitation',
      'en',
      { firstName: '<img src=x onerror=alert(1)>', link: 'javascript:alert(1)', code: '123456', days: 7 },
      { product: 'Studio', company: '<script>alert("x")</script> & Sons' },
    );
    expect(mail.html).not.toMatch(/<script|<img|href="javascript/i);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // The text part is plain text: the words as they are.
    expect(mail.text).toContain('<script>alert("x")</script> & Sons');
  });

  it('every kind has both languages, with the code or link where it has one', () => {
    for (const language of ['en', 'tr'] as const) {
      const reset = renderMail(
        'password_reset',
        language,
        { code: '654321', minutes: 10 },
        {
          product: 'P',
          company: null,
        },
      );
      expect(reset.text).toContain('654321');
      expect(reset.html).toContain('654321');
      expect(reset.text).toContain('P');
    }
    const mention = renderMail(
      'mention',
      'tr',
      { actor: 'Ada', profile: 'Jane', note: 'bak', link: 'https://studio.test/profile/1' },
      { product: 'P', company: 'Acme' },
    );
    expect(mention.subject).toBe('Ada, Jane profilinde sizden bahsetti');
    expect(mention.html).toContain('href="https://studio.test/profile/1"');
  });
});
