/**
 * One call as an agent lives it (docs/product/states.md#call-statuses): ringing → answering → connecting → in call →
 * ending (a status is required) → uploading → done. Answering is decided by the server: of several agents
 * exactly one gets the call, the others hear "Call Already Answered". The failure branches are real states
 * with a way out: No permission to camera, Connection can not be established, Connection lost.
 *
 * Pure: the answer, the call session (camera, peer, recording), the status request and the notices come in
 * through `provide`; the session reports back with PEER.* / MEDIA.DENIED / RECORDING.READY.
 */
import { assign, fromCallback, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import { type LiveQuality, MAX_QUALITY_SAMPLES, type QualitySample } from '#contract/callQualityRules';
import { RECONNECT_GRACE_MS } from '#contract/callReconnect';
import { CALL_CLOSED, CALL_STATUS_TALKING, isFinalCallStatus, REASON_ID_PATTERN } from '#contract/constants';
import { CUSTOMER_NOT_CONNECTED, type QueuedCall } from '#contract/socket';
import { CALL_STATUS_CONNECTION_ERROR } from './qualitySuggestion';
import { recordingUploadMachine } from './recordingUpload.machine';

export const CALL_ALREADY_ANSWERED = 'Call Already Answered';

/** Why a peer could not connect: TURN refused the credentials, could not be reached, or no path worked. */
export type IceFailure = 'credentials' | 'unreachable' | 'noPath';

export type SessionReport =
  | { type: 'PEER.CONNECTED' }
  | { type: 'PEER.LOST' }
  | { type: 'PEER.FAILED' }
  /** The peer could not connect, and why (before it ever connected). */
  | { type: 'ICE.FAILED'; cause: IceFailure }
  /** The link went down mid-call and ICE is restarting on the same peer (`at`: when, Date.now()). */
  | { type: 'PEER.RECONNECTING'; at: number }
  | { type: 'MEDIA.DENIED' }
  /** The recording stopped; `kept` when it is saved in the browser and waits for upload. */
  | { type: 'RECORDING.READY'; kept: boolean }
  /** What the agent received in the last few seconds (call quality). */
  | { type: 'QUALITY.SAMPLE'; sample: QualitySample };

/** What the call tells its session. */
export type SessionCommand = { type: 'SESSION.RESTART' } | { type: 'SESSION.STOP' };

export type CallEvent =
  | SessionReport
  | { type: 'ANSWER' }
  | { type: 'DISMISS' }
  | { type: 'CALL.TAKEN'; call_id: number; agent_id: number }
  | { type: 'CALL.CANCELLED'; call_id: number }
  | { type: 'CALL.ENDED'; call_id: number; by: 'agent' | 'customer' }
  /** The server closed the call with a status its agent did not set. */
  | { type: 'CALL.CLOSED'; call_id: number; status: number; reason: string }
  /** What the customer receives: their last sample and the summary of all so far (the server's). */
  | ({ type: 'QUALITY.CUSTOMER'; call_id: number } & LiveQuality)
  | { type: 'RETRY' }
  | { type: 'HANG_UP' }
  | { type: 'STATUS.PICK'; status: number }
  /** The reason id given with the status (a decision or abort reason of the procedure). */
  | { type: 'REASON.PICK'; reason: string }
  | { type: 'STATUS.SAVE' }
  | { type: 'CONNECTION.LOST' }
  | { type: 'CONNECTION.RESTORED' };

/** A call's end, as its desk learns it. */
export interface CallOutput {
  call_id: number;
  /** Refused because its customer was not connected: not to ring again before the customer is back. */
  customerAway: boolean;
}

/** The call as the server holds it, read again after the socket comes back (what `checkCall` answers). */
export interface HeldCall {
  status: number;
  end_reason: string | null;
  call_end_time: string | null;
}

export interface CallContext {
  call: QueuedCall;
  agentId: number;
  /** The room to signal in, once answered. */
  room: string | null;
  endedBy: 'agent' | 'customer' | null;
  /** The status picked at the end (COMPLETE onwards). */
  status: number | null;
  /** The reason id picked with it (null: none; a new status clears it, its list differs). */
  outcomeReason: string | null;
  /** A recording is kept in the browser and must be uploaded. */
  recorded: boolean;
  /** The socket is down (the call itself may go on peer to peer). */
  socketDown: boolean;
  /** The last refusal or failure shown to the agent. */
  error: string | null;
  /** The call was closed without this agent's status (the server, an admin): why. */
  closedReason: string | null;
  /** The quality samples of the call as the agent received it, oldest first (the last MAX_QUALITY_SAMPLES). */
  quality: QualitySample[];
  /** What the customer receives, as the server last told it (null: nothing yet). */
  customerQuality: LiveQuality | null;
  /** Why the last try to connect failed (null: it did not, or the reason is not known). */
  iceFailure: IceFailure | null;
  /** Since when the call is reconnecting (Date.now() of the drop; null: not reconnecting). */
  reconnectingSince: number | null;
  /** The call was ended because its connection did not come back within the grace period. */
  connectionGaveUp: boolean;
}

const detailOf = (error: unknown): string | null =>
  typeof error === 'object' && error !== null && 'detail' in error ? String(error.detail) : null;

export const callMachine = setup({
  types: {
    context: {} as CallContext,
    events: {} as
      | CallEvent
      | { type: 'xstate.done.actor.check'; output: HeldCall }
      | { type: 'xstate.error.actor.check'; error: unknown },
    input: {} as { call: QueuedCall; agentId: number },
    tags: {} as 'ringing' | 'live' | 'busy' | 'reconnecting',
  },
  actors: {
    answer: fromPromise<{ room_id: string }, { callId: number }>(async () => {
      throw new Error('answer is provided by the app');
    }),
    /** Camera, peer and recording of the call; reports SessionReport events, takes SessionCommand. */
    session: fromCallback<SessionCommand, { call: QueuedCall; room: string }>(() => {
      throw new Error('session is provided by the app');
    }),
    saveStatus: fromPromise<unknown, { callId: number; status: number; outcomeReason: string | null }>(
      async () => {
        throw new Error('saveStatus is provided by the app');
      },
    ),
    /** Reads the call again (after a reconnect: what was missed while the socket was down). */
    checkCall: fromPromise<HeldCall, { callId: number }>(async () => {
      throw new Error('checkCall is provided by the app');
    }),
    recordingUpload: recordingUploadMachine,
  },
  actions: {
    /** Tells the server the agent hung up (the customer hears it). */
    hangUp: (_, _callId: number) => {},
    /** "Call Already Answered" */
    notifyTaken: () => {},
    /** The customer is not connected right now: the call rings again once they are back. */
    notifyCustomerAway: () => {},
    /** "Call Completed": the customer hung up. */
    notifyCompleted: () => {},
    /** "Video call status updated successfully" */
    notifyDone: () => {},
    /** The call was closed without the agent's status (reason: a CALL_END_REASONS code, or null if unknown). */
    notifyClosed: (_, _reason: string | null) => {},
    notifyFailed: (_, _detail: string | null) => {},
    /** The connection did not come back within the grace period: the call was ended. */
    notifyConnectionGaveUp: () => {},
  },
  guards: {
    isThisCall: ({ context }, callId: number) => callId === context.call.call_id,
    takenByOther: ({ context }, event: { call_id: number; agent_id: number }) =>
      event.call_id === context.call.call_id && event.agent_id !== context.agentId,
    refusedAsTaken: (_, error: unknown) => detailOf(error) === CALL_ALREADY_ANSWERED,
    refusedAsAway: (_, error: unknown) => detailOf(error) === CUSTOMER_NOT_CONNECTED,
    refusedAsClosed: (_, error: unknown) => detailOf(error) === CALL_CLOSED,
    wasClosed: ({ context }) => context.closedReason !== null,
    statusPicked: ({ context }) => context.status !== null,
    finalStatus: (_, status: number) => isFinalCallStatus(status),
    recorded: ({ context }) => context.recorded,
    reasonId: (_, reason: string) => REASON_ID_PATTERN.test(reason),
    /** Closed with a final status while the socket was down (a restart, an admin, the agent's grace period). */
    closedMeanwhile: (_, held: HeldCall) => isFinalCallStatus(held.status),
    /** Hung up by the customer while the socket was down: the agent still picks the status. */
    hungUpMeanwhile: (_, held: HeldCall) =>
      held.status === CALL_STATUS_TALKING && held.call_end_time !== null,
  },
  delays: {
    /** How long a peer may take to connect before "Connection can not be established". */
    connectTimeout: 20_000,
    /** How long "Reconnecting…" may last before the call ends. */
    reconnectGrace: RECONNECT_GRACE_MS,
  },
}).createMachine({
  id: 'call',
  /** What the desk learns when the call is over: whether to wait for the customer before it rings again. */
  output: ({ context, event }): CallOutput => ({
    call_id: context.call.call_id,
    customerAway: (event.output as { customerAway?: boolean } | undefined)?.customerAway === true,
  }),
  context: ({ input }) => ({
    call: input.call,
    agentId: input.agentId,
    room: null,
    endedBy: null,
    status: null,
    outcomeReason: null,
    recorded: false,
    socketDown: false,
    error: null,
    closedReason: null,
    quality: [],
    customerQuality: null,
    iceFailure: null,
    reconnectingSince: null,
    connectionGaveUp: false,
  }),
  initial: 'ringing',
  on: {
    'CONNECTION.LOST': { actions: assign({ socketDown: true }) },
    'CONNECTION.RESTORED': { actions: assign({ socketDown: false }) },
    // Also after the hang-up: the customer's last batch may still be on its way.
    'QUALITY.CUSTOMER': {
      guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
      actions: assign(({ event }) => ({ customerQuality: { sample: event.sample, summary: event.summary } })),
    },
  },
  states: {
    ringing: {
      tags: ['ringing'],
      on: {
        ANSWER: { target: 'answering' },
        DISMISS: { target: 'dismissed' },
        'CALL.TAKEN': [
          { guard: { type: 'takenByOther', params: ({ event }) => event }, target: 'takenByOther' },
          // This agent answered it in another tab or on another device: it stops ringing here.
          { guard: { type: 'isThisCall', params: ({ event }) => event.call_id }, target: 'dismissed' },
        ],
        'CALL.CANCELLED': {
          guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
          target: 'cancelled',
        },
      },
    },
    answering: {
      tags: ['busy'],
      invoke: {
        src: 'answer',
        id: 'answer',
        input: ({ context }) => ({ callId: context.call.call_id }),
        onDone: { target: 'live', actions: assign(({ event }) => ({ room: event.output.room_id })) },
        onError: [
          {
            guard: {
              type: 'refusedAsTaken',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
            target: 'takenByOther',
          },
          {
            guard: {
              type: 'refusedAsAway',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
            target: 'customerAway',
          },
          { target: 'failed', actions: assign(({ event }) => ({ error: detailOf(event.error) })) },
        ],
      },
    },
    live: {
      tags: ['live'],
      invoke: {
        src: 'session',
        id: 'session',
        input: ({ context }) => ({ call: context.call, room: context.room as string }),
      },
      initial: 'connecting',
      on: {
        HANG_UP: {
          target: '.stopping',
          actions: [
            assign({ endedBy: 'agent' }),
            { type: 'hangUp', params: ({ context }) => context.call.call_id },
          ],
        },
        'CALL.ENDED': {
          guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
          target: '.stopping',
          actions: [assign(({ event }) => ({ endedBy: event.by })), 'notifyCompleted'],
        },
        'CALL.CLOSED': {
          guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
          target: '.stopping',
          actions: assign(({ event }) => ({ closedReason: event.reason })),
        },
        // Events of the call sent while the socket was down are lost: the call is read again (a
        // restart closes a talking call before anybody is back).
        'CONNECTION.RESTORED': {
          actions: [
            assign({ socketDown: false }),
            spawnChild('checkCall', {
              id: 'check',
              input: ({ context }) => ({ callId: context.call.call_id }),
            }),
          ],
        },
        'xstate.done.actor.check': [
          {
            guard: { type: 'closedMeanwhile', params: ({ event }) => event.output },
            target: '.stopping',
            actions: assign(({ event }) => ({ closedReason: event.output.end_reason ?? '' })),
          },
          {
            guard: { type: 'hungUpMeanwhile', params: ({ event }) => event.output },
            target: '.stopping',
            actions: [assign({ endedBy: 'customer' }), 'notifyCompleted'],
          },
        ],
        // Not read (the network again): the call goes on; a hang-up or the status will learn it.
        'xstate.error.actor.check': {},
        'QUALITY.SAMPLE': {
          actions: assign(({ context, event }) => ({
            quality: [...context.quality, event.sample].slice(-MAX_QUALITY_SAMPLES),
          })),
        },
      },
      states: {
        connecting: {
          after: { connectTimeout: { target: 'connectionFailed' } },
          on: {
            'PEER.CONNECTED': { target: 'inCall' },
            'PEER.FAILED': { target: 'connectionFailed' },
            'PEER.LOST': { target: 'connectionFailed' },
            'ICE.FAILED': {
              target: 'iceFailed',
              actions: assign(({ event }) => ({ iceFailure: event.cause })),
            },
            'MEDIA.DENIED': { target: 'cameraDenied' },
          },
        },
        inCall: {
          on: {
            'PEER.LOST': { target: 'peerLost' },
            'PEER.FAILED': { target: 'peerLost' },
            'PEER.RECONNECTING': {
              target: 'reconnecting',
              actions: assign(({ event }) => ({ reconnectingSince: event.at })),
            },
          },
        },
        /**
         * "Reconnecting…": the session restarts ICE on the same peer, so the recording goes on. The agent need
         * not act; past the grace period the call ends as a connection error.
         */
        reconnecting: {
          tags: ['reconnecting'],
          after: {
            reconnectGrace: {
              target: 'stopping',
              actions: [
                assign({
                  endedBy: 'agent',
                  connectionGaveUp: true,
                  status: CALL_STATUS_CONNECTION_ERROR,
                  reconnectingSince: null,
                }),
                { type: 'hangUp', params: ({ context }) => context.call.call_id },
                'notifyConnectionGaveUp',
              ],
            },
          },
          on: {
            'PEER.CONNECTED': { target: 'inCall', actions: assign({ reconnectingSince: null }) },
            'PEER.LOST': { target: 'peerLost', actions: assign({ reconnectingSince: null }) },
            'PEER.FAILED': { target: 'peerLost', actions: assign({ reconnectingSince: null }) },
          },
        },
        /** "Connection lost": the peer dropped during the call. */
        peerLost: {
          on: {
            'PEER.CONNECTED': { target: 'inCall' },
            RETRY: { target: 'connecting', actions: sendTo('session', { type: 'SESSION.RESTART' }) },
          },
        },
        /** "Connection can not be established" */
        connectionFailed: {
          on: {
            RETRY: { target: 'connecting', actions: sendTo('session', { type: 'SESSION.RESTART' }) },
            // The cause may be known only after the time-out.
            'ICE.FAILED': {
              target: 'iceFailed',
              actions: assign(({ event }) => ({ iceFailure: event.cause })),
            },
          },
        },
        /** "Connection can not be established", with what failed: the TURN server's refusal, its absence, no path. */
        iceFailed: {
          on: {
            RETRY: {
              target: 'connecting',
              actions: [assign({ iceFailure: null }), sendTo('session', { type: 'SESSION.RESTART' })],
            },
            'PEER.CONNECTED': { target: 'inCall', actions: assign({ iceFailure: null }) },
          },
        },
        /** "No permission to camera" */
        cameraDenied: {
          on: {
            RETRY: { target: 'connecting', actions: sendTo('session', { type: 'SESSION.RESTART' }) },
          },
        },
        /** The recording is being closed and kept before the agent picks a status. */
        stopping: {
          tags: ['busy'],
          entry: sendTo('session', { type: 'SESSION.STOP' }),
          on: {
            HANG_UP: {},
            'CALL.ENDED': {},
            'CALL.CLOSED': {
              guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
              actions: assign(({ event }) => ({ closedReason: event.reason })),
            },
            'RECORDING.READY': [
              {
                guard: 'wasClosed',
                target: '#call.closing',
                actions: assign(({ event }) => ({ recorded: event.kept })),
              },
              { target: '#call.ending', actions: assign(({ event }) => ({ recorded: event.kept })) },
            ],
          },
        },
      },
    },
    /** The agent must pick the status the call ended with before the call can close (docs/product/states.md). */
    ending: {
      on: {
        'CALL.CLOSED': {
          guard: { type: 'isThisCall', params: ({ event }) => event.call_id },
          target: 'closing',
          actions: assign(({ event }) => ({ closedReason: event.reason })),
        },
        'STATUS.PICK': {
          guard: { type: 'finalStatus', params: ({ event }) => event.status },
          actions: assign(({ context, event }) => ({
            status: event.status,
            outcomeReason: event.status === context.status ? context.outcomeReason : null,
            error: null,
          })),
        },
        'REASON.PICK': {
          guard: { type: 'reasonId', params: ({ event }) => event.reason },
          actions: assign(({ event }) => ({ outcomeReason: event.reason, error: null })),
        },
        'STATUS.SAVE': { guard: 'statusPicked', target: 'saving' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveStatus',
        id: 'saveStatus',
        input: ({ context }) => ({
          callId: context.call.call_id,
          status: context.status as number,
          outcomeReason: context.outcomeReason,
        }),
        onDone: [{ guard: 'recorded', target: 'uploading' }, { target: 'done' }],
        onError: [
          {
            // Closed meanwhile (the agent was gone past the grace period, a restart, an admin): nothing to set.
            guard: {
              type: 'refusedAsClosed',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
            target: 'closing',
            actions: assign(({ context }) => ({ closedReason: context.closedReason ?? '' })),
          },
          {
            target: 'ending',
            actions: [
              assign(({ event }) => ({ error: detailOf(event.error) })),
              { type: 'notifyFailed', params: ({ event }) => detailOf(event.error) },
            ],
          },
        ],
      },
    },
    /** Closed without this agent's status: the recording (if any) is still uploaded; no status to pick. */
    closing: {
      entry: { type: 'notifyClosed', params: ({ context }) => context.closedReason || null },
      always: [{ guard: 'recorded', target: 'uploading' }, { target: 'closed' }],
    },
    uploading: {
      invoke: {
        src: 'recordingUpload',
        id: 'upload',
        input: ({ context }) => ({ callId: context.call.call_id }),
        onDone: [{ guard: 'wasClosed', target: 'closed' }, { target: 'done' }],
      },
    },
    done: { type: 'final', entry: 'notifyDone' },
    closed: { type: 'final' },
    takenByOther: { type: 'final', entry: 'notifyTaken' },
    /** Answered while its customer was not connected: the desk stops ringing it until they are back. */
    customerAway: { type: 'final', entry: 'notifyCustomerAway', output: { customerAway: true } },
    cancelled: { type: 'final' },
    dismissed: { type: 'final' },
    failed: {
      type: 'final',
      entry: { type: 'notifyFailed', params: ({ context }) => context.error },
    },
  },
});
