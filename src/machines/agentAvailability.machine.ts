/**
 * The agent's availability (docs/product/states.md): Online, Offline, Break, Meeting, Education. The server is the source of
 * truth: the status shown is the last one the server told (on connect and on every change, whoever made it:
 * this screen, another tab, an admin, a sign-in elsewhere, a lost connection), a change is asked for with
 * POST /videocall/agent_status, and only an agent the server holds Online and free, with a live connection,
 * may answer.
 * Pure: the request and the failure notice come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AgentStatusName } from '#contract/constants';

export interface AvailabilityContext {
  /** The server's status; null until it told. */
  status: AgentStatusName | null;
  /** The call the server holds the agent in (from any tab or device); null when free. */
  callId: number | null;
  requested: AgentStatusName | null;
  connected: boolean;
}

export type AvailabilityEvent =
  | { type: 'AGENT.STATUS'; status: AgentStatusName; call_id: number | null }
  | { type: 'STATUS.SET'; status: AgentStatusName }
  | { type: 'CONNECTION.LOST' }
  | { type: 'CONNECTION.RESTORED' };

export const agentAvailabilityMachine = setup({
  types: {
    context: {} as AvailabilityContext,
    events: {} as AvailabilityEvent,
    tags: {} as 'busy',
  },
  actors: {
    setStatus: fromPromise<{ status: AgentStatusName }, { status: AgentStatusName }>(async () => {
      throw new Error('setStatus is provided by the app');
    }),
  },
  actions: {
    notifyFailed: (_, _error: unknown) => {},
    takeServerState: assign(({ event }) =>
      event.type === 'AGENT.STATUS' ? { status: event.status, callId: event.call_id } : {},
    ),
  },
  guards: {
    isNew: ({ context }, status: AgentStatusName) => status !== context.status,
  },
}).createMachine({
  id: 'agentAvailability',
  context: { status: null, callId: null, requested: null, connected: true },
  initial: 'unknown',
  on: {
    'AGENT.STATUS': { target: '.known', actions: 'takeServerState' },
    'CONNECTION.LOST': { actions: assign({ connected: false }) },
    'CONNECTION.RESTORED': { actions: assign({ connected: true }) },
  },
  states: {
    unknown: {},
    known: {
      on: {
        'STATUS.SET': {
          guard: { type: 'isNew', params: ({ event }) => event.status },
          target: 'setting',
          actions: assign(({ event }) => ({ requested: event.status })),
        },
      },
    },
    setting: {
      tags: ['busy'],
      on: {
        // The server's broadcast may come before the answer; it is the truth either way.
        'AGENT.STATUS': { actions: 'takeServerState' },
      },
      invoke: {
        src: 'setStatus',
        id: 'setStatus',
        input: ({ context }) => ({ status: context.requested as AgentStatusName }),
        onDone: {
          target: 'known',
          actions: assign(({ event }) => ({ status: event.output.status, requested: null })),
        },
        onError: {
          target: 'known',
          actions: [
            assign({ requested: null }),
            { type: 'notifyFailed', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
  },
});

/** Only an agent the server holds Online and free, with a live connection, is offered calls (docs/product/states.md). */
export const canAnswer = (context: AvailabilityContext): boolean =>
  context.status === 'Online' && context.callId === null && context.connected;
