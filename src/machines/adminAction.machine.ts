/**
 * One administrative change of the /admin screen: add, edit, enable / disable a user, force a
 * password reset, force or reset two-factor. Every change asks for the admin's own password in a prompt
 * that can be cancelled (docs/product/validation.md); a wrong password keeps the prompt open with the server's message, any
 * other failure returns to the form (the typed values stay in the view) with the message.
 *
 * idle → (action.requested) → confirming → (password.confirmed) → submitting → idle (done)
 *                                   ↑ wrong password / failure ↲
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf } from './failure';

export type AdminActionKind =
  | 'create'
  | 'update'
  | 'enable'
  | 'disable'
  | 'forcePasswordReset'
  | 'forceMfaSetup'
  | 'resetMfa';

export interface AdminAction {
  kind: AdminActionKind;
  /** The user it applies to (null for create). */
  userId: number | null;
  /** The user's name, for the prompt's text. */
  name: string;
  /** The edited fields of create / update. */
  fields?: Record<string, unknown>;
}

export interface AdminActionContext {
  action: AdminAction | null;
  /** The server's detail of the last failure (shown in the prompt or on the form). */
  error: string | null;
  /** The last completed action, for the success message. */
  completed: AdminActionKind | null;
}

export type AdminActionEvent =
  | { type: 'action.requested'; action: AdminAction }
  | { type: 'password.confirmed'; password: string }
  | { type: 'password.cancelled' }
  | { type: 'error.dismissed' };

export const WRONG_PASSWORD = 'Wrong password';

export const adminActionMachine = setup({
  types: {
    context: {} as AdminActionContext,
    events: {} as AdminActionEvent,
    tags: {} as 'busy' | 'prompt',
  },
  actors: {
    /** Sends the change with the admin's password (POST /user, PATCH /user/{id}, POST …/reset_password). */
    perform: fromPromise<void, { action: AdminAction; password: string }>(async () => {
      throw new Error('perform is provided by the app');
    }),
  },
  actions: {
    /** A success message and a reload of the lists (provided by the view). */
    notifyDone: (_, _params: { kind: AdminActionKind }) => {},
  },
  guards: {
    wrongPassword: ({ event }) =>
      'error' in event && failureOf((event as { error: unknown }).error).detail === WRONG_PASSWORD,
  },
}).createMachine({
  id: 'adminAction',
  context: { action: null, error: null, completed: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.requested': {
          target: 'confirming',
          actions: assign({ action: ({ event }) => event.action, error: null }),
        },
        'error.dismissed': { actions: assign({ error: null }) },
      },
    },
    confirming: {
      tags: ['prompt'],
      on: {
        'password.confirmed': { target: 'submitting' },
        'password.cancelled': { target: 'idle', actions: assign({ action: null, error: null }) },
      },
    },
    submitting: {
      tags: ['prompt', 'busy'],
      invoke: {
        src: 'perform',
        input: ({ context, event }) => ({
          action: context.action as AdminAction,
          password: event.type === 'password.confirmed' ? event.password : '',
        }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ completed: ({ context }) => context.action?.kind ?? null }),
            {
              type: 'notifyDone',
              params: ({ context }) => ({ kind: (context.action as AdminAction).kind }),
            },
            assign({ action: null, error: null }),
          ],
        },
        onError: [
          {
            guard: 'wrongPassword',
            target: 'confirming',
            actions: assign({ error: ({ event }) => failureOf(event.error).detail }),
          },
          // Other failures (a taken e-mail, the last admin …): back to the form, which keeps its values.
          { target: 'idle', actions: assign({ error: ({ event }) => failureOf(event.error).detail }) },
        ],
      },
    },
  },
});
