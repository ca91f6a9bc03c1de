/**
 * Self-service account creation (docs/product/api.md): stp/register, user/email_otp send and submit, stp/packages and
 * stp/company on the company server of the login host (signed out there is no other yet), and the purchase of
 * the chosen package with the new admin's token before that account is stored.
 */
import ky from 'ky';
import type { Package } from '#contract/payments';
import type { CompanyBody, CompanyCreated, EmailVerified } from '#contract/signup';
import type { Checkout, PaymentStatus, SignupOptions } from '../../machines/createAccount.machine';
import { studioConfig } from '../config';
import { ApiError, publicApi } from './http';

type Options = { signal?: AbortSignal };

const signupServer = () => publicApi(studioConfig().loginHost);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Answers this registration's handle (POST /user/email_otp/submit needs it with the code). */
export async function register(body: { email: string; password: string }, { signal }: Options = {}) {
  const answer = await signupServer()
    .post('stp/register', { json: body, signal, retry: 0 })
    .json<{ signup: string }>();
  return answer.signup;
}

export async function sendVerificationCode({ email }: { email: string }, { signal }: Options = {}) {
  await signupServer().post('user/email_otp/send', { json: { email }, signal, retry: 0 });
}

export function verifyEmail(
  { signup, ...body }: { email: string; otp: string; signup: string | null },
  { signal }: Options = {},
) {
  const json = signup ? { ...body, signup } : body;
  return signupServer().post('user/email_otp/submit', { json, signal, retry: 0 }).json<EmailVerified>();
}

export function getPackages({ signal }: Options = {}) {
  return signupServer().get('stp/packages', { signal }).json<Package[]>();
}

export function createCompany(token: string, body: CompanyBody, { signal }: Options = {}) {
  // Not retried by ky: the sign-up token is single use (a second call answers 401).
  return signupServer()
    .post('stp/company', { json: body, headers: bearer(token), signal, retry: 0 })
    .json<CompanyCreated>();
}

/** POST /payment/buy_package as the new admin, back to `studioUrl?session_id=…` after the checkout. */
export async function buyPackage(
  company: CompanyCreated,
  body: { package: number; studio_url: string; locale: 'en-US' | 'tr' },
  { signal }: Options = {},
): Promise<Checkout> {
  const answer = await publicApi(company.server)
    .post('payment/buy_package', { json: body, headers: bearer(company.access), signal, retry: 0 })
    .json<{ session_id: string; url?: string; checkout_url?: string }>();
  return { session_id: answer.session_id, url: answer.checkout_url ?? answer.url ?? '' };
}

/** GET /payment/session_status?session_id as the new admin. */
export async function paymentStatus(
  company: CompanyCreated,
  sessionId: string,
  { signal }: Options = {},
): Promise<PaymentStatus> {
  const answer = await publicApi(company.server)
    .get('payment/session_status', {
      searchParams: { session_id: sessionId },
      headers: bearer(company.access),
      signal,
    })
    .json<{ status: PaymentStatus }>();
  return answer.status;
}

/** The payment service's host (GET /config and GET /industry live there), from the runtime config. */
function paymentServiceUrl(): string {
  const given = (globalThis as { __STUDIO_CONFIG__?: { paymentServiceUrl?: string } }).__STUDIO_CONFIG__;
  return (given?.paymentServiceUrl ?? '').replace(/\/+$/, '');
}

type Named = { code: string; name: string };

/** Countries (GET /config) and industries (GET /industry) of the payment service, in the studio's language. */
export async function getSignupOptions(lang: string, { signal }: Options = {}): Promise<SignupOptions> {
  const host = paymentServiceUrl();
  if (!host) throw new ApiError(0, 'Remote Server Error');
  const service = ky.create({ prefix: host, timeout: 30_000, retry: { limit: 1 } });
  try {
    const [config, industries] = await Promise.all([
      service.get('config', { searchParams: { lang }, signal }).json<{ countries: Named[] }>(),
      service.get('industry', { searchParams: { lang }, signal }).json<Named[]>(),
    ]);
    return { countries: config.countries, industries };
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Remote Server Error');
  }
}
