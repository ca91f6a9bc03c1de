/**
 * The return from the checkout (/return?session_id=…). The studio's server learns a payment's
 * outcome from the provider's signed notification, which may arrive after the browser: the page asks the
 * server for the session's status and, while it is still open, asks again every `pollMs` up to
 * `maxPolls` times, then waits for the user to check again. A declined or expired checkout can be tried
 * again: a new checkout session for the same package, and the browser goes there. Pure: the requests and
 * the redirect come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { BuyPackageReply, SessionStatus } from '#contract/payments';

export const RETURN_POLL_MS = 2_000;
export const RETURN_MAX_POLLS = 15;

export interface PaymentReturnContext {
  sessionId: string;
  session: SessionStatus | null;
  /** Status requests made while the session was open. */
  polls: number;
  maxPolls: number;
  pollMs: number;
  /** The last failure (the server's detail), or null. */
  error: unknown;
}

export type PaymentReturnEvent = { type: 'status.recheck' } | { type: 'checkout.retried' };

export const paymentReturnMachine = setup({
  types: {
    context: {} as PaymentReturnContext,
    events: {} as PaymentReturnEvent,
    input: {} as { sessionId: string; pollMs?: number; maxPolls?: number },
    tags: {} as 'busy' | 'pending',
  },
  actors: {
    fetchStatus: fromPromise<SessionStatus, { sessionId: string }>(async () => {
      throw new Error('fetchStatus is provided by the app');
    }),
    startCheckout: fromPromise<BuyPackageReply, { packageId: number }>(async () => {
      throw new Error('startCheckout is provided by the app');
    }),
  },
  actions: {
    /** Sends the browser to the checkout page. */
    goToCheckout: (_, _url: string) => {},
    /** The plan changed: cached plan and history are stale. */
    planChanged: () => {},
  },
  guards: {
    isPaid: (_, s: SessionStatus) => s.status === 'paid',
    isDeclined: (_, s: SessionStatus) => s.status === 'declined',
    isExpired: (_, s: SessionStatus) => s.status === 'expired',
    mayPollAgain: ({ context }) => context.polls < context.maxPolls,
    hasPackage: ({ context }) => context.session?.package != null,
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
}).createMachine({
  id: 'paymentReturn',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    session: null,
    polls: 0,
    maxPolls: input.maxPolls ?? RETURN_MAX_POLLS,
    pollMs: input.pollMs ?? RETURN_POLL_MS,
    error: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        src: 'fetchStatus',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: [
          {
            guard: { type: 'isPaid', params: ({ event }) => event.output },
            target: 'paid',
            actions: [assign({ session: ({ event }) => event.output, error: null }), 'planChanged'],
          },
          {
            guard: { type: 'isDeclined', params: ({ event }) => event.output },
            target: 'declined',
            actions: assign({ session: ({ event }) => event.output, error: null }),
          },
          {
            guard: { type: 'isExpired', params: ({ event }) => event.output },
            target: 'expired',
            actions: assign({ session: ({ event }) => event.output, error: null }),
          },
          { target: 'waiting', actions: assign({ session: ({ event }) => event.output, error: null }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    /** Open: the notification has not arrived yet; ask again shortly. */
    waiting: {
      tags: ['pending'],
      after: {
        poll: [
          {
            guard: 'mayPollAgain',
            target: 'polling',
            actions: assign({ polls: ({ context }) => context.polls + 1 }),
          },
          { target: 'pending' },
        ],
      },
      on: { 'status.recheck': { target: 'polling' } },
    },
    polling: {
      tags: ['pending'],
      invoke: {
        src: 'fetchStatus',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: [
          {
            guard: { type: 'isPaid', params: ({ event }) => event.output },
            target: 'paid',
            actions: [assign({ session: ({ event }) => event.output }), 'planChanged'],
          },
          {
            guard: { type: 'isDeclined', params: ({ event }) => event.output },
            target: 'declined',
            actions: assign({ session: ({ event }) => event.output }),
          },
          {
            guard: { type: 'isExpired', params: ({ event }) => event.output },
            target: 'expired',
            actions: assign({ session: ({ event }) => event.output }),
          },
          { target: 'waiting', actions: assign({ session: ({ event }) => event.output }) },
        ],
        // A lost answer while waiting: keep waiting (the next poll asks again).
        onError: { target: 'waiting' },
      },
    },
    /** Still open after every poll: the user checks again when they like. */
    pending: {
      tags: ['pending'],
      on: {
        'status.recheck': { target: 'checking', actions: assign({ polls: 0 }) },
      },
    },
    paid: { type: 'final' },
    declined: {
      on: { 'checkout.retried': { guard: 'hasPackage', target: 'retrying' } },
    },
    expired: {
      on: { 'checkout.retried': { guard: 'hasPackage', target: 'retrying' } },
    },
    retrying: {
      tags: ['busy'],
      invoke: {
        src: 'startCheckout',
        input: ({ context }) => ({ packageId: context.session?.package?.id ?? 0 }),
        onDone: {
          target: 'redirecting',
          actions: [
            assign({ error: null }),
            { type: 'goToCheckout', params: ({ event }) => event.output.checkout_url },
          ],
        },
        onError: { target: 'retryFailed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    /** The browser is on its way to the checkout. */
    redirecting: { tags: ['busy'] },
    retryFailed: {
      on: { 'checkout.retried': { target: 'retrying' } },
    },
    failed: {
      on: { 'status.recheck': { target: 'checking', actions: assign({ polls: 0 }) } },
    },
  },
});
