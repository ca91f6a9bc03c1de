/**
 * Self-service account creation (docs/product/README.md, docs/product/validation.md, docs/product/api.md): e-mail and password → the e-mailed 6-digit code
 * (resend after a countdown) → package → company profile (industry and country from the payment service) →
 * payment through the hosted checkout → signed in as the new company's Admin, on the "first steps" page.
 *
 * Pure: the API, the checkout redirect and the account store come in through `provide`. The app persists the
 * snapshot after every change (the checkout leaves the page), so the context never holds the password: only
 * the register request's input carries it.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Package } from '#contract/payments';
import type { CompanyCreated, EmailVerified } from '#contract/signup';
import { failureOf } from './failure';
import { canResend, oneSecondLess, RESEND_AFTER_SECONDS, resendCountdown, ticker } from './resendCountdown';
import type { SignedInAccount } from './session.machine';

export { RESEND_AFTER_SECONDS };

/**
 * The server learns a payment's outcome from the provider's signed notification, which may come a moment
 * after the browser's return: an open payment is checked again this often, this many times.
 */
export const PAYMENT_POLL_MS = 1500;
export const PAYMENT_POLLS = 20;

/** The company profile of the sign-up (POST /stp/company). */
export interface CompanyProfile {
  company_name: string;
  first_name: string;
  last_name: string;
  phone: string;
  industry: string;
  country: string;
}

/** What the payment service offers for the profile (GET /config, GET /industry on its host). */
export interface SignupOptions {
  countries: { code: string; name: string }[];
  industries: { code: string; name: string }[];
}

export interface Checkout {
  session_id: string;
  url: string;
}

/** GET /payment/session_status. */
export type PaymentStatus = 'paid' | 'open' | 'expired' | 'declined';

export type CreateAccountError =
  /** No answer came (status 0): the step can be retried as it is. */
  | 'connection'
  | 'invalidCode'
  /** The sign-up token ran out (1 hour): start again with a new code. */
  | 'signupExpired'
  /** The code was right but no sign-up waits for this address (e.g. it was started elsewhere): register again. */
  | 'noSignup'
  | 'paymentDeclined'
  | 'paymentExpired'
  | 'server';

export interface CreateAccountContext {
  email: string;
  resendAfter: number;
  countdown: number;
  /** The handle of this browser's registration (POST /stp/register): the code is checked with it. */
  signup: string | null;
  signupToken: string | null;
  packages: Package[];
  packageId: number | null;
  options: SignupOptions | null;
  profile: CompanyProfile;
  /** The new admin's sign-in, once the company exists. */
  company: CompanyCreated | null;
  checkout: Checkout | null;
  /** Automatic checks of a payment still open after the return from the checkout. */
  polls: number;
  error: CreateAccountError | null;
  errorDetail: string | null;
}

export type CreateAccountEvent =
  | { type: 'account.submitted'; email: string; password: string }
  | { type: 'code.submitted'; code: string }
  | { type: 'code.resend' }
  | { type: 'tick' }
  | { type: 'package.chosen'; packageId: number }
  | { type: 'profile.submitted'; profile: CompanyProfile }
  | { type: 'payment.start' }
  | { type: 'checkout.returned'; sessionId: string }
  | { type: 'payment.check' }
  | { type: 'retry' }
  | { type: 'back' }
  /** Start over with another address (clears everything). */
  | { type: 'restart' };

export const EMPTY_PROFILE: CompanyProfile = {
  company_name: '',
  first_name: '',
  last_name: '',
  phone: '',
  industry: '',
  country: '',
};

/**
 * `repeatable`: the request under way only reads (the packages, the profile's options), so a snapshot taken
 * now may be restored: the restored machine asks again. Other busy states write and are never restored.
 */
type Tag = 'busy' | 'repeatable' | 'account' | 'code' | 'package' | 'profile' | 'payment' | 'done';

/** The steps in order, as the progress shows them (tags of the states). */
export const STEPS = ['account', 'code', 'package', 'profile', 'payment', 'done'] as const;
export type Step = (typeof STEPS)[number];

const errorOf = (error: unknown) => {
  const failure = failureOf(error);
  return failure.status === 0
    ? { error: 'connection' as const, errorDetail: null }
    : { error: 'server' as const, errorDetail: failure.detail };
};

const clear = { error: null, errorDetail: null } as const;

const initialContext = (resendAfter: number): CreateAccountContext => ({
  email: '',
  resendAfter,
  countdown: 0,
  signup: null,
  signupToken: null,
  packages: [],
  packageId: null,
  options: null,
  profile: EMPTY_PROFILE,
  company: null,
  checkout: null,
  polls: 0,
  ...clear,
});

export const createAccountMachine = setup({
  types: {
    context: {} as CreateAccountContext,
    events: {} as CreateAccountEvent,
    input: {} as { resendAfter?: number } | undefined,
    tags: {} as Tag,
  },
  actors: {
    register: fromPromise<string, { email: string; password: string }>(async () => {
      throw new Error('register is provided by the app');
    }),
    sendCode: fromPromise<void, { email: string }>(async () => {
      throw new Error('sendCode is provided by the app');
    }),
    verifyCode: fromPromise<EmailVerified, { email: string; otp: string; signup: string | null }>(
      async () => {
        throw new Error('verifyCode is provided by the app');
      },
    ),
    loadPackages: fromPromise<Package[], void>(async () => {
      throw new Error('loadPackages is provided by the app');
    }),
    loadOptions: fromPromise<SignupOptions, void>(async () => {
      throw new Error('loadOptions is provided by the app');
    }),
    createCompany: fromPromise<CompanyCreated, { token: string; packageId: number; profile: CompanyProfile }>(
      async () => {
        throw new Error('createCompany is provided by the app');
      },
    ),
    buyPackage: fromPromise<Checkout, { company: CompanyCreated; packageId: number }>(async () => {
      throw new Error('buyPackage is provided by the app');
    }),
    paymentStatus: fromPromise<PaymentStatus, { company: CompanyCreated; sessionId: string }>(async () => {
      throw new Error('paymentStatus is provided by the app');
    }),
    loadAccount: fromPromise<SignedInAccount, { company: CompanyCreated; email: string }>(async () => {
      throw new Error('loadAccount is provided by the app');
    }),
    ticker,
  },
  actions: {
    countDown: assign(({ context }) => oneSecondLess(context)),
    /** Leaves for the hosted checkout (provided by the app: a full page load). */
    openCheckout: (_, _url: string) => {},
    storeAccount: (_, _account: SignedInAccount) => {},
  },
  guards: {
    canResend,
    canPoll: ({ context }) => context.polls < PAYMENT_POLLS,
    hasCompany: ({ context }) => context.company !== null,
    alreadyRegistered: (_, answer: EmailVerified) => answer.already_registered === true,
    gotToken: (_, answer: EmailVerified) => typeof answer.signup_token === 'string',
    failedWith: ({ event }, status: number) =>
      failureOf((event as { error?: unknown }).error).status === status,
    isStatus: (_, given: { status: PaymentStatus; expected: PaymentStatus }) =>
      given.status === given.expected,
  },
}).createMachine({
  id: 'createAccount',
  context: ({ input }) => initialContext(input?.resendAfter ?? RESEND_AFTER_SECONDS),
  initial: 'account',
  on: {
    restart: {
      target: '.account',
      actions: assign(({ context }) => initialContext(context.resendAfter)),
    },
  },
  states: {
    account: {
      tags: ['account'],
      on: {
        'account.submitted': {
          target: 'registering',
          actions: assign(({ event }) => ({ email: event.email.trim(), ...clear })),
        },
      },
    },
    registering: {
      tags: ['account', 'busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context, event }) => ({
          email: context.email,
          password: (event as Extract<CreateAccountEvent, { type: 'account.submitted' }>).password,
        }),
        onDone: {
          target: 'code',
          actions: assign(({ context, event }) => ({
            signup: event.output,
            countdown: context.resendAfter,
            ...clear,
          })),
        },
        onError: { target: 'account', actions: assign(({ event }) => errorOf(event.error)) },
      },
    },
    code: {
      tags: ['code'],
      ...resendCountdown('#createAccount.resending'),
      on: {
        'code.submitted': { target: 'verifying', actions: assign(clear) },
        back: { target: 'account', actions: assign({ countdown: 0, ...clear }) },
      },
    },
    resending: {
      tags: ['code', 'busy'],
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: 'code',
          actions: assign(({ context }) => ({ countdown: context.resendAfter, ...clear })),
        },
        onError: { target: 'code', actions: assign(({ event }) => errorOf(event.error)) },
      },
    },
    verifying: {
      tags: ['code', 'busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => ({
          email: context.email,
          otp: (event as Extract<CreateAccountEvent, { type: 'code.submitted' }>).code.trim(),
          signup: context.signup,
        }),
        onDone: [
          {
            guard: { type: 'alreadyRegistered', params: ({ event }) => event.output },
            target: 'alreadyRegistered',
          },
          {
            guard: { type: 'gotToken', params: ({ event }) => event.output },
            target: 'packages',
            actions: assign(({ event }) => ({
              signupToken: event.output.signup_token ?? null,
              countdown: 0,
            })),
          },
          // Right code, but no sign-up waits for this address: register again.
          { target: 'account', actions: assign({ error: 'noSignup', countdown: 0 }) },
        ],
        onError: [
          {
            guard: { type: 'failedWith', params: 400 },
            target: 'code',
            actions: assign({ error: 'invalidCode', errorDetail: null }),
          },
          { target: 'code', actions: assign(({ event }) => errorOf(event.error)) },
        ],
      },
    },
    /** The proven owner of an address that already has an account: sign in or reset the password. */
    alreadyRegistered: {
      tags: ['code'],
      on: { back: { target: 'account', actions: assign({ countdown: 0, ...clear }) } },
    },
    packages: {
      tags: ['package'],
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy', 'repeatable'],
          invoke: {
            id: 'loadPackages',
            src: 'loadPackages',
            onDone: { target: 'choosing', actions: assign(({ event }) => ({ packages: event.output })) },
            onError: { target: 'failed', actions: assign(({ event }) => errorOf(event.error)) },
          },
        },
        failed: { on: { retry: { target: 'loading', actions: assign(clear) } } },
        choosing: {
          on: {
            'package.chosen': [
              // The company exists already (back from the payment): only the package of the purchase changes.
              {
                guard: 'hasCompany',
                target: '#createAccount.payment',
                actions: assign(({ event }) => ({ packageId: event.packageId, ...clear })),
              },
              {
                target: '#createAccount.profile',
                actions: assign(({ event }) => ({ packageId: event.packageId, ...clear })),
              },
            ],
          },
        },
      },
    },
    profile: {
      tags: ['profile'],
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy', 'repeatable'],
          invoke: {
            id: 'loadOptions',
            src: 'loadOptions',
            onDone: { target: 'editing', actions: assign(({ event }) => ({ options: event.output })) },
            onError: { target: 'failed', actions: assign(({ event }) => errorOf(event.error)) },
          },
        },
        failed: { on: { retry: { target: 'loading', actions: assign(clear) } } },
        editing: {
          on: {
            'profile.submitted': {
              target: '#createAccount.creatingCompany',
              actions: assign(({ event }) => ({ profile: event.profile, ...clear })),
            },
          },
        },
      },
      on: { back: { target: 'packages.choosing', actions: assign(clear) } },
    },
    creatingCompany: {
      tags: ['profile', 'busy'],
      invoke: {
        id: 'createCompany',
        src: 'createCompany',
        input: ({ context }) => ({
          token: context.signupToken ?? '',
          packageId: context.packageId ?? 0,
          profile: context.profile,
        }),
        onDone: {
          target: 'payment',
          actions: assign(({ event }) => ({ company: event.output, signupToken: null })),
        },
        onError: [
          { guard: { type: 'failedWith', params: 409 }, target: 'alreadyRegistered' },
          {
            guard: { type: 'failedWith', params: 401 },
            target: 'account',
            actions: assign({ error: 'signupExpired', errorDetail: null, signupToken: null }),
          },
          { target: 'profile.editing', actions: assign(({ event }) => errorOf(event.error)) },
        ],
      },
    },
    payment: {
      tags: ['payment'],
      initial: 'ready',
      states: {
        ready: {
          on: { 'payment.start': { target: 'starting' } },
        },
        starting: {
          tags: ['busy'],
          entry: assign(clear),
          invoke: {
            id: 'buyPackage',
            src: 'buyPackage',
            input: ({ context }) => ({
              company: context.company as CompanyCreated,
              packageId: context.packageId ?? 0,
            }),
            onDone: {
              target: 'atCheckout',
              actions: [
                assign(({ event }) => ({ checkout: event.output })),
                { type: 'openCheckout', params: ({ event }) => event.output.url },
              ],
            },
            onError: { target: 'ready', actions: assign(({ event }) => errorOf(event.error)) },
          },
        },
        /** Gone to the checkout; back here by its return address (or by the browser's Back button). */
        atCheckout: {
          on: {
            'payment.check': { target: 'checking' },
            'payment.start': { target: 'starting' },
          },
        },
        checking: {
          tags: ['busy'],
          entry: assign(clear),
          invoke: {
            id: 'paymentStatus',
            src: 'paymentStatus',
            input: ({ context }) => ({
              company: context.company as CompanyCreated,
              sessionId: context.checkout?.session_id ?? '',
            }),
            onDone: [
              {
                guard: {
                  type: 'isStatus',
                  params: ({ event }) => ({ status: event.output, expected: 'paid' }),
                },
                target: '#createAccount.signingIn',
              },
              {
                guard: {
                  type: 'isStatus',
                  params: ({ event }) => ({ status: event.output, expected: 'declined' }),
                },
                target: 'ready',
                actions: assign({ error: 'paymentDeclined' }),
              },
              {
                guard: {
                  type: 'isStatus',
                  params: ({ event }) => ({ status: event.output, expected: 'expired' }),
                },
                target: 'ready',
                actions: assign({ error: 'paymentExpired' }),
              },
              // Open: not decided yet (a second confirmation step, or the notification is on its way).
              { target: 'pending' },
            ],
            onError: { target: 'pending', actions: assign(({ event }) => errorOf(event.error)) },
          },
        },
        pending: {
          after: {
            [PAYMENT_POLL_MS]: {
              guard: 'canPoll',
              target: 'checking',
              actions: assign(({ context }) => ({ polls: context.polls + 1 })),
            },
          },
          on: {
            'payment.check': { target: 'checking', actions: assign({ polls: 0 }) },
            'payment.start': { target: 'starting' },
          },
        },
      },
      on: {
        // Back from the checkout (its return address carries the session), whichever payment step was kept.
        'checkout.returned': {
          target: '.checking',
          actions: assign(({ context, event }) => ({
            checkout: { session_id: event.sessionId, url: context.checkout?.url ?? '' },
            polls: 0,
          })),
        },
        // Another package before paying: the company stays, the purchase takes the new one.
        back: { target: 'packages.choosing', actions: assign({ checkout: null, ...clear }) },
      },
    },
    signingIn: {
      tags: ['payment', 'busy'],
      invoke: {
        id: 'loadAccount',
        src: 'loadAccount',
        input: ({ context }) => ({ company: context.company as CompanyCreated, email: context.email }),
        onDone: {
          target: 'firstSteps',
          actions: { type: 'storeAccount', params: ({ event }) => event.output },
        },
        onError: { target: 'signInFailed', actions: assign(({ event }) => errorOf(event.error)) },
      },
    },
    signInFailed: {
      tags: ['payment'],
      on: { retry: { target: 'signingIn', actions: assign(clear) } },
    },
    firstSteps: { tags: ['done'], type: 'final' },
  },
});

/** The step a snapshot is on (its tag). */
export function stepOf(snapshot: { hasTag(tag: Tag): boolean }): Step {
  return [...STEPS].reverse().find((step) => snapshot.hasTag(step)) ?? 'account';
}
