import { tmpdir } from 'node:os';
import { and, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyPackageReply, Payment, Plan, SessionStatus } from '#contract/payments';
import { loadConfig } from '../../server/config';
import { auditLog, paymentNotifications } from '../../server/db/schema';
import { type FakeStripe, type StripeEvent, startFakeStripe } from '../support/fakeStripe';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const KEY = 'sk_test_51FakeStripeKeyForTheStudioTests';
const SECRET = 'whsec_fake_stripe_endpoint_secret_for_tests';
const STUDIO = 'http://127.0.0.1:8080/';
/** Only its webhook helpers are used: it signs as Stripe does. */
const signer = new Stripe('sk_test_signer_only');

let fake: FakeStripe;
let t: TestApp;
let admin = '';

beforeAll(async () => {
  fake = await startFakeStripe(KEY);
  // Selected as in production: by the settings.
  const { payment } = loadConfig({
    DATA_DIR: tmpdir(),
    JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
    STRIPE_SECRET_KEY: KEY,
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: fake.url,
  });
  t = await startTestApp({ payment });
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** Acme runs a paid period: the tests confirm replacing it, as the studio's dialog does. */
const buy = (pkg: number, extra: Record<string, unknown> = {}) =>
  post<BuyPackageReply & { detail?: string }>(
    t.app,
    '/api/v2/payment/buy_package',
    { package: pkg, studio_url: STUDIO, replace_current_plan: true, ...extra },
    admin,
  );
const sessionStatus = async (sessionId: string) =>
  (await get<SessionStatus>(t.app, `/api/v2/payment/session_status?session_id=${sessionId}`, admin)).body;
const status = async (sessionId: string) => (await sessionStatus(sessionId)).status;
const plan = async () => (await get<Plan>(t.app, '/api/v2/payment/plan', admin)).body;
const history = async () =>
  (await get<{ count: number; results: Payment[] }>(t.app, '/api/v2/payment/history?limit=50', admin)).body;
const auditCount = async (action: string) =>
  (
    await t.app.ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, 1), eq(auditLog.action, action)))
  )[0]?.n ?? 0;

/** Posts a body with a Stripe-Signature header to the studio's notification route. */
async function deliver(payload: string, signature: string | undefined) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/payment/notification',
    payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
  });
  return { status: response.statusCode, body: response.json() as { detail?: string; applied?: boolean } };
}

/** Stripe's delivery of an event: the JSON signed now with the endpoint's secret by the SDK's own helper. */
const notify = (event: StripeEvent, options: { secret?: string; timestamp?: number } = {}) => {
  const payload = JSON.stringify(event);
  return deliver(
    payload,
    signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    }),
  );
};

describe('a package bought through Stripe', () => {
  it('creates a Checkout Session with the package, and is paid only after the signed completed event', async () => {
    const before = fake.requests.length;
    const { status: code, body } = await buy(2, { locale: 'tr' });
    expect(code).toBe(200);
    expect(body.checkout_url).toBe(`${fake.url}/c/pay/${body.session_id}`);
    expect(body).toMatchObject({ status: 'open', amount: 80_000, currency: 'EUR' });
    expect(fake.requests[before]).toEqual({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: `Bearer ${KEY}`,
    });
    const params = fake.created.get(body.session_id);
    expect(params).toMatchObject({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'eur',
            unit_amount: '80000',
            product_data: { name: 'Growth', description: '30 gün için 2.000 doğrulama' },
          },
        },
      ],
      client_reference_id: 'company_1',
      metadata: { company_id: '1', package_id: '2' },
      locale: 'tr',
      success_url: `${STUDIO}?session_id={CHECKOUT_SESSION_ID}`,
    });

    expect(await sessionStatus(body.session_id)).toMatchObject({ status: 'open', provider_status: 'open' });
    // The customer pays at Stripe and the browser comes back: the server reads the session back from Stripe
    // and shows that the money arrived, but only the signed event applies it.
    const completed = fake.complete(body.session_id);
    const planBefore = await plan();
    expect(await sessionStatus(body.session_id)).toMatchObject({ status: 'open', provider_status: 'paid' });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `/v1/checkout/sessions/${body.session_id}`,
    });
    expect(await plan()).toEqual(planBefore);

    expect(await notify(completed)).toEqual({ status: 200, body: { received: true, applied: true } });
    expect(await sessionStatus(body.session_id)).toMatchObject({ status: 'paid', provider_status: null });
    const after = await plan();
    expect(after.package?.name).toBe('Growth');
    expect(after.included_verifications).toBe(2000);
    const paid = (await history()).results.find((p) => p.session_id === body.session_id);
    expect(paid).toMatchObject({ status: 'paid', refunded_amount: 0, refunded_at: null });
    expect(paid?.paid_at).toBe(new Date(completed.created * 1000).toISOString());
  });

  it('applies a replayed event once: the same id again is acknowledged and changes nothing', async () => {
    const { body } = await buy(1);
    const completed = fake.complete(body.session_id);
    expect((await notify(completed)).body.applied).toBe(true);
    const planAfter = await plan();
    const changes = await auditCount('plan_changed');
    const successes = await auditCount('payment_succeeded');

    // Stripe's retry after a lost answer, or an attacker replaying a captured delivery freshly signed.
    expect(await notify(completed)).toEqual({ status: 200, body: { received: true, applied: false } });
    expect(await notify(completed)).toEqual({ status: 200, body: { received: true, applied: false } });
    expect(await plan()).toEqual(planAfter);
    expect(await auditCount('plan_changed')).toBe(changes);
    expect(await auditCount('payment_succeeded')).toBe(successes);
  });

  it('refuses a tampered, wrongly signed, stale or unsigned notification (400) and changes nothing', async () => {
    const { body } = await buy(1);
    const completed = fake.complete(body.session_id);
    const payload = JSON.stringify(completed);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const altered = payload.replace('"amount_total":25000', '"amount_total":1');
    expect(altered).not.toBe(payload);
    const refused = [
      // Signed, then altered on the way: a lower amount.
      await deliver(altered, header),
      await notify(completed, { secret: 'whsec_someone_else' }),
      // Signed 10 minutes ago (the tolerance is 5).
      await notify(completed, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      await deliver(payload, undefined),
      await deliver(payload, 't=1,v1=00'),
    ];
    for (const answer of refused) expect(answer.status).toBe(400);
    expect(refused[0]?.body.detail).toMatch(/^Invalid Stripe signature/);
    expect(refused[3]?.body.detail).toBe('Missing Stripe-Signature header');

    expect(await status(body.session_id)).toBe('open');
    const recorded = await t.app.ctx.db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.id, completed.id));
    expect(recorded).toEqual([]);
    // The genuine delivery still works afterwards.
    expect((await notify(completed)).body.applied).toBe(true);
  });

  it('does not credit a completed session that is still unpaid; the later async success does', async () => {
    const { body } = await buy(1);
    const planBefore = await plan();
    // A delayed method (a bank debit): Checkout completes with payment_status "unpaid".
    expect(await notify(fake.complete(body.session_id, 'unpaid'))).toEqual({
      status: 200,
      body: { received: true, applied: false },
    });
    expect(await status(body.session_id)).toBe('open');
    expect(await plan()).toEqual(planBefore);

    expect((await notify(fake.asyncPaymentSucceeded(body.session_id))).body.applied).toBe(true);
    expect(await status(body.session_id)).toBe('paid');
  });

  it('records an expired session as expired', async () => {
    const { body } = await buy(1);
    const expired = fake.expire(body.session_id);
    expect((await notify(expired)).body.applied).toBe(true);
    expect(await status(body.session_id)).toBe('expired');
  });

  it('shows refunds in the payment history, growing with each, a replay changing nothing', async () => {
    const { body } = await buy(1);
    await notify(fake.complete(body.session_id));
    const planPaid = await plan();

    expect((await notify(fake.refund(body.session_id, 5_000))).body.applied).toBe(true);
    let row = (await history()).results.find((p) => p.session_id === body.session_id);
    expect(row).toMatchObject({ status: 'paid', amount: 25_000, refunded_amount: 5_000 });
    expect(row?.refunded_at).not.toBeNull();

    const rest = fake.refund(body.session_id, 20_000);
    expect((await notify(rest)).body.applied).toBe(true);
    expect((await notify(rest)).body.applied).toBe(false);
    row = (await history()).results.find((p) => p.session_id === body.session_id);
    expect(row).toMatchObject({ status: 'paid', refunded_amount: 25_000 });
    expect(await auditCount('payment_refunded')).toBeGreaterThanOrEqual(2);
    // Withdrawing the plan is the operator's decision, not a side effect of the refund.
    expect(await plan()).toEqual(planPaid);
  });

  it('refuses (409) a refund that arrives before the payment it refunds, and applies its redelivery', async () => {
    const { body } = await buy(1);
    const completed = fake.complete(body.session_id);
    const refund = fake.refund(body.session_id, 2_500);
    expect(await notify(refund)).toEqual({
      status: 409,
      body: { detail: 'The refunded payment is not recorded as paid yet: deliver the refund again later' },
    });
    expect((await notify(completed)).body.applied).toBe(true);
    expect((await notify(refund)).body.applied).toBe(true);
    const row = (await history()).results.find((p) => p.session_id === body.session_id);
    expect(row).toMatchObject({ status: 'paid', refunded_amount: 2_500 });
  });

  it('acknowledges the sessions and refunds of other sales on the account without applying anything', async () => {
    const created = Math.floor(Date.now() / 1000);
    const foreign = {
      id: 'cs_test_from_the_shop',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      amount_total: 1_999,
      currency: 'usd',
      metadata: { order: 'shop-1' },
      expires_at: created + 3600,
      payment_intent: 'pi_test_from_the_shop',
      url: null,
    };
    const event = (id: string, type: string, object: Record<string, unknown>) => ({
      id,
      object: 'event' as const,
      type,
      created,
      data: { object },
    });
    const unchanged = { status: 200, body: { received: true, applied: false } };
    expect(await notify(event('evt_test_shop_1', 'checkout.session.completed', foreign))).toEqual(unchanged);
    // A refund of a charge no session of ours took (the fake knows no session of that intent).
    const charge = { id: 'ch_test_shop', object: 'charge', amount: 1_999, amount_refunded: 1_999 };
    expect(
      await notify(
        event('evt_test_shop_2', 'charge.refunded', { ...charge, payment_intent: 'pi_test_shop' }),
      ),
    ).toEqual(unchanged);
  });

  it('acknowledges events about other things without applying anything', async () => {
    const other = {
      id: 'evt_test_other_1',
      object: 'event' as const,
      type: 'payment_intent.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'pi_test_1', object: 'payment_intent' } },
    };
    expect(await notify(other)).toEqual({ status: 200, body: { received: true, applied: false } });
  });
});

describe('Stripe failing', () => {
  it('answers the studio’s 502 Remote Server Error when Stripe answers 500 or 401, recording nothing', async () => {
    const before = (await history()).count;
    const open = (await buy(1)).body.session_id;
    fake.failWith = 500;
    try {
      expect(await buy(1)).toMatchObject({ status: 502, body: { detail: 'Remote Server Error' } });
      // The status is our record's; Stripe's word is left out while Stripe cannot be asked.
      expect(await sessionStatus(open)).toMatchObject({ status: 'open', provider_status: null });
    } finally {
      fake.failWith = null;
    }
    // The key rolled in the dashboard: Stripe refuses ours.
    fake.secretKey = 'sk_test_rolled';
    try {
      expect(await buy(1)).toMatchObject({ status: 502, body: { detail: 'Remote Server Error' } });
    } finally {
      fake.secretKey = KEY;
    }
    expect((await history()).count).toBe(before + 1);
    expect((await buy(1)).status).toBe(200);
  });

  it('answers 502 to a refund Stripe cannot be asked about, so Stripe delivers it again; the retry applies it', async () => {
    const { body } = await buy(1);
    await notify(fake.complete(body.session_id));
    const refund = fake.refund(body.session_id, 1_000);
    fake.failWith = 503;
    try {
      expect(await notify(refund)).toEqual({ status: 502, body: { detail: 'Remote Server Error' } });
    } finally {
      fake.failWith = null;
    }
    const recorded = await t.app.ctx.db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.id, refund.id));
    expect(recorded).toEqual([]);
    expect((await notify(refund)).body.applied).toBe(true);
    const row = (await history()).results.find((p) => p.session_id === body.session_id);
    expect(row?.refunded_amount).toBe(1_000);
  });

  it('the fake refuses a call without the secret key, as Stripe does', async () => {
    const response = await fetch(`${fake.url}/v1/checkout/sessions/cs_test_1`, {
      headers: { authorization: 'Bearer sk_test_wrong' },
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('the Stripe settings', () => {
  const env = { DATA_DIR: tmpdir(), JWT_SECRET: 'test-secret-that-is-long-enough-0123456789' };
  it('select Stripe with both secrets, the local service with neither, and stop the start with one alone', () => {
    expect(loadConfig(env).payment.stripe).toBeUndefined();
    expect(
      loadConfig({ ...env, STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET }).payment.stripe,
    ).toEqual({
      secretKey: KEY,
      webhookSecret: SECRET,
      apiBase: undefined,
    });
    expect(() => loadConfig({ ...env, STRIPE_SECRET_KEY: KEY })).toThrow(
      'Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (STRIPE_WEBHOOK_SECRET is missing)',
    );
    expect(() => loadConfig({ ...env, STRIPE_WEBHOOK_SECRET: SECRET })).toThrow(
      'STRIPE_SECRET_KEY is missing',
    );
    expect(() =>
      loadConfig({ ...env, STRIPE_SECRET_KEY: 'pk_test_public', STRIPE_WEBHOOK_SECRET: SECRET }),
    ).toThrow('STRIPE_SECRET_KEY must be a secret key');
  });
});
