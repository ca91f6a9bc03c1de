/**
 * The customer's side of a video call (the join page, customer.html): grant the camera, join the queue
 * (POST /videocall, status 0), wait with the place and the expected wait, then talk once an agent answers.
 * Leaving before an answer makes the call MISSED on the server. Pure: the camera, the joining and the peer come
 * in through `provide`; the connection reports QUEUE.POSITION / ANSWERED / ENDED, the peer PEER.*.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';

export type CustomerCallEvent =
  | { type: 'QUEUE.POSITION'; position: number; expected_wait_s: number }
  | { type: 'ANSWERED'; agent_name: string }
  | { type: 'ENDED' }
  | { type: 'PEER.CONNECTED' }
  | { type: 'PEER.LOST' }
  | { type: 'RETRY' }
  | { type: 'LEAVE' };

export interface CustomerCallContext {
  position: number | null;
  expectedWait: number | null;
  agentName: string | null;
}

export const customerCallMachine = setup({
  types: {
    context: {} as CustomerCallContext,
    events: {} as CustomerCallEvent,
    tags: {} as 'camera',
  },
  actors: {
    openCamera: fromPromise<void>(async () => {
      throw new Error('openCamera is provided by the page');
    }),
    /** Creates the call and connects; resolves once the customer is in the queue. */
    join: fromPromise<void>(async () => {
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
}).createMachine({
  id: 'customerCall',
  context: { position: null, expectedWait: null, agentName: null },
  initial: 'camera',
  states: {
    camera: {
      tags: ['camera'],
      invoke: { src: 'openCamera', onDone: 'joining', onError: 'cameraDenied' },
    },
    cameraDenied: { on: { RETRY: 'camera' } },
    joining: {
      tags: ['camera'],
      invoke: { src: 'join', onDone: 'waiting', onError: 'joinFailed' },
    },
    joinFailed: { on: { RETRY: 'joining' } },
    waiting: {
      tags: ['camera'],
      on: {
        'QUEUE.POSITION': {
          actions: assign(({ event }) => ({ position: event.position, expectedWait: event.expected_wait_s })),
        },
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
      },
      states: {
        connecting: { on: { 'PEER.CONNECTED': 'inCall' } },
        inCall: { on: { 'PEER.LOST': 'connecting' } },
      },
    },
    ended: { type: 'final' },
    left: { type: 'final' },
  },
});
