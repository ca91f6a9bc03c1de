/**
 * Plan and payment: checkout sessions started by the studio, their outcome applied from the
 * provider's signed notifications only, and the company's plan that a paid session sets.
 */
import { and, count, desc, eq, gte, lt, lte } from 'drizzle-orm';
import type {
  BuyPackageBody,
  BuyPackageReply,
  Payment,
  PaymentStatus,
  Plan,
  SessionStatus,
} from '#contract/payments';
import { DAY_MS } from '#contract/time';
import type { ServerConfig } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { companies, packages, paymentNotifications, payments, profiles } from '../db/schema';
import { badRequest, HttpError, notFound } from '../errors';
import { corsOriginCheck } from '../http/cors';
import type { PaymentNotification, PaymentProvider } from '../integrations/payment/provider';
import { recordAudit } from './audit';
import { iso } from './format';

export const PAYMENT_DETAILS = {
  customPackage: 'A custom-priced package is agreed with us: send a price request instead',
  studioUrl: 'studio_url must be an address of this studio',
  providerDown: 'Remote Server Error',
  unknownSession: 'Unknown checkout session',
  mismatch: 'The notification does not match the checkout session',
  refundBeforePayment: 'The refunded payment is not recorded as paid yet: deliver the refund again later',
  runningPlan:
    'A paid period of your plan is still running: confirm that the new package replaces it (its remaining days and verifications end)',
} as const;

/** Whether a paid period is running now: buying another package would replace it. */
export const runsPaidPeriod = (
  company: Pick<typeof companies.$inferSelect, 'paymentStatus' | 'planPeriodEnd' | 'packageId'>,
  now = Date.now(),
) =>
  company.packageId !== null &&
  company.paymentStatus === 'paid' &&
  company.planPeriodEnd !== null &&
  company.planPeriodEnd.getTime() > now;

/**
 * Abandoned checkouts expire visibly: every open session of the company past its end becomes `expired`
 * (audited as `checkout_expired`, as the provider's notification would), swept on every read of the
 * payments so no screen keeps showing "Pending".
 */
export async function expireAbandonedCheckouts(db: Db, companyId: number, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const expired = await tx
      .update(payments)
      .set({ status: 'expired' })
      .where(
        and(eq(payments.companyId, companyId), eq(payments.status, 'open'), lte(payments.expiresAt, now)),
      )
      .returning({ id: payments.id, sessionId: payments.sessionId });
    for (const row of expired)
      await recordAudit(tx, {
        companyId,
        actorId: null,
        object: 'payment',
        objectId: row.id,
        action: 'checkout_expired',
        before: { status: 'open' },
        after: { status: 'expired', session_id: row.sessionId },
      });
  });
}

type PaymentRow = typeof payments.$inferSelect;
type PackageRow = typeof packages.$inferSelect;

/** The status the studio sees: an open session past its end is expired even before the provider says so. */
export function effectiveStatus(
  row: Pick<PaymentRow, 'status' | 'expiresAt'>,
  now = Date.now(),
): PaymentStatus {
  const status = row.status as PaymentStatus;
  if (status === 'open' && row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return status;
}

/** `studio_url` plus `session_id={CHECKOUT_SESSION_ID}` (the provider fills the id in). */
export function returnUrl(studioUrl: string): string {
  const url = new URL(studioUrl);
  url.searchParams.delete('session_id');
  const separator = url.search ? '&' : '?';
  return `${url.toString()}${separator}session_id={CHECKOUT_SESSION_ID}`;
}

/** The line item in the checkout's language: "2,000 verifications for 30 days". */
const line = (pkg: PackageRow, locale: 'en' | 'tr') => {
  const count = pkg.verifications.toLocaleString(locale === 'tr' ? 'tr-TR' : 'en-US');
  return locale === 'tr'
    ? `${pkg.periodDays} gün için ${count} doğrulama`
    : `${count} verification${pkg.verifications === 1 ? '' : 's'} for ${pkg.periodDays} days`;
};

/** POST /payment/buy_package: a checkout session at the provider and its open payment row. */
export async function startCheckout(
  db: Db,
  provider: PaymentProvider,
  config: ServerConfig,
  caller: { companyId: number; userId: number | null },
  body: BuyPackageBody,
): Promise<BuyPackageReply> {
  const [pkg] = await db.select().from(packages).where(eq(packages.id, body.package));
  if (!pkg) throw notFound();
  if (pkg.isCustom || pkg.priceCents <= 0) throw badRequest(PAYMENT_DETAILS.customPackage);
  const studio = new URL(body.studio_url);
  if (!corsOriginCheck(config)(studio.origin)) throw badRequest(PAYMENT_DETAILS.studioUrl);
  const [company] = await db.select().from(companies).where(eq(companies.id, caller.companyId));
  if (company && runsPaidPeriod(company) && body.replace_current_plan !== true)
    throw new HttpError(409, PAYMENT_DETAILS.runningPlan);

  const back = returnUrl(body.studio_url);
  let session: Awaited<ReturnType<PaymentProvider['createCheckoutSession']>>;
  try {
    session = await provider.createCheckoutSession({
      amount: pkg.priceCents,
      currency: pkg.currency,
      name: pkg.name,
      description: line(pkg, body.locale === 'tr' ? 'tr' : 'en'),
      successUrl: back,
      cancelUrl: back,
      locale: body.locale === 'tr' ? 'tr' : 'en',
      expiresAt: new Date(Date.now() + config.payment.sessionTtlSeconds * 1000),
      reference: `company_${caller.companyId}`,
      metadata: { company_id: String(caller.companyId), package_id: String(pkg.id) },
    });
  } catch (error) {
    throw Object.assign(new HttpError(502, PAYMENT_DETAILS.providerDown), { cause: error });
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payments)
      .values({
        companyId: caller.companyId,
        packageId: pkg.id,
        amountCents: session.amount,
        currency: session.currency,
        status: 'open',
        sessionId: session.id,
        checkoutUrl: session.url,
        expiresAt: session.expiresAt,
        createdBy: caller.userId,
      })
      .returning({ id: payments.id });
    await recordAudit(tx, {
      companyId: caller.companyId,
      actorId: caller.userId,
      object: 'payment',
      objectId: row?.id ?? session.id,
      action: 'checkout_started',
      after: {
        package: pkg.name,
        amount: session.amount,
        currency: session.currency,
        session_id: session.id,
      },
    });
  });
  return {
    session_id: session.id,
    checkout_url: session.url,
    status: 'open',
    amount: session.amount,
    currency: session.currency,
    expires_at: session.expiresAt.toISOString(),
  };
}

const receiptNumber = (paymentId: number, at: Date) =>
  `R-${at.getUTCFullYear()}-${String(paymentId).padStart(6, '0')}`;

/** The plan a paid session sets, in the caller's transaction. */
async function applyPlan(tx: DbOrTx, row: PaymentRow, paidAt: Date): Promise<void> {
  if (row.packageId === null) return;
  const [pkg] = await tx.select().from(packages).where(eq(packages.id, row.packageId));
  const [company] = await tx.select().from(companies).where(eq(companies.id, row.companyId)).for('update');
  if (!pkg || !company) return;
  const services = [...new Set([...company.activeServices, ...(pkg.services ?? [])])];
  const after = {
    packageId: pkg.id,
    paymentStatus: 'paid',
    planPeriodStart: paidAt,
    planPeriodEnd: new Date(paidAt.getTime() + pkg.periodDays * DAY_MS),
    planVerifications: pkg.verifications,
    activeServices: services,
    // AML screening needs a provider: the local lists unless the operator configured one.
    amlProvider: company.amlProvider ?? (services.includes('aml') ? 'Local AML lists' : null),
  };
  await tx.update(companies).set(after).where(eq(companies.id, company.id));
  await recordAudit(tx, {
    companyId: company.id,
    actorId: null,
    object: 'company',
    objectId: company.id,
    action: 'plan_changed',
    before: {
      packageId: company.packageId,
      paymentStatus: company.paymentStatus,
      planPeriodStart: company.planPeriodStart,
      planPeriodEnd: company.planPeriodEnd,
      planVerifications: company.planVerifications,
      activeServices: company.activeServices,
      amlProvider: company.amlProvider,
    },
    after: { ...after, session_id: row.sessionId },
  });
}

export type NotificationOutcome = 'applied' | 'unchanged';

/**
 * Applies one verified notification in one transaction with the record of its id: a second delivery of
 * the same id changes nothing (answered `applied: false`); a notification about a session that is already
 * closed changes nothing either (a paid session stays paid, a refund only marks it refunded).
 */
export async function applyNotification(
  db: Db,
  notification: PaymentNotification,
): Promise<NotificationOutcome> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(paymentNotifications)
      .values({ id: notification.id, type: notification.type, sessionId: notification.session.id })
      .onConflictDoNothing()
      .returning({ id: paymentNotifications.id });
    // A second delivery of one event (a retry after a lost answer, a replay) is acknowledged and changes
    // nothing: a non-2xx answer would make the provider retry it for days (docs/decisions/0158).
    if (recorded.length === 0) return 'unchanged';
    // An event about something else than a checkout session (Stripe sends what the endpoint subscribes to).
    if (notification.type === 'other') return 'unchanged';
    const [row] = await tx
      .select()
      .from(payments)
      .where(eq(payments.sessionId, notification.session.id))
      .for('update');
    if (!row) throw notFound();
    const session = notification.session;
    if (
      session.amount !== row.amountCents ||
      session.currency !== row.currency ||
      session.metadata.company_id !== String(row.companyId)
    )
      throw badRequest(PAYMENT_DETAILS.mismatch);

    if (notification.type === 'session.paid' && session.status === 'paid' && row.status !== 'paid') {
      const paidAt = session.paidAt ?? new Date();
      await tx
        .update(payments)
        .set({
          status: 'paid',
          paidAt,
          receiptNumber: receiptNumber(row.id, paidAt),
          receiptUrl: session.receiptUrl,
          failureCode: null,
        })
        .where(eq(payments.id, row.id));
      await recordAudit(tx, {
        companyId: row.companyId,
        actorId: null,
        object: 'payment',
        objectId: row.id,
        action: 'payment_succeeded',
        before: { status: row.status },
        after: { status: 'paid', receipt_number: receiptNumber(row.id, paidAt), session_id: row.sessionId },
      });
      await applyPlan(tx, row, paidAt);
      return 'applied';
    }
    if (notification.type === 'session.declined' && row.status === 'open') {
      await tx
        .update(payments)
        .set({ status: 'declined', failureCode: session.declineCode ?? 'declined' })
        .where(eq(payments.id, row.id));
      await recordAudit(tx, {
        companyId: row.companyId,
        actorId: null,
        object: 'payment',
        objectId: row.id,
        action: 'payment_declined',
        before: { status: row.status },
        after: { status: 'declined', decline_code: session.declineCode, session_id: row.sessionId },
      });
      return 'applied';
    }
    // Stripe does not keep its events in order: a refund reaching us before the payment it refunds is
    // refused (409, its id not recorded) so that the provider delivers it again after the payment.
    if (notification.type === 'session.refunded' && row.status === 'open')
      throw new HttpError(409, PAYMENT_DETAILS.refundBeforePayment);
    if (
      notification.type === 'session.refunded' &&
      row.status === 'paid' &&
      session.refundedAmount > row.refundedCents
    ) {
      // Refunds only grow (a later event names the charge's total refunded so far); the plan is left as it
      // is: withdrawing a paid period is the operator's decision, not a side effect of a refund.
      const refundedCents = Math.min(session.refundedAmount, row.amountCents);
      await tx.update(payments).set({ refundedCents, refundedAt: new Date() }).where(eq(payments.id, row.id));
      await recordAudit(tx, {
        companyId: row.companyId,
        actorId: null,
        object: 'payment',
        objectId: row.id,
        action: 'payment_refunded',
        before: { refunded: row.refundedCents },
        after: { refunded: refundedCents, session_id: row.sessionId },
      });
      return 'applied';
    }
    if (notification.type === 'session.expired' && row.status === 'open') {
      await tx.update(payments).set({ status: 'expired' }).where(eq(payments.id, row.id));
      await recordAudit(tx, {
        companyId: row.companyId,
        actorId: null,
        object: 'payment',
        objectId: row.id,
        action: 'checkout_expired',
        before: { status: row.status },
        after: { status: 'expired', session_id: row.sessionId },
      });
      return 'applied';
    }
    return 'unchanged';
  });
}

/**
 * The provider's own word on an open session, read back by this server with its secret key (never taken from
 * the browser's return): shown, not applied, since only a signed notification changes the payment. Null when
 * the provider cannot be asked now (the status answer does not depend on it).
 */
async function providerStatus(provider: PaymentProvider, sessionId: string) {
  let timer: NodeJS.Timeout | undefined;
  try {
    // The return page polls this answer: a provider slow to answer is left out rather than waited for.
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), PROVIDER_STATUS_WAIT_MS);
    });
    return await Promise.race([provider.retrieveCheckoutSession(sessionId).then((s) => s.status), late]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** How long the status answer waits for the provider's word on an open session. */
const PROVIDER_STATUS_WAIT_MS = 3_000;

/** GET /payment/session_status: only a session of the caller's company (else 404). */
export async function sessionStatus(
  db: Db,
  provider: PaymentProvider,
  companyId: number,
  sessionId: string,
): Promise<SessionStatus> {
  await expireAbandonedCheckouts(db, companyId);
  const [found] = await db
    .select({ payment: payments, packageName: packages.name })
    .from(payments)
    .leftJoin(packages, eq(packages.id, payments.packageId))
    .where(and(eq(payments.sessionId, sessionId), eq(payments.companyId, companyId)));
  if (!found) throw notFound();
  const { payment: p, packageName } = found;
  const status = effectiveStatus(p);
  return {
    session_id: p.sessionId,
    status,
    provider_status: status === 'open' ? await providerStatus(provider, p.sessionId) : null,
    package: p.packageId !== null && packageName !== null ? { id: p.packageId, name: packageName } : null,
    amount: p.amountCents,
    currency: p.currency,
    expires_at: iso(p.expiresAt),
    paid_at: iso(p.paidAt),
    receipt_number: p.receiptNumber,
    receipt_url: p.receiptUrl,
    decline_code: p.failureCode,
  };
}

/** GET /payment/history: one page, newest first. */
export async function paymentHistory(
  db: Db,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<{ total: number; results: Payment[] }> {
  await expireAbandonedCheckouts(db, companyId);
  const where = eq(payments.companyId, companyId);
  const [total, rows] = await Promise.all([
    db.select({ value: count() }).from(payments).where(where),
    db
      .select({ payment: payments, packageName: packages.name })
      .from(payments)
      .leftJoin(packages, eq(packages.id, payments.packageId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(page.limit)
      .offset(page.offset),
  ]);
  const now = Date.now();
  return {
    total: total[0]?.value ?? 0,
    results: rows.map(({ payment: p, packageName }) => ({
      id: p.id,
      package: p.packageId !== null && packageName !== null ? { id: p.packageId, name: packageName } : null,
      amount: p.amountCents,
      currency: p.currency,
      status: effectiveStatus(p, now),
      session_id: p.sessionId,
      created_at: iso(p.createdAt),
      expires_at: iso(p.expiresAt),
      paid_at: iso(p.paidAt),
      receipt_number: p.receiptNumber,
      receipt_url: p.receiptUrl,
      refunded_amount: p.refundedCents,
      refunded_at: iso(p.refundedAt),
    })),
  };
}

/** GET /payment/plan: the company's package, period and the verifications (profiles) used in it. */
export async function companyPlan(db: DbOrTx, companyId: number): Promise<Plan> {
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound();
  const [pkg] = company.packageId
    ? await db.select().from(packages).where(eq(packages.id, company.packageId))
    : [];
  let used = 0;
  if (company.planPeriodStart && company.planPeriodEnd) {
    const [row] = await db
      .select({ value: count() })
      .from(profiles)
      .where(
        and(
          eq(profiles.companyId, companyId),
          gte(profiles.createdAt, company.planPeriodStart),
          lt(profiles.createdAt, company.planPeriodEnd),
        ),
      );
    used = row?.value ?? 0;
  }
  return {
    package: pkg
      ? {
          id: pkg.id,
          name: pkg.name,
          description: pkg.description,
          verifications: pkg.verifications,
          price: pkg.priceCents,
          currency: pkg.currency,
          is_custom: pkg.isCustom,
          services: pkg.services ?? null,
          period_days: pkg.periodDays,
        }
      : null,
    payment_status: company.paymentStatus,
    period_start: iso(company.planPeriodStart),
    period_end: iso(company.planPeriodEnd),
    included_verifications: company.planVerifications,
    used_verifications: used,
  };
}
