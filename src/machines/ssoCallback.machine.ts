/**
 * The identity provider's answer on the sign-in page: posted to the server, which validates it and starts the
 * session; then the account is loaded and stored like a password sign-in's. A refusal is shown with the server's
 * words and the way back to the sign-in form. Pure: the requests, the account store and navigation come in
 * through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SsoCallbackBody, SsoCallbackResponse } from '#contract/sso';
import { failureOf } from './failure';
import type { SignedInAccount } from './session.machine';
import { readTokenClaims } from './tokenClaims';

export interface SsoCallbackContext {
  answer: SsoCallbackBody;
  session: SsoCallbackResponse | null;
  error: string | null;
}

export const ssoCallbackMachine = setup({
  types: {
    context: {} as SsoCallbackContext,
    input: {} as { answer: SsoCallbackBody },
    tags: {} as 'busy',
  },
  actors: {
    finish: fromPromise<SsoCallbackResponse, SsoCallbackBody>(async () => {
      throw new Error('finish is provided by the app');
    }),
    loadAccount: fromPromise<SignedInAccount, { login: SsoCallbackResponse; email: string }>(async () => {
      throw new Error('loadAccount is provided by the app');
    }),
  },
  actions: {
    storeAccount: (_, _account: SignedInAccount) => {},
    signedIn: (_, _returnTo: string | null) => {},
  },
}).createMachine({
  id: 'ssoCallback',
  context: ({ input }) => ({ answer: input.answer, session: null, error: null }),
  initial: 'finishing',
  states: {
    finishing: {
      tags: ['busy'],
      invoke: {
        src: 'finish',
        input: ({ context }) => context.answer,
        onDone: { target: 'loadingAccount', actions: assign(({ event }) => ({ session: event.output })) },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    loadingAccount: {
      tags: ['busy'],
      invoke: {
        src: 'loadAccount',
        input: ({ context }) => {
          const session = context.session as SsoCallbackResponse;
          const email = readTokenClaims(session.access)?.email;
          return { login: session, email: typeof email === 'string' ? email : '' };
        },
        onDone: {
          target: 'signedIn',
          actions: [
            { type: 'storeAccount', params: ({ event }) => event.output },
            { type: 'signedIn', params: ({ context }) => context.session?.return_to ?? null },
          ],
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    failed: {},
    signedIn: { type: 'final' },
  },
});
