/**
 * The sign-up's return from the hosted checkout (/create-account?session_id=…). The studio shows a new query in a
 * transition, so the query can still be on show when the flow has moved past payment (paid, signing in). The
 * return is decided once: a paid sign-up ends on its first steps, never on the plan-purchase page (/return).
 */
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { Package } from '#contract/payments';
import type { CompanyCreated, EmailVerified } from '#contract/signup';
import { createAccountMachine, type SignupOptions } from '../../src/machines/createAccount.machine';
import { clearSignup, saveSignupSnapshot } from '../../src/services/signupStore';
import { CreateAccountScreen } from '../../src/ui/screens/account/CreateAccountScreen';

const company: CompanyCreated = {
  access: 'a.b.c',
  server: 'http://127.0.0.1:9',
  company_id: 3,
  regions: [],
  user_id: 7,
  services: [],
};
const account = {
  id: 7,
  email: 'nora@newco.test',
  access: 'a.b.c',
  server: 'http://127.0.0.1:9',
  company_id: 3,
  regions: [],
  permissions: [],
  role: 'Admin',
  name: 'Nora Founder',
};

vi.mock('../../src/services/api/signup', async (original) => ({
  ...(await original<typeof import('../../src/services/api/signup')>()),
  paymentStatus: vi.fn(async () => 'paid'),
}));
vi.mock('../../src/services/api/auth', async (original) => ({
  ...(await original<typeof import('../../src/services/api/auth')>()),
  loadAccount: vi.fn(async () => account),
}));

/** The flow's stored place as it is when the browser leaves for the checkout. */
async function storedAtCheckout() {
  const actor = createActor(
    createAccountMachine.provide({
      actors: {
        register: fromPromise(async () => 'handle'),
        sendCode: fromPromise(async () => {}),
        verifyCode: fromPromise(
          async (): Promise<EmailVerified> => ({ verified: true, signup_token: 'token' }),
        ),
        loadPackages: fromPromise(async (): Promise<Package[]> => []),
        loadOptions: fromPromise(async (): Promise<SignupOptions> => ({ countries: [], industries: [] })),
        createCompany: fromPromise(async () => company),
        buyPackage: fromPromise(async () => ({
          session_id: 'cs_1',
          url: 'http://127.0.0.1:9/checkout/cs_1',
        })),
        ticker: fromCallback(() => () => {}),
      },
    }),
    { input: {} },
  ).start();
  actor.send({ type: 'account.submitted', email: account.email, password: 'Signup#2026' });
  await waitFor(actor, (s) => s.matches('code'));
  actor.send({ type: 'code.submitted', code: '123456' });
  await waitFor(actor, (s) => s.matches({ packages: 'choosing' }));
  actor.send({ type: 'package.chosen', packageId: 1 });
  await waitFor(actor, (s) => s.matches({ profile: 'editing' }));
  actor.send({
    type: 'profile.submitted',
    profile: {
      company_name: 'Newco',
      first_name: 'Nora',
      last_name: 'Founder',
      phone: '+90 212 555 00 00',
      industry: 'payments',
      country: 'TR',
    },
  });
  await waitFor(actor, (s) => s.matches({ payment: 'ready' }));
  actor.send({ type: 'payment.start' });
  await waitFor(actor, (s) => s.matches({ payment: 'atCheckout' }));
  saveSignupSnapshot(JSON.parse(JSON.stringify(actor.getPersistedSnapshot())));
  actor.stop();
}

afterEach(() => {
  clearSignup();
  localStorage.clear();
});

it('a paid return is handled once, though its query is still on show when the flow has signed in', async () => {
  await storedAtCheckout();
  const navigate = vi.fn();
  // The query never leaves the screen here, as while the studio's transition to the new URL is pending.
  const location = (): [string, typeof navigate] => ['/create-account', navigate];
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Router hook={location} searchHook={() => 'session_id=cs_1'}>
      {children}
    </Router>
  );
  render(<CreateAccountScreen />, { wrapper });

  expect(await screen.findByText('Welcome to the studio')).toBeVisible();
  expect(navigate).toHaveBeenCalledWith('/create-account', { replace: true });
  expect(navigate).not.toHaveBeenCalledWith(expect.stringContaining('/return'), expect.anything());
});
