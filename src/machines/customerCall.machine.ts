/**
 * The customer's side of a video call (the join page, customer.html): agree to being recorded where the
 * company's procedure asks for consent, grant the camera, check it (choose the camera and the microphone, see the preview and the light and sound levels), join the
 * queue (POST /videocall, status 0), wait with the place and the expected wait, then talk once an agent answers.
 * Leaving before an answer makes the call MISSED on the server. A link that has started every call it may
 * ends in `linkUsed`: trying again cannot help, only a new link. Pure: the camera, the joining and the peer come
 * in through `provide`; the connection reports QUEUE.POSITION / CONNECTION.LOST / ANSWERED / ENDED, the peer PEER.*.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { CUSTOMER_GRACE_MARGIN_MS, RECONNECT_GRACE_MS } from '#contract/callReconnect';
import { JOIN_LINK_USED } from '#contract/constants';
import type { CodeSent, StepKind } from '#contract/identProcedure';
import type { CallConsent } from '#contract/videocalls';

export type ConsentLanguage = 'en-US' | 'tr';

/** The devices chosen in the check (absent: the browser's default). */
export interface ChosenDevices {
  camera?: string;
  microphone?: string;
}

export type CustomerCallEvent =
  | { type: 'AGREE'; language: ConsentLanguage }
  | { type: 'DECLINE' }
  | { type: 'DEVICE.CHOSEN'; kind: 'camera' | 'microphone'; deviceId: string }
  | { type: 'JOIN' }
  | { type: 'QUEUE.POSITION'; position: number; expected_wait_s: number }
  /** The socket dropped (the network, or a server that restarts): the place is told again once it is back. */
  | { type: 'CONNECTION.LOST' }
  | { type: 'ANSWERED'; agent_name: string }
  | { type: 'ENDED' }
  | { type: 'PEER.CONNECTED' }
  | { type: 'PEER.LOST' }
  /** The link dropped mid-call; the same peer is reconnecting (ICE restart). */
  | { type: 'PEER.RECONNECTING' }
  | { type: 'RETRY' }
  | { type: 'LEAVE' }
  /** A guided call: the step the agent shows, and the code they sent (from the socket or a reload). */
  | { type: 'GUIDE.STEP'; kind: StepKind | null }
  | { type: 'GUIDE.CODE'; code: CodeSent | null };

export interface CustomerCallContext {
  /** The consent texts, when the company's procedure asks for consent. */
  consentText: CallConsent['text'] | null;
  /** The language of the text the customer agreed to (null: none asked, or not yet). */
  consent: ConsentLanguage | null;
  devices: ChosenDevices;
  /** The place in the queue as the server last told it (null: not told yet, or told before the socket dropped). */
  position: number | null;
  expectedWait: number | null;
  /** Waiting while the socket is down: the place shown last may no longer hold. */
  reconnecting: boolean;
  agentName: string | null;
  /** The step the agent shows in a guided call (null: none, or not guided). */
  step: StepKind | null;
  /** The second-channel code sent in this call, while it can be typed. */
  code: CodeSent | null;
}

export const customerCallMachine = setup({
  types: {
    context: {} as CustomerCallContext,
    events: {} as CustomerCallEvent,
    tags: {} as 'camera',
  },
  actors: {
    /** GET /videocall/consent. */
    loadConsent: fromPromise<CallConsent>(async () => {
      throw new Error('loadConsent is provided by the page');
    }),
    /** Opens (again, after a device change) the camera and microphone with the chosen devices. */
    openCamera: fromPromise<void, ChosenDevices>(async () => {
      throw new Error('openCamera is provided by the page');
    }),
    /** Creates the call (with the consent given) and connects; resolves once the customer is in the queue. */
    join: fromPromise<void, { consent: ConsentLanguage | null }>(async () => {
      throw new Error('join is provided by the page');
    }),
    /** The answering peer; created as soon as the call is answered (before the agent's offer arrives). */
    peer: fromCallback(() => {
      throw new Error('peer is provided by the page');
    }),
  },
  actions: {
    /** Tells the server the customer left or hung up. */
    leave: () => {},
  },
  guards: {
    /** The server refused the start because the link is used up (its detail, as the join actor throws it). */
    linkUsed: ({ event }) =>
      'error' in event && event.error instanceof Error && event.error.message === JOIN_LINK_USED,
  },
}).createMachine({
  id: 'customerCall',
  context: {
    consentText: null,
    consent: null,
    devices: {},
    position: null,
    expectedWait: null,
    reconnecting: false,
    agentName: null,
    step: null,
    code: null,
  },
  initial: 'consent',
  states: {
    /** Before the camera starts: does the company ask for consent? */
    consent: {
      invoke: {
        id: 'loadConsent',
        src: 'loadConsent',
        onDone: [
          {
            guard: ({ event }) => event.output.required,
            target: 'consenting',
            actions: assign(({ event }) => ({ consentText: event.output.text })),
          },
          { target: 'camera' },
        ],
        onError: 'consentFailed',
      },
    },
    consentFailed: { on: { RETRY: 'consent' } },
    consenting: {
      on: {
        AGREE: { target: 'camera', actions: assign(({ event }) => ({ consent: event.language })) },
        DECLINE: 'declined',
      },
    },
    /** No consent, no call: the customer may read the text again. */
    declined: { on: { RETRY: 'consenting' } },
    camera: {
      tags: ['camera'],
      invoke: {
        id: 'openCamera',
        src: 'openCamera',
        input: ({ context }) => context.devices,
        onDone: 'checking',
        onError: 'cameraDenied',
      },
    },
    cameraDenied: { on: { RETRY: 'camera' } },
    /** The preview with the device choice and the levels; the customer joins when ready. */
    checking: {
      tags: ['camera'],
      on: {
        'DEVICE.CHOSEN': {
          target: 'camera',
          actions: assign(({ context, event }) => ({
            devices: { ...context.devices, [event.kind]: event.deviceId },
          })),
        },
        JOIN: 'joining',
      },
    },
    joining: {
      tags: ['camera'],
      invoke: {
        id: 'join',
        src: 'join',
        input: ({ context }) => ({ consent: context.consent }),
        onDone: 'waiting',
        onError: [{ guard: 'linkUsed', target: 'linkUsed' }, { target: 'joinFailed' }],
      },
    },
    joinFailed: { on: { RETRY: 'joining' } },
    linkUsed: { type: 'final' },
    waiting: {
      tags: ['camera'],
      on: {
        'QUEUE.POSITION': {
          actions: assign(({ event }) => ({
            position: event.position,
            expectedWait: event.expected_wait_s,
            reconnecting: false,
          })),
        },
        'CONNECTION.LOST': { actions: assign({ position: null, expectedWait: null, reconnecting: true }) },
        ANSWERED: { target: 'live', actions: assign(({ event }) => ({ agentName: event.agent_name })) },
        LEAVE: { target: 'left', actions: 'leave' },
        ENDED: 'ended',
      },
    },
    live: {
      tags: ['camera'],
      invoke: { src: 'peer' },
      initial: 'connecting',
      on: {
        LEAVE: { target: 'ended', actions: 'leave' },
        ENDED: 'ended',
        'GUIDE.STEP': { actions: assign(({ event }) => ({ step: event.kind })) },
        'GUIDE.CODE': { actions: assign(({ event }) => ({ code: event.code })) },
      },
      states: {
        connecting: { on: { 'PEER.CONNECTED': 'inCall' } },
        inCall: { on: { 'PEER.LOST': 'connecting', 'PEER.RECONNECTING': 'reconnecting' } },
        /**
         * "Reconnecting…": the agent's side restarts the connection. When the network does not come back the
         * agent ends the call; if that cannot reach this page, it gives up a little later by itself.
         */
        reconnecting: {
          after: { [RECONNECT_GRACE_MS + CUSTOMER_GRACE_MARGIN_MS]: '#customerCall.lost' },
          on: { 'PEER.CONNECTED': 'inCall', 'PEER.LOST': 'connecting' },
        },
      },
    },
    ended: { type: 'final' },
    /** The connection did not come back: the call is over. */
    lost: { type: 'final' },
    left: { type: 'final' },
  },
});
