/**
 * Two-factor authentication of the signed-in user (docs/product/states.md#two-factor): not started → (password) →
 * QR code → 6-digit code → enabled; enabled → (password) → disabled. Every action asks for the account
 * password in a prompt that can be cancelled. `forced` is the setup that a 400 "Two Factor Reset Required"
 * demands: it ends when the code is verified (the session then ends).
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf } from './failure';

export const WRONG_PASSWORD = 'Wrong password';

export type TwoFactorError = 'wrongPassword' | 'invalidCode' | 'failed';

export interface TwoFactorContext {
  forced: boolean;
  /** The prompt was opened to enable (QR code) or to disable. */
  intent: 'enable' | 'disable';
  password: string;
  secret: string | null;
  error: TwoFactorError | null;
}

export type TwoFactorEvent =
  | { type: 'qr.requested' }
  | { type: 'disable.requested' }
  | { type: 'password.confirmed'; password: string }
  | { type: 'password.cancelled' }
  | { type: 'code.submitted'; code: string }
  | { type: 'setup.cancelled' }
  /** The user as loaded again (another tab, or this panel's own refresh): a steady view follows it. */
  | { type: 'mfa.loaded'; mfa: boolean };

const failedAs = (error: unknown): TwoFactorError =>
  failureOf(error).detail === WRONG_PASSWORD ? 'wrongPassword' : 'failed';

export const twoFactorMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    input: {} as { mfa: boolean; forced?: boolean },
    tags: {} as 'busy' | 'prompt',
  },
  actors: {
    /** POST /user/{id}/otp_reset { password, disable: false } → base32_secret */
    requestSecret: fromPromise<string, { password: string }>(async () => {
      throw new Error('requestSecret is provided by the app');
    }),
    /** POST /user/{id}/otp_verify { base32_secret, code, password } */
    verifyCode: fromPromise<void, { secret: string; code: string; password: string }>(async () => {
      throw new Error('verifyCode is provided by the app');
    }),
    /** POST /user/{id}/otp_reset { password, disable: true } */
    disable: fromPromise<void, { password: string }>(async () => {
      throw new Error('disable is provided by the app');
    }),
    /** Reloads the user (mfa changes). */
    refreshUser: fromPromise<void, void>(async () => {
      throw new Error('refreshUser is provided by the app');
    }),
  },
  guards: {
    isEnabled: ({ context }) => !context.forced && context.intent === 'disable',
    enabling: ({ context }) => context.intent === 'enable',
    forced: ({ context }) => context.forced,
  },
}).createMachine({
  id: 'twoFactor',
  context: ({ input }) => ({
    forced: input.forced ?? false,
    intent: input.mfa && !input.forced ? 'disable' : 'enable',
    password: '',
    secret: null,
    error: null,
  }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'isEnabled', target: 'enabled' }, { target: 'notStarted' }],
    },
    notStarted: {
      on: {
        'mfa.loaded': {
          guard: ({ context, event }) => event.mfa && !context.forced,
          target: 'enabled',
          actions: assign({ intent: 'disable' }),
        },
        'qr.requested': {
          target: 'confirmingPassword',
          actions: assign({ intent: 'enable', error: null }),
        },
      },
    },
    enabled: {
      on: {
        'mfa.loaded': {
          guard: ({ event }) => !event.mfa,
          target: 'notStarted',
          actions: assign({ intent: 'enable' }),
        },
        'disable.requested': {
          target: 'confirmingPassword',
          actions: assign({ intent: 'disable', error: null }),
        },
      },
    },
    confirmingPassword: {
      tags: ['prompt'],
      on: {
        'password.confirmed': [
          {
            guard: 'enabling',
            target: 'requestingSecret',
            actions: assign(({ event }) => ({ password: event.password, error: null })),
          },
          {
            target: 'disabling',
            actions: assign(({ event }) => ({ password: event.password, error: null })),
          },
        ],
        'password.cancelled': [
          { guard: 'enabling', target: 'notStarted', actions: assign({ error: null }) },
          { target: 'enabled', actions: assign({ error: null }) },
        ],
      },
    },
    requestingSecret: {
      tags: ['busy', 'prompt'],
      invoke: {
        id: 'requestSecret',
        src: 'requestSecret',
        input: ({ context }) => ({ password: context.password }),
        onDone: { target: 'showingQr', actions: assign(({ event }) => ({ secret: event.output })) },
        onError: [
          {
            guard: ({ event }) => failedAs(event.error) === 'wrongPassword',
            target: 'confirmingPassword',
            actions: assign({ error: 'wrongPassword', password: '' }),
          },
          { target: 'notStarted', actions: assign({ error: 'failed', password: '' }) },
        ],
      },
    },
    showingQr: {
      on: {
        'code.submitted': { target: 'verifying' },
        'setup.cancelled': {
          target: 'notStarted',
          actions: assign({ secret: null, password: '', error: null }),
        },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => ({
          secret: context.secret ?? '',
          code: (event as Extract<TwoFactorEvent, { type: 'code.submitted' }>).code.trim(),
          password: context.password,
        }),
        onDone: [
          { guard: 'forced', target: 'completed' },
          { target: 'refreshing', actions: assign({ intent: 'disable' }) },
        ],
        onError: { target: 'showingQr', actions: assign({ error: 'invalidCode' }) },
      },
    },
    disabling: {
      tags: ['busy', 'prompt'],
      invoke: {
        id: 'disable',
        src: 'disable',
        input: ({ context }) => ({ password: context.password }),
        onDone: { target: 'refreshing', actions: assign({ intent: 'enable' }) },
        onError: [
          {
            guard: ({ event }) => failedAs(event.error) === 'wrongPassword',
            target: 'confirmingPassword',
            actions: assign({ error: 'wrongPassword', password: '' }),
          },
          { target: 'enabled', actions: assign({ error: 'failed', password: '' }) },
        ],
      },
    },
    refreshing: {
      tags: ['busy'],
      entry: assign({ password: '', secret: null }),
      invoke: {
        id: 'refreshUser',
        src: 'refreshUser',
        onDone: [{ guard: 'enabling', target: 'notStarted' }, { target: 'enabled' }],
        onError: [
          { guard: 'enabling', target: 'notStarted', actions: assign({ error: 'failed' }) },
          { target: 'enabled', actions: assign({ error: 'failed' }) },
        ],
      },
    },
    completed: { type: 'final', entry: assign({ password: '', secret: null }) },
  },
});
