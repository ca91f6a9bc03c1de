/**
 * Changing a customer's status (docs/product/states.md): Rejected and Blacklisted ask for confirmation with a reason of at
 * least 10 characters; the status changes only when the server's `result` is true, and the new status is
 * the one the server answers. The request carries the profile's version: when someone else
 * changed the profile meanwhile (409), the machine waits in `conflicted` with what is there now, keeping the
 * chosen status and the typed reason, until the reviewer applies the change again (with the new version)
 * or discards it. When the company's four-eyes rules catch the change, the server either holds it for a
 * second reviewer (the answer's `second_review`: the status stays) or refuses it (409 with the rules); the
 * machine tells which, and the server alone decides. Pure: the request and the notices come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { type ProfileStatus, reasonIsLongEnough, STATUSES_NEEDING_REASON } from '#contract/constants';
import type { Profile } from '#contract/profiles';
import { FOUR_EYES_REFUSALS, type FourEyesRefusal, type StatusChangeHeld } from '#contract/profileWrites';
import { conflictCurrent } from './versionConflict';

/** Statuses that need a confirmation and a reason. */
const CONFIRMED_STATUSES: readonly ProfileStatus[] = STATUSES_NEEDING_REASON;

export interface StatusAnswer {
  result: boolean;
  status: ProfileStatus;
  detail?: string | null;
  /** The profile's version after the answer, when the server says; else an accepted change is v + 1. */
  version?: number;
  /** The change waits for a second reviewer on this case (the status is unchanged). */
  second_review?: StatusChangeHeld['second_review'];
}

/** What the four-eyes refusal (409) of a status change says, without its English detail. */
export type FourEyesRefused = Pick<FourEyesRefusal, 'reason' | 'rules' | 'case'>;

/** The four-eyes refusal a failed change carries, or null for any other error. */
export function fourEyesRefusal(error: unknown): FourEyesRefused | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (status !== 409 || typeof body !== 'object' || body === null) return null;
  const { reason, rules, case: caseId } = body as Partial<FourEyesRefusal>;
  if (!FOUR_EYES_REFUSALS.includes(reason as FourEyesRefusal['reason']) || !Array.isArray(rules)) return null;
  return { reason: reason as FourEyesRefusal['reason'], rules, case: caseId ?? null };
}

export interface ProfileStatusContext {
  profileId: number;
  current: ProfileStatus;
  /** The profile's version the screen holds, sent as If-Match. */
  version: number;
  target: ProfileStatus | null;
  /** The confirmed reason (trimmed), kept for a re-apply after a conflict. */
  reason: string | null;
  /** The profile as it is now, after a 409. */
  conflict: Profile | null;
}

export type ProfileStatusEvent =
  | { type: 'status.selected'; status: ProfileStatus }
  | { type: 'change.confirmed'; reason: string }
  | { type: 'change.cancelled' }
  | { type: 'status.loaded'; status: ProfileStatus; version?: number }
  | { type: 'conflict.reapplied' }
  | { type: 'conflict.discarded' };

export const profileStatusMachine = setup({
  types: {
    context: {} as ProfileStatusContext,
    events: {} as ProfileStatusEvent,
    input: {} as { profileId: number; status: ProfileStatus; version: number },
    tags: {} as 'busy' | 'conflict',
  },
  actors: {
    changeStatus: fromPromise<
      StatusAnswer,
      { profileId: number; status: ProfileStatus; reject_reason: string | null; version: number }
    >(async () => {
      throw new Error('changeStatus is provided by the app');
    }),
  },
  actions: {
    /** "Customer status changed successfully", and fresh profile data. */
    notifyChanged: (_, _status: ProfileStatus) => {},
    /** "Customer status change failed" (with the server's detail when it gave one). */
    notifyFailed: (_, _detail: string | null) => {},
    /** The change waits for a second review: which rules, which case. */
    notifyHeld: (_, _held: NonNullable<StatusAnswer['second_review']>) => {},
    /** Four-eyes refused the change: why, which rules. */
    notifyRefused: (_, _refused: FourEyesRefused) => {},
    /** Fresh profile data after the reviewer discarded their change. */
    reload: () => {},
  },
  guards: {
    isCurrent: ({ context }, status: ProfileStatus) => status === context.current,
    /** A load that brings what the machine holds changes nothing: no new snapshot, so no render for a view. */
    isNewStatus: ({ context }, status: ProfileStatus) => status !== context.current,
    isNewLoad: ({ context }, loaded: { status: ProfileStatus; version?: number }) =>
      loaded.status !== context.current ||
      (loaded.version !== undefined && loaded.version !== context.version),
    needsConfirmation: (_, status: ProfileStatus) => CONFIRMED_STATUSES.includes(status),
    reasonOk: (_, reason: string) => reasonIsLongEnough(reason),
    accepted: (_, answer: StatusAnswer) => answer.result,
    held: (_, answer: StatusAnswer) => answer.second_review !== undefined,
    isFourEyesRefusal: (_, error: unknown) => fourEyesRefusal(error) !== null,
    isConflict: (_, error: unknown) => conflictCurrent(error) !== null,
  },
}).createMachine({
  id: 'profileStatus',
  context: ({ input }) => ({
    profileId: input.profileId,
    current: input.status,
    version: input.version,
    target: null,
    reason: null,
    conflict: null,
  }),
  initial: 'idle',
  on: {
    // While a change is being decided or sent, the version stays the one the reviewer chose it on.
    'status.loaded': {
      guard: { type: 'isNewStatus', params: ({ event }) => event.status },
      actions: assign(({ event }) => ({ current: event.status })),
    },
  },
  states: {
    idle: {
      on: {
        'status.loaded': {
          guard: { type: 'isNewLoad', params: ({ event }) => event },
          actions: assign(({ event, context }) => ({
            current: event.status,
            version: event.version ?? context.version,
          })),
        },
        'status.selected': [
          { guard: { type: 'isCurrent', params: ({ event }) => event.status } },
          {
            guard: { type: 'needsConfirmation', params: ({ event }) => event.status },
            target: 'confirming',
            actions: assign(({ event }) => ({ target: event.status })),
          },
          { target: 'changing', actions: assign(({ event }) => ({ target: event.status, reason: null })) },
        ],
      },
    },
    confirming: {
      on: {
        'change.confirmed': {
          guard: { type: 'reasonOk', params: ({ event }) => event.reason },
          target: 'changing',
          actions: assign(({ event }) => ({ reason: event.reason.trim() })),
        },
        'change.cancelled': { target: 'idle', actions: assign({ target: null }) },
      },
    },
    changing: {
      tags: ['busy'],
      invoke: {
        id: 'changeStatus',
        src: 'changeStatus',
        input: ({ context }) => ({
          profileId: context.profileId,
          status: context.target as ProfileStatus,
          reject_reason: context.reason,
          version: context.version,
        }),
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => event.output },
            target: 'idle',
            actions: [
              // A change accepted at version v leaves the profile at v + 1 (the server's conditional UPDATE).
              assign(({ event, context }) => ({
                current: event.output.status,
                version: event.output.version ?? context.version + 1,
                target: null,
              })),
              { type: 'notifyChanged', params: ({ event }) => event.output.status },
            ],
          },
          {
            guard: { type: 'held', params: ({ event }) => event.output },
            target: 'idle',
            actions: [
              assign(({ event }) => ({ current: event.output.status, target: null, reason: null })),
              {
                type: 'notifyHeld',
                params: ({ event }) =>
                  event.output.second_review as NonNullable<StatusAnswer['second_review']>,
              },
            ],
          },
          {
            target: 'idle',
            actions: [
              assign(({ event, context }) => ({
                current: event.output.status,
                version: event.output.version ?? context.version,
                target: null,
              })),
              { type: 'notifyFailed', params: ({ event }) => event.output.detail ?? null },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'conflicted',
            actions: assign(({ event }) => ({ conflict: conflictCurrent<Profile>(event.error) })),
          },
          {
            guard: {
              type: 'isFourEyesRefusal',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
            target: 'idle',
            actions: [
              assign({ target: null, reason: null }),
              {
                type: 'notifyRefused',
                params: ({ event }) => fourEyesRefusal(event.error) as FourEyesRefused,
              },
            ],
          },
          {
            target: 'idle',
            actions: [
              assign({ target: null, reason: null }),
              {
                type: 'notifyFailed',
                params: ({ event }) =>
                  typeof event.error === 'object' && event.error !== null && 'detail' in event.error
                    ? String(event.error.detail)
                    : null,
              },
            ],
          },
        ],
      },
    },
    conflicted: {
      tags: ['conflict'],
      on: {
        // The same status and reason again, against the version that is there now.
        'conflict.reapplied': {
          target: 'changing',
          actions: assign(({ context }) => ({
            current: context.conflict?.status ?? context.current,
            version: context.conflict?.version ?? context.version,
            conflict: null,
          })),
        },
        'conflict.discarded': {
          target: 'idle',
          actions: [
            assign(({ context }) => ({
              current: context.conflict?.status ?? context.current,
              version: context.conflict?.version ?? context.version,
              conflict: null,
              target: null,
              reason: null,
            })),
            'reload',
          ],
        },
      },
    },
  },
});
