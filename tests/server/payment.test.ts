import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuyPackageReply, Payment, Plan, SessionStatus } from '#contract/payments';
import { DAY_MS } from '#contract/time';
import { buildPaymentService } from '../../payment-service/app';
import type { PaymentEvent } from '../../payment-service/notifier';
import { TEST_CARDS } from '../../payment-service/sessions';
import { auditLog, companies, paymentNotifications, payments } from '../../server/db/schema';
import { createLocalPaymentProvider } from '../../server/integrations/payment/localProvider';
import { signedHeaders } from '../../server/integrations/webhooks/signer';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const API_KEY = 'sk_test_payment-test-key';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const STUDIO = 'http://127.0.0.1:8080/';

let t: TestApp;
let service: FastifyInstance;
/** The payment service's clock runs this far ahead of real time (expiry tests move it). */
let clockOffset = 0;
const tokens = { admin: '', user: '', globex: '' };

/** The adapter's HTTP calls go to the in-process payment service (no port). */
let serviceDown = false;
const serviceFetch: typeof fetch = async (input, init) => {
  if (serviceDown) throw new Error('connection refused');
  const url = new URL(String(input));
  const response = await service.inject({
    method: (init?.method ?? 'GET') as 'GET' | 'POST',
    url: url.pathname + url.search,
    headers: init?.headers as Record<string, string>,
    payload: init?.body as string | undefined,
  });
  return new Response(response.body, { status: response.statusCode });
};

/** Delivers a notification body with headers to the studio's server; answers status and body. */
async function notify(body: string, headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/payment/notification',
    payload: body,
    headers: { ...headers, 'content-type': 'application/json' },
  });
  return { status: response.statusCode, body: response.json() as { detail?: string; applied?: boolean } };
}

beforeAll(async () => {
  service = await buildPaymentService({
    publicUrl: 'http://payment.test',
    apiKey: API_KEY,
    webhookSecret: SECRET,
    notifyUrl: 'http://studio.test/api/v2/payment/notification',
    retrySchedule: [],
    now: () => Date.now() + clockOffset,
    logLevel: 'silent',
    // The service's clock may run ahead (expiry tests): its notifications are signed at the real time, as
    // two servers with synchronised clocks would.
    deliver: async (_url, body, headers) =>
      (
        await notify(
          body,
          signedHeaders([SECRET], headers['webhook-id'] ?? '', Math.floor(Date.now() / 1000), body),
        )
      ).status,
  });
  const payment = {
    serviceUrl: 'http://payment.test',
    apiKey: API_KEY,
    webhookSecret: SECRET,
    sessionTtlSeconds: 1800,
    toleranceSeconds: 300,
    stripe: undefined,
  };
  t = await startTestApp(
    { payment },
    { paymentProvider: createLocalPaymentProvider({ ...payment, fetch: serviceFetch }) },
  );
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
});
afterAll(async () => {
  await t.close();
  await service.close();
});
beforeEach(() => {
  clockOffset = 0;
});

/** Acme's plan runs a paid period: the checkout tests confirm replacing it, as the studio's dialog does. */
const buy = (
  pkg: number,
  token = tokens.admin,
  extra: Record<string, unknown> = { replace_current_plan: true },
) =>
  post<BuyPackageReply & { detail?: string }>(
    t.app,
    '/api/v2/payment/buy_package',
    { package: pkg, studio_url: STUDIO, ...extra },
    token,
  );

const status = (sessionId: string, token = tokens.admin) =>
  get<SessionStatus & { detail?: string }>(
    t.app,
    `/api/v2/payment/session_status?session_id=${encodeURIComponent(sessionId)}`,
    token,
  );

/** The customer's browser on the checkout page: submits the card form. */
async function pay(sessionId: string, card: string, fields: Record<string, string> = {}) {
  const form = new URLSearchParams({
    card_number: card,
    expiry: '12/34',
    cvc: '123',
    name: 'Ada Lovelace',
    ...fields,
  });
  const response = await service.inject({
    method: 'POST',
    url: `/checkout/${sessionId}/pay`,
    payload: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await service.payment.notifier.idle();
  return response;
}

const plan = async () => (await get<Plan>(t.app, '/api/v2/payment/plan', tokens.admin)).body;
const auditCount = async (action: string) =>
  (
    await t.app.ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, 1), eq(auditLog.action, action)))
  )[0]?.n ?? 0;

/** The last notification the payment service sent. */
const lastEvent = (): PaymentEvent => {
  const sent = service.payment.notifier.sent();
  const entry = sent[sent.length - 1];
  if (!entry) throw new Error('no notification sent');
  return entry.event;
};

describe('the payment service', () => {
  it('answers GET /config and GET /industry in both languages, readable from the studio', async () => {
    const config = await service.inject({ method: 'GET', url: '/config?lang=tr' });
    expect(config.statusCode).toBe(200);
    expect(config.headers['access-control-allow-origin']).toBe('*');
    const body = config.json() as {
      currencies: string[];
      countries: { code: string; name: string }[];
      minimum_commitment: { verifications: number };
    };
    expect(body.currencies).toContain('EUR');
    expect(body.minimum_commitment.verifications).toBe(1000);
    expect(body.countries.find((c) => c.code === 'DE')?.name).toBe('Almanya');
    const industries = (await service.inject({ method: 'GET', url: '/industry' })).json() as {
      code: string;
      name: string;
    }[];
    expect(industries.find((i) => i.code === 'banking')?.name).toBe('Banking');
  });

  it('refuses the merchant API without the API key', async () => {
    const response = await service.inject({ method: 'POST', url: '/v1/checkout/sessions', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('shows the test cards on an accessible checkout page in the language asked for', async () => {
    const { body } = await buy(1, tokens.admin, { locale: 'tr', replace_current_plan: true });
    const page = await service.inject({ method: 'GET', url: `/checkout/${body.session_id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="tr">');
    expect(page.body).toContain('<label for="card_number">Kart numarası</label>');
    for (const card of Object.values(TEST_CARDS))
      expect(page.body).toContain(card.replace(/(\d{4})(?=\d)/g, '$1 '));
    const english = await service.inject({ method: 'GET', url: `/checkout/${body.session_id}?lang=en` });
    expect(english.body).toContain('<label for="card_number">Card number</label>');
  });

  it('is headed by what is bought, the package and its price, and describes it in the checkout’s language', async () => {
    for (const [locale, heading, title, line, seller] of [
      [
        'en-US',
        'Growth · €800.00',
        'Growth · €800.00 · Checkout',
        '2,000 verifications for 30 days',
        'Sold by IDV Studio',
      ],
      [
        'tr',
        'Growth · €800,00',
        'Growth · €800,00 · Ödeme',
        '30 gün için 2.000 doğrulama',
        'Satıcı: IDV Studio',
      ],
    ] as const) {
      const { body } = await buy(2, tokens.admin, { locale, replace_current_plan: true });
      const page = await service.inject({ method: 'GET', url: `/checkout/${body.session_id}` });
      const text = page.body.replace(/\u00a0/g, ' ');
      expect(text).toContain(`<h1 id="summary-title">${heading}</h1>`);
      expect(text).toContain(`<title>${title}</title>`);
      expect(text).toContain(`<p>${line}</p>`);
      expect(text).toContain(seller);
      expect(text).not.toContain('Pay IDV Studio');
    }
  });

  it('re-renders the form with messages for an unknown card or bad fields, changing nothing', async () => {
    const { body } = await buy(1);
    const response = await pay(body.session_id, '4111111111111111', { expiry: '01/20', cvc: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('role="alert"');
    expect(response.body).toContain('aria-invalid="true"');
    expect((await status(body.session_id)).body.status).toBe('open');
  });
});

describe('checkout sessions (POST /payment/buy_package, GET /payment/session_status)', () => {
  it('open → paid: the plan changes only when the signed notification arrives', async () => {
    // The running period started a minute ago: another test's payment may have started it this very second
    // (periods are kept to the second), and the new period must start visibly later.
    const [running] = await t.app.ctx.db.select().from(companies).where(eq(companies.id, 1));
    await t.app.ctx.db
      .update(companies)
      .set({ planPeriodStart: new Date((running?.planPeriodStart ?? new Date()).getTime() - 60_000) })
      .where(eq(companies.id, 1));
    const before = await plan();
    const { status: code, body } = await buy(1);
    expect(code).toBe(200);
    expect(body.checkout_url).toBe(`http://payment.test/checkout/${body.session_id}`);
    expect(body).toMatchObject({ status: 'open', amount: 25_000, currency: 'EUR' });
    expect((await status(body.session_id)).body.status).toBe('open');

    const response = await pay(body.session_id, TEST_CARDS.succeeds);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${STUDIO}?session_id=${body.session_id}`);

    const paid = (await status(body.session_id)).body;
    expect(paid).toMatchObject({ status: 'paid', package: { id: 1, name: 'Starter' } });
    expect(paid.receipt_number).toMatch(/^R-\d{4}-\d{6}$/);
    expect(paid.receipt_url).toBe(`http://payment.test/receipts/${body.session_id}`);
    const after = await plan();
    expect(after.package?.name).toBe('Starter');
    expect(after.included_verifications).toBe(500);
    expect(after.payment_status).toBe('paid');
    expect(after.period_start).not.toBe(before.period_start);
    expect(Date.parse(after.period_end ?? '') - Date.parse(after.period_start ?? '')).toBe(30 * DAY_MS);
    // The package's services are in the company config (added, none taken away).
    const [company] = await t.app.ctx.db.select().from(companies).where(eq(companies.id, 1));
    expect(company?.activeServices).toEqual(expect.arrayContaining(['verification', 'video_kyc', 'aml']));
    const receipt = await service.inject({ method: 'GET', url: `/receipts/${body.session_id}` });
    expect(receipt.statusCode).toBe(200);
  });

  it('declined: nothing changes on the plan; buying again and paying succeeds (buy, decline, buy again)', async () => {
    const planBefore = await plan();
    const first = (await buy(2)).body;
    const declined = await pay(first.session_id, TEST_CARDS.declined);
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(`${STUDIO}?session_id=${first.session_id}`);
    const s1 = (await status(first.session_id)).body;
    expect(s1).toMatchObject({ status: 'declined', decline_code: 'card_declined', receipt_number: null });
    expect(await plan()).toEqual(planBefore);
    // The declined session cannot be paid afterwards.
    expect((await pay(first.session_id, TEST_CARDS.succeeds)).statusCode).toBe(409);
    expect((await status(first.session_id)).body.status).toBe('declined');

    const second = (await buy(2)).body;
    expect(second.session_id).not.toBe(first.session_id);
    await pay(second.session_id, TEST_CARDS.succeeds);
    expect((await status(second.session_id)).body.status).toBe('paid');
    expect((await plan()).package?.name).toBe('Growth');

    const history = (
      await get<{ count: number; results: Payment[] }>(t.app, '/api/v2/payment/history', tokens.admin)
    ).body;
    const mine = history.results.filter((p) => [first.session_id, second.session_id].includes(p.session_id));
    expect(mine.map((p) => [p.session_id, p.status])).toEqual([
      [second.session_id, 'paid'],
      [first.session_id, 'declined'],
    ]);
    expect(mine[0]?.receipt_number).toMatch(/^R-/);
    expect(mine[1]?.receipt_number).toBeNull();
  });

  it('the card that needs a second confirmation: pending until confirmed, declined when it fails', async () => {
    const ok = (await buy(1)).body;
    const step = await pay(ok.session_id, TEST_CARDS.authenticate);
    expect(step.statusCode).toBe(303);
    expect(step.headers.location).toBe(`/checkout/${ok.session_id}/authenticate?lang=en`);
    expect((await status(ok.session_id)).body.status).toBe('open');
    const confirm = async (id: string, result: 'complete' | 'fail') => {
      const response = await service.inject({
        method: 'POST',
        url: `/checkout/${id}/authenticate`,
        payload: `result=${result}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      await service.payment.notifier.idle();
      return response;
    };
    expect((await confirm(ok.session_id, 'complete')).statusCode).toBe(303);
    expect((await status(ok.session_id)).body.status).toBe('paid');

    const bad = (await buy(1)).body;
    await pay(bad.session_id, TEST_CARDS.authenticate);
    await confirm(bad.session_id, 'fail');
    expect((await status(bad.session_id)).body).toMatchObject({
      status: 'declined',
      decline_code: 'authentication_failed',
    });
  });

  it('expired: the session closes at its end and cannot be paid after', async () => {
    const { body } = await buy(1);
    clockOffset = 31 * 60_000;
    service.payment.sweep();
    await service.payment.notifier.idle();
    expect(lastEvent().type).toBe('checkout.session.expired');
    expect((await status(body.session_id)).body.status).toBe('expired');
    const late = await pay(body.session_id, TEST_CARDS.succeeds);
    expect(late.statusCode).toBe(409);
    expect((await status(body.session_id)).body.status).toBe('expired');
  });

  it('an abandoned checkout is recorded and listed as expired once its time is up (swept on read)', async () => {
    const { body } = await buy(1);
    const history = async () =>
      (await get<{ results: Payment[] }>(t.app, '/api/v2/payment/history?limit=50', tokens.admin)).body
        .results;
    const listed = (await history()).find((p) => p.session_id === body.session_id);
    expect(listed).toMatchObject({ status: 'open', expires_at: body.expires_at });
    const expiredBefore = await auditCount('checkout_expired');
    // The provider's notification never comes (the browser left; the service is silent): the time runs out.
    await t.app.ctx.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.sessionId, body.session_id));
    expect((await history()).find((p) => p.session_id === body.session_id)?.status).toBe('expired');
    const [row] = await t.app.ctx.db.select().from(payments).where(eq(payments.sessionId, body.session_id));
    expect(row?.status).toBe('expired');
    expect(await auditCount('checkout_expired')).toBe(expiredBefore + 1);
    // A second read changes nothing more.
    await history();
    expect(await auditCount('checkout_expired')).toBe(expiredBefore + 1);
  });

  it('while a paid period runs, another package is refused (409) unless the caller confirms replacing it', async () => {
    // The running period started a minute ago (the earlier tests' payments may have started it this very
    // second): the replacement's new period then starts visibly later.
    const [company] = await t.app.ctx.db.select().from(companies).where(eq(companies.id, 1));
    await t.app.ctx.db
      .update(companies)
      .set({ planPeriodStart: new Date((company?.planPeriodStart ?? new Date()).getTime() - 60_000) })
      .where(eq(companies.id, 1));
    const before = await plan();
    expect(before.payment_status).toBe('paid');
    expect(Date.parse(before.period_end ?? '')).toBeGreaterThan(Date.now());
    const started = await auditCount('checkout_started');
    for (const extra of [{}, { replace_current_plan: false }]) {
      const refused = await buy(2, tokens.admin, extra);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/still running: confirm that the new package replaces it/);
    }
    expect(await auditCount('checkout_started')).toBe(started);
    expect(await plan()).toEqual(before);

    const confirmed = await buy(2, tokens.admin, { replace_current_plan: true });
    expect(confirmed.status).toBe(200);
    await pay(confirmed.body.session_id, TEST_CARDS.succeeds);
    const after = await plan();
    expect(after.package?.name).toBe('Growth');
    expect(Date.parse(after.period_start ?? '')).toBeGreaterThan(Date.parse(before.period_start ?? ''));
    expect(after.included_verifications).toBe(2000);
  });

  it('a company without a running paid period buys without confirming anything', async () => {
    await t.app.ctx.db.update(companies).set({ paymentStatus: 'unpaid' }).where(eq(companies.id, 2));
    try {
      const { status: code } = await buy(1, tokens.globex, {});
      expect(code).toBe(200);
    } finally {
      await t.app.ctx.db.update(companies).set({ paymentStatus: 'paid' }).where(eq(companies.id, 2));
    }
  });

  it('cancel on the checkout page expires the session and returns to the studio', async () => {
    const { body } = await buy(1);
    const response = await service.inject({
      method: 'POST',
      url: `/checkout/${body.session_id}/cancel`,
      payload: 'lang=tr',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await service.payment.notifier.idle();
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${STUDIO}?session_id=${body.session_id}`);
    expect((await status(body.session_id)).body.status).toBe('expired');
  });

  it('session_status is company-checked and needs the company page', async () => {
    const { body } = await buy(1);
    const other = await status(body.session_id, tokens.globex);
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe('Not found.');
    expect((await status(body.session_id, tokens.user)).status).toBe(403);
    expect((await get(t.app, `/api/v2/payment/session_status?session_id=${body.session_id}`)).status).toBe(
      401,
    );
    expect((await get(t.app, '/api/v2/payment/session_status', tokens.admin)).status).toBe(400);
    expect((await status('cs_test_unknown')).status).toBe(404);
    // Globex's history does not list Acme's sessions.
    const history = await get<{ results: Payment[] }>(t.app, '/api/v2/payment/history', tokens.globex);
    expect(history.body.results.some((p) => p.session_id === body.session_id)).toBe(false);
  });

  it('refuses a custom-priced package, an unknown one, a foreign return address and bad bodies', async () => {
    const custom = await buy(3);
    expect(custom.status).toBe(400);
    expect(custom.body.detail).toMatch(/custom-priced/);
    expect((await buy(999)).status).toBe(404);
    const foreign = await post<{ detail: string }>(
      t.app,
      '/api/v2/payment/buy_package',
      { package: 1, studio_url: 'https://evil.example/' },
      tokens.admin,
    );
    expect(foreign).toMatchObject({
      status: 400,
      body: { detail: 'studio_url must be an address of this studio' },
    });
    for (const bad of [
      {},
      { package: 'x', studio_url: STUDIO },
      { package: 1, studio_url: 'javascript:alert(1)' },
    ]) {
      const response = await post<{ detail: string }>(
        t.app,
        '/api/v2/payment/buy_package',
        bad,
        tokens.admin,
      );
      expect(response.status).toBe(400);
      expect(response.body.detail).toBeTruthy();
    }
    expect((await buy(1, tokens.user)).status).toBe(403);
  });
});

describe('signed notifications (POST /payment/notification)', () => {
  it('are Standard Webhooks: the reference library verifies what the payment service sends', async () => {
    const { body } = await buy(1);
    await pay(body.session_id, TEST_CARDS.declined);
    const event = lastEvent();
    const raw = JSON.stringify(event);
    const headers = signedHeaders([SECRET], event.id, Math.floor(Date.now() / 1000), raw);
    expect(new Webhook(SECRET).verify(raw, headers)).toMatchObject({ id: event.id });
  });

  it('refuse a forged signature or an altered body, changing nothing', async () => {
    const { body } = await buy(1);
    await service.inject({ method: 'GET', url: `/checkout/${body.session_id}` });
    const session = (
      await service.inject({
        method: 'GET',
        url: `/v1/checkout/sessions/${body.session_id}`,
        headers: { authorization: `Bearer ${API_KEY}` },
      })
    ).json() as Record<string, unknown>;
    const forgedEvent = {
      id: 'evt_forged_1',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, status: 'complete', payment_status: 'paid', completed_at: 1 } },
    };
    const raw = JSON.stringify(forgedEvent);
    const now = Math.floor(Date.now() / 1000);
    const forged = await notify(
      raw,
      signedHeaders(['whsec_d3JvbmctZm9yZ2VkLXNlY3JldC0xMjM0NTY3OA=='], 'evt_forged_1', now, raw),
    );
    expect(forged).toEqual({ status: 400, body: { detail: 'Invalid webhook signature' } });
    const unsigned = await notify(raw, {});
    expect(unsigned.status).toBe(400);
    // A real signature over another body does not carry over to an altered one.
    const signed = signedHeaders(
      [SECRET],
      'evt_forged_1',
      now,
      JSON.stringify({ ...forgedEvent, type: 'x' }),
    );
    expect((await notify(raw, signed)).status).toBe(400);

    expect((await status(body.session_id)).body.status).toBe('open');
    const recorded = await t.app.ctx.db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.id, 'evt_forged_1'));
    expect(recorded).toEqual([]);
  });

  it('refuse a replayed one (same id) or an old one, and retries change nothing', async () => {
    const { body } = await buy(2);
    await pay(body.session_id, TEST_CARDS.succeeds);
    const event = lastEvent();
    expect(event.type).toBe('checkout.session.completed');
    const paid = (await status(body.session_id)).body;
    const planAfter = await plan();
    const planChanges = await auditCount('plan_changed');
    const raw = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);

    // The same id again, freshly and validly signed (a replay, or a retry after a lost answer): acknowledged
    // (a non-2xx answer would make the provider deliver it again for days), nothing applied.
    const replay = await notify(raw, signedHeaders([SECRET], event.id, now, raw));
    expect(replay).toEqual({ status: 200, body: { received: true, applied: false } });
    // Signed, but 10 minutes old: refused.
    const oldEvent = JSON.stringify({ ...event, id: 'evt_old_1' });
    const old = await notify(oldEvent, signedHeaders([SECRET], 'evt_old_1', now - 600, oldEvent));
    expect(old).toEqual({ status: 400, body: { detail: 'Webhook timestamp too old or too new' } });
    // A new event about the already-paid session (a provider's duplicate): accepted, nothing applied.
    const duplicate = JSON.stringify({ ...event, id: 'evt_dup_1' });
    expect(await notify(duplicate, signedHeaders([SECRET], 'evt_dup_1', now, duplicate))).toEqual({
      status: 200,
      body: { received: true, applied: false },
    });
    // A late decline of the paid session does not undo it.
    const lateDecline = JSON.stringify({
      ...event,
      id: 'evt_late_decline',
      type: 'checkout.session.payment_failed',
    });
    expect(
      (await notify(lateDecline, signedHeaders([SECRET], 'evt_late_decline', now, lateDecline))).body.applied,
    ).toBe(false);

    expect((await status(body.session_id)).body).toEqual(paid);
    expect(await plan()).toEqual(planAfter);
    expect(await auditCount('plan_changed')).toBe(planChanges);
  });

  it('refuse a notification whose amount does not match the session', async () => {
    const { body } = await buy(1);
    await pay(body.session_id, TEST_CARDS.declined);
    const event = lastEvent();
    const tampered = JSON.stringify({
      ...event,
      id: 'evt_tampered',
      data: { object: { ...event.data.object, amount_total: 1 } },
    });
    const now = Math.floor(Date.now() / 1000);
    expect((await notify(tampered, signedHeaders([SECRET], 'evt_tampered', now, tampered))).status).toBe(400);
  });
});

describe('provider failures', () => {
  it('answers 502 Remote Server Error when the payment service cannot be reached, recording nothing', async () => {
    const history = async () =>
      (await get<{ count: number }>(t.app, '/api/v2/payment/history', tokens.admin)).body.count;
    const before = await history();
    serviceDown = true;
    try {
      const response = await buy(1);
      expect(response).toMatchObject({ status: 502, body: { detail: 'Remote Server Error' } });
    } finally {
      serviceDown = false;
    }
    expect(await history()).toBe(before);
    expect((await buy(1)).status).toBe(200);
  });
});
