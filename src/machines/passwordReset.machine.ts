/**
 * Resetting a forgotten (or a forced) password (reset_password send and submit, docs/product/validation.md#passwords): the e-mail gets a
 * code, the code and a new password are submitted; the code can be sent again after a countdown.
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf } from './failure';
import { canResend, oneSecondLess, RESEND_AFTER_SECONDS, resendCountdown, ticker } from './resendCountdown';

export { RESEND_AFTER_SECONDS };

export interface PasswordResetContext {
  email: string;
  /** Seconds to wait before each resend. */
  resendAfter: number;
  /** Seconds left before the code may be sent again. */
  countdown: number;
  error: string | null;
}

export type PasswordResetEvent =
  | { type: 'email.submitted'; email: string }
  | { type: 'code.resend' }
  | { type: 'reset.submitted'; code: string; password: string }
  | { type: 'email.change' }
  | { type: 'tick' }
  /** The code came with a link (an invitation or a reset e-mail): go straight to the new password. */
  | { type: 'code.received'; email: string };

export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { email?: string; resendAfter?: number } | undefined,
    tags: {} as 'busy',
  },
  actors: {
    sendCode: fromPromise<void, { email: string }>(async () => {
      throw new Error('sendCode is provided by the app');
    }),
    submitReset: fromPromise<void, { email: string; otp: string; new_password: string }>(async () => {
      throw new Error('submitReset is provided by the app');
    }),
    ticker,
  },
  actions: {
    countDown: assign(({ context }) => oneSecondLess(context)),
  },
  guards: {
    canResend,
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({
    email: input?.email ?? '',
    resendAfter: input?.resendAfter ?? RESEND_AFTER_SECONDS,
    countdown: 0,
    error: null,
  }),
  initial: 'enteringEmail',
  states: {
    enteringEmail: {
      on: {
        'code.received': {
          target: 'enteringCode',
          actions: assign(({ event }) => ({ email: event.email.trim(), error: null, countdown: 0 })),
        },
        'email.submitted': {
          target: 'sending',
          actions: assign(({ event }) => ({ email: event.email.trim(), error: null })),
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: 'enteringCode',
          actions: assign(({ context }) => ({ countdown: context.resendAfter })),
        },
        onError: {
          target: 'enteringEmail',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    enteringCode: {
      ...resendCountdown('#passwordReset.resending'),
      on: {
        'reset.submitted': { target: 'submitting' },
        'email.change': { target: 'enteringEmail', actions: assign({ error: null, countdown: 0 }) },
      },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: 'enteringCode',
          actions: assign(({ context }) => ({ countdown: context.resendAfter, error: null })),
        },
        onError: {
          target: 'enteringCode',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    submitting: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'submitReset',
        src: 'submitReset',
        input: ({ context, event }) => {
          const submitted = event as Extract<PasswordResetEvent, { type: 'reset.submitted' }>;
          return { email: context.email, otp: submitted.code.trim(), new_password: submitted.password };
        },
        onDone: { target: 'done' },
        onError: {
          target: 'enteringCode',
          actions: assign(({ event }) => ({ error: failureOf(event.error).detail })),
        },
      },
    },
    done: { type: 'final' },
  },
});
