/**
 * Reviewing a profile's AML result (docs/product/README.md, docs/product/api.md): running a new check and approving the result. Approving
 * is a deliberate step: it asks for confirmation first. A refusal (403) becomes the AML permission message
 * of docs/product/roles.md#services, shown until the user dismisses it or tries again. Pure: requests and notices come in through
 * `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';

export type AmlFailureKind = 'noPermission' | 'disabled' | 'failed';
export interface AmlFailure {
  kind: AmlFailureKind;
  /** The server's detail (for `failed`). */
  detail: string | null;
}

/** The detail the server gives when the company has no AML provider. */
export const AML_DISABLED_DETAIL = 'AML is not enabled for this company';

/** What went wrong, from an ApiError-like `{ status, detail }`. */
export function amlFailureOf(error: unknown): AmlFailure {
  const { status, detail } = (error ?? {}) as { status?: unknown; detail?: unknown };
  const text = typeof detail === 'string' && detail ? detail : null;
  if (status === 403)
    return { kind: text === AML_DISABLED_DETAIL ? 'disabled' : 'noPermission', detail: text };
  return { kind: 'failed', detail: text };
}

export interface AmlReviewContext {
  profileId: number;
  failure: AmlFailure | null;
}

export type AmlReviewEvent =
  | { type: 'check.requested' }
  | { type: 'approve.requested' }
  | { type: 'approve.confirmed' }
  | { type: 'approve.cancelled' }
  | { type: 'failure.dismissed' };

export const amlReviewMachine = setup({
  types: {
    context: {} as AmlReviewContext,
    events: {} as AmlReviewEvent,
    input: {} as { profileId: number },
    tags: {} as 'busy' | 'checking' | 'approving',
  },
  actors: {
    runCheck: fromPromise<{ status: string; matches: number }, { profileId: number }>(async () => {
      throw new Error('runCheck is provided by the app');
    }),
    approve: fromPromise<unknown, { profileId: number }>(async () => {
      throw new Error('approve is provided by the app');
    }),
  },
  actions: {
    /** The check's outcome as a notice, and fresh AML data. */
    notifyChecked: (_, _outcome: { status: string; matches: number }) => {},
    notifyApproved: () => {},
    notifyFailed: (_, _failure: AmlFailure) => {},
  },
}).createMachine({
  id: 'amlReview',
  context: ({ input }) => ({ profileId: input.profileId, failure: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'check.requested': { target: 'checking', actions: assign({ failure: null }) },
        'approve.requested': { target: 'confirming', actions: assign({ failure: null }) },
        'failure.dismissed': { actions: assign({ failure: null }) },
      },
    },
    confirming: {
      on: {
        'approve.confirmed': 'approving',
        'approve.cancelled': 'idle',
      },
    },
    checking: {
      tags: ['busy', 'checking'],
      invoke: {
        id: 'runCheck',
        src: 'runCheck',
        input: ({ context }) => ({ profileId: context.profileId }),
        onDone: {
          target: 'idle',
          actions: { type: 'notifyChecked', params: ({ event }) => event.output },
        },
        onError: {
          target: 'idle',
          actions: [
            assign({ failure: ({ event }) => amlFailureOf(event.error) }),
            { type: 'notifyFailed', params: ({ event }) => amlFailureOf(event.error) },
          ],
        },
      },
    },
    approving: {
      tags: ['busy', 'approving'],
      invoke: {
        id: 'approve',
        src: 'approve',
        input: ({ context }) => ({ profileId: context.profileId }),
        onDone: { target: 'idle', actions: 'notifyApproved' },
        onError: {
          target: 'idle',
          actions: [
            assign({ failure: ({ event }) => amlFailureOf(event.error) }),
            { type: 'notifyFailed', params: ({ event }) => amlFailureOf(event.error) },
          ],
        },
      },
    },
  },
});
