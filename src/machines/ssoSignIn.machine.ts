/**
 * The sign-in page's e-mail step for single sign-on: while the address is typed, it asks (after a pause) whether
 * the address's company signs in through its identity provider; `sso.continued` starts the sign-in there and
 * sends the browser to the provider. Pure: the look-up, the start and the redirect come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SsoStartResponse } from '#contract/sso';
import { failureOf } from './failure';

/** How long typing pauses before the address is looked up. */
export const SSO_LOOKUP_DELAY_MS = 350;

export interface SsoSignInContext {
  email: string;
  /** The looked-up address and its answer. */
  checked: string | null;
  sso: boolean;
  returnTo: string | null;
  error: string | null;
}

export type SsoSignInEvent =
  | { type: 'email.changed'; email: string }
  | { type: 'sso.continued' }
  | { type: 'retry' };

const looksLikeEmail = (email: string) => /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/.test(email.trim());

export const ssoSignInMachine = setup({
  types: {
    context: {} as SsoSignInContext,
    events: {} as SsoSignInEvent,
    input: {} as { email?: string; returnTo?: string | null } | undefined,
    tags: {} as 'busy',
  },
  actors: {
    lookup: fromPromise<SsoStartResponse, { email: string }>(async () => {
      throw new Error('lookup is provided by the app');
    }),
    start: fromPromise<SsoStartResponse, { email: string; returnTo: string | null }>(async () => {
      throw new Error('start is provided by the app');
    }),
  },
  actions: {
    /** Sends the browser to the identity provider. */
    redirect: (_, _url: string) => {},
  },
  guards: {
    looksLikeEmail: ({ context }) => looksLikeEmail(context.email),
    alreadyChecked: ({ context }) => context.checked === context.email.trim().toLowerCase(),
  },
}).createMachine({
  id: 'ssoSignIn',
  context: ({ input }) => ({
    email: input?.email ?? '',
    checked: null,
    sso: false,
    returnTo: input?.returnTo ?? null,
    error: null,
  }),
  initial: 'typing',
  on: {
    'email.changed': {
      target: '.typing',
      reenter: true,
      actions: assign(({ event }) => ({ email: event.email, error: null })),
    },
  },
  states: {
    typing: {
      always: [{ guard: 'alreadyChecked', target: 'known' }],
      after: {
        [SSO_LOOKUP_DELAY_MS]: [
          { guard: 'looksLikeEmail', target: 'checking' },
          { target: 'known', actions: assign({ sso: false, checked: null }) },
        ],
      },
    },
    checking: {
      invoke: {
        src: 'lookup',
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: {
          target: 'known',
          actions: assign(({ context, event }) => ({
            sso: event.output.sso,
            checked: context.email.trim().toLowerCase(),
          })),
        },
        // Without an answer the password sign-in stays available.
        onError: { target: 'known', actions: assign({ sso: false, checked: null }) },
      },
    },
    known: {
      on: {
        'sso.continued': { guard: ({ context }) => context.sso, target: 'starting' },
      },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        src: 'start',
        input: ({ context }) => ({ email: context.email.trim(), returnTo: context.returnTo }),
        onDone: [
          {
            guard: ({ event }) => Boolean(event.output.sso && event.output.authorization_url),
            target: 'redirecting',
            actions: { type: 'redirect', params: ({ event }) => event.output.authorization_url as string },
          },
          { target: 'known', actions: assign({ sso: false }) },
        ],
        onError: {
          target: 'known',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    redirecting: { tags: ['busy'] },
  },
});
