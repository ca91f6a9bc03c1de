/**
 * Changing a customer's status (SPEC §4): Rejected and Blacklisted ask for confirmation with a reason of at
 * least 10 characters; the status changes only when the server's `result` is true, and the new status is
 * the one the server answers. Pure: the request and the notices come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { type ProfileStatus, reasonIsLongEnough, STATUSES_NEEDING_REASON } from '../contract/constants';

/** Statuses that need a confirmation and a reason. */
const CONFIRMED_STATUSES: readonly ProfileStatus[] = STATUSES_NEEDING_REASON;

export interface StatusAnswer {
  result: boolean;
  status: ProfileStatus;
  detail?: string | null;
}

export interface ProfileStatusContext {
  profileId: number;
  current: ProfileStatus;
  target: ProfileStatus | null;
}

export type ProfileStatusEvent =
  | { type: 'status.selected'; status: ProfileStatus }
  | { type: 'change.confirmed'; reason: string }
  | { type: 'change.cancelled' }
  | { type: 'status.loaded'; status: ProfileStatus };

export const profileStatusMachine = setup({
  types: {
    context: {} as ProfileStatusContext,
    events: {} as ProfileStatusEvent,
    input: {} as { profileId: number; status: ProfileStatus },
    tags: {} as 'busy',
  },
  actors: {
    changeStatus: fromPromise<
      StatusAnswer,
      { profileId: number; status: ProfileStatus; reject_reason: string | null }
    >(async () => {
      throw new Error('changeStatus is provided by the app');
    }),
  },
  actions: {
    /** "Customer status changed successfully", and fresh profile data. */
    notifyChanged: (_, _status: ProfileStatus) => {},
    /** "Customer status change failed" (with the server's detail when it gave one). */
    notifyFailed: (_, _detail: string | null) => {},
  },
  guards: {
    isCurrent: ({ context }, status: ProfileStatus) => status === context.current,
    needsConfirmation: (_, status: ProfileStatus) => CONFIRMED_STATUSES.includes(status),
    reasonOk: (_, reason: string) => reasonIsLongEnough(reason),
    accepted: (_, answer: StatusAnswer) => answer.result,
  },
}).createMachine({
  id: 'profileStatus',
  context: ({ input }) => ({ profileId: input.profileId, current: input.status, target: null }),
  initial: 'idle',
  on: {
    'status.loaded': { actions: assign(({ event }) => ({ current: event.status })) },
  },
  states: {
    idle: {
      on: {
        'status.selected': [
          { guard: { type: 'isCurrent', params: ({ event }) => event.status } },
          {
            guard: { type: 'needsConfirmation', params: ({ event }) => event.status },
            target: 'confirming',
            actions: assign(({ event }) => ({ target: event.status })),
          },
          { target: 'changing', actions: assign(({ event }) => ({ target: event.status })) },
        ],
      },
    },
    confirming: {
      on: {
        'change.confirmed': {
          guard: { type: 'reasonOk', params: ({ event }) => event.reason },
          target: 'changing',
        },
        'change.cancelled': { target: 'idle', actions: assign({ target: null }) },
      },
    },
    changing: {
      tags: ['busy'],
      invoke: {
        id: 'changeStatus',
        src: 'changeStatus',
        input: ({ context, event }) => ({
          profileId: context.profileId,
          status: context.target as ProfileStatus,
          reject_reason: event.type === 'change.confirmed' ? event.reason.trim() : null,
        }),
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => event.output },
            target: 'idle',
            actions: [
              assign(({ event }) => ({ current: event.output.status, target: null })),
              { type: 'notifyChanged', params: ({ event }) => event.output.status },
            ],
          },
          {
            target: 'idle',
            actions: [
              assign(({ event }) => ({ current: event.output.status, target: null })),
              { type: 'notifyFailed', params: ({ event }) => event.output.detail ?? null },
            ],
          },
        ],
        onError: {
          target: 'idle',
          actions: [
            assign({ target: null }),
            {
              type: 'notifyFailed',
              params: ({ event }) =>
                typeof event.error === 'object' && event.error !== null && 'detail' in event.error
                  ? String(event.error.detail)
                  : null,
            },
          ],
        },
      },
    },
  },
});
