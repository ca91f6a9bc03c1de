import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../errors';

/**
 * The unpaid-company policy (docs/decisions/0107-unpaid-companies.md): services only once paid. A
 * company whose plan is not paid yet (a self-service sign-up before its checkout) may sign in, invite
 * colleagues, set up webhooks and the IP allow-list, and pay under Company settings → Plan and payment; every
 * write of a service area — customers and their profiles, documents, video calls, questionnaires — answers
 * 402 until the payment is through.
 */
export const UNPAID_DETAIL =
  'Your plan is not paid yet: services start once it is paid (Company settings → Plan and payment)';

/** The API areas of the services a plan sells (each with every route below it). */
export const SERVICE_AREAS = [
  '/api/v2/profile',
  '/api/v2/document',
  '/api/v2/videocall',
  '/api/v2/questionnaire',
];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for a route (its URL pattern) and method that use a service. */
export function isServiceWrite(method: string, url: string | undefined): boolean {
  if (!url || READS.has(method)) return false;
  return SERVICE_AREAS.some((area) => url === area || url.startsWith(`${area}/`));
}

/**
 * Installs the gate after the access hook (the caller's company is known by then). The company's status is kept
 * until the database says it changed, as the principals are: a payment or a plan's end applies from the next request.
 */
export function installPaymentGate(app: FastifyInstance, ctx: Pick<AppContext, 'db' | 'principals'>): void {
  app.addHook('preHandler', async (request) => {
    const principal = request.principal;
    if (!principal || !isServiceWrite(request.method, request.routeOptions.url)) return;
    const status = await ctx.principals.paymentStatus(ctx.db, principal.companyId);
    if (status !== 'paid') throw new HttpError(402, UNPAID_DETAIL);
  });
}
