/** Plan and payment (/payment/*, GET /stp/packages) and the payment service host (GET /config, /industry). */
import type { Page } from '#contract/common';
import type {
  BuyPackageReply,
  Industry,
  Package,
  Payment,
  PaymentServiceConfig,
  Plan,
  SessionStatus,
} from '#contract/payments';
import { api, paymentServiceApi } from './http';

type Options = { signal?: AbortSignal };
export type Locale = 'en-US' | 'tr';

export const paymentKeys = {
  all: ['payment'] as const,
  packages: () => ['payment', 'packages'] as const,
  plan: () => ['payment', 'plan'] as const,
  history: (limit: number) => ['payment', 'history', limit] as const,
  serviceConfig: (lang: string) => ['payment', 'service-config', lang] as const,
  industries: (lang: string) => ['payment', 'industries', lang] as const,
  companyStatus: (companyId: number) => ['payment', 'company-status', companyId] as const,
};

/** The company's payment status (GET /company/{id}, any signed-in user): `paid`, else not paid yet. */
export async function getCompanyPaymentStatus(companyId: number, { signal }: Options = {}): Promise<string> {
  const company = await api.get(`company/${companyId}`, { signal }).json<{ payment_status: string }>();
  return company.payment_status;
}

export function listPackages({ signal }: Options = {}): Promise<Package[]> {
  return api.get('stp/packages', { signal }).json<Package[]>();
}

export function getPlan({ signal }: Options = {}): Promise<Plan> {
  return api.get('payment/plan', { signal }).json<Plan>();
}

export function getPaymentHistory(limit: number, { signal }: Options = {}): Promise<Page<Payment>> {
  return api.get('payment/history', { searchParams: { limit }, signal }).json<Page<Payment>>();
}

/**
 * POST /payment/buy_package: a checkout session for the package. The checkout sends the browser back to
 * `studioUrl` with `?session_id=…` (the root path forwards it to /return).
 */
export function buyPackage(
  packageId: number,
  studioUrl: string,
  locale: Locale,
  { signal, replaceCurrentPlan }: Options & { replaceCurrentPlan?: boolean } = {},
): Promise<BuyPackageReply> {
  const json = {
    package: packageId,
    studio_url: studioUrl,
    locale,
    ...(replaceCurrentPlan ? { replace_current_plan: true } : {}),
  };
  return api.post('payment/buy_package', { json, signal }).json<BuyPackageReply>();
}

export function getSessionStatus(sessionId: string, { signal }: Options = {}): Promise<SessionStatus> {
  return api
    .get('payment/session_status', { searchParams: { session_id: sessionId }, retry: 0, signal })
    .json<SessionStatus>();
}

/** A custom-price request (from 1000 verifications) goes to the provider's support (POST /support/contact-us). */
export async function requestCustomPrice(
  body: { email: string; message: string; page: string },
  { signal }: Options = {},
): Promise<void> {
  await api.post('support/contact-us', { json: body, signal });
}

/** GET /config on the payment service host: currencies, countries, the minimum commitment. */
export function getPaymentServiceConfig(
  lang: string,
  { signal }: Options = {},
): Promise<PaymentServiceConfig> {
  return paymentServiceApi().get('config', { searchParams: { lang }, signal }).json<PaymentServiceConfig>();
}

/** GET /industry on the payment service host. */
export function getIndustries(lang: string, { signal }: Options = {}): Promise<Industry[]> {
  return paymentServiceApi().get('industry', { searchParams: { lang }, signal }).json<Industry[]>();
}
