/**
 * The agent's desk: the company's waiting queue as the server tells it, and the one call this agent is
 * offered or holds. When the agent can answer (Online, connected) and is free, the oldest waiting call offered
 * to them rings (every waiting call, unless the company routes calls one agent at a time: then only the call the
 * server offers this agent, and it stops ringing when the offer goes to someone else);
 * a call that is taken, cancelled or gone after a re-sync stops ringing; after a call is over the next rings. A
 * call refused because its customer is not connected leaves the queue until the server offers it again.
 * Pure: it only keeps the queue and runs call machines; the socket's events come in as events.
 */
import { type ActorRefFrom, assign, enqueueActions, setup } from 'xstate';
import type { LiveQuality } from '#contract/callQualityRules';
import type { QueuedCall } from '#contract/socket';
import { type CallEvent, type CallOutput, callMachine } from './call.machine';

export type DeskEvent =
  | { type: 'CALL.INCOMING'; call: QueuedCall }
  | { type: 'CALL.OFFER'; call: QueuedCall }
  | { type: 'CALL.TAKEN'; call_id: number; agent_id: number }
  | { type: 'CALL.CANCELLED'; call_id: number }
  | { type: 'CALL.ENDED'; call_id: number; by: 'agent' | 'customer' }
  | { type: 'CALL.CLOSED'; call_id: number; status: number; reason: string }
  | ({ type: 'QUALITY.CUSTOMER'; call_id: number } & LiveQuality)
  | { type: 'QUEUE.SYNC'; calls: QueuedCall[] }
  | { type: 'AVAILABILITY'; canAnswer: boolean }
  | { type: 'CONNECTION.LOST' }
  | { type: 'CONNECTION.RESTORED' };

export interface DeskContext {
  agentId: number;
  /** Waiting calls, oldest first. */
  queue: QueuedCall[];
  canAnswer: boolean;
  call: ActorRefFrom<typeof callMachine> | null;
}

const byAge = (a: QueuedCall, b: QueuedCall) =>
  a.created_at.localeCompare(b.created_at) || a.call_id - b.call_id;

/** The queue with one call added (once), kept oldest first. */
export const queueWith = (queue: QueuedCall[], call: QueuedCall): QueuedCall[] =>
  [...queue.filter((c) => c.call_id !== call.call_id), call].sort(byAge);

export const queueWithout = (queue: QueuedCall[], callId: number): QueuedCall[] =>
  queue.filter((c) => c.call_id !== callId);

/**
 * Whether a waiting call may ring this agent: every call when the company rings all free agents (no `offer`);
 * with one-at-a-time routing only the call offered to them.
 */
export const offeredTo = (call: QueuedCall, agentId: number): boolean =>
  call.offer === undefined || call.offer?.agent_id === agentId;

/** The offer of a waiting call (one-at-a-time routing), as the queue holds it now; undefined: rung to all. */
export const offerOf = (context: Pick<DeskContext, 'queue'>, callId: number) =>
  context.queue.find((c) => c.call_id === callId)?.offer;

/** Whether the company routes calls one agent at a time (its waiting calls carry who is offered them). */
export const routedOneAtATime = (context: Pick<DeskContext, 'queue'>) =>
  context.queue.some((c) => c.offer !== undefined);

export const callDeskMachine = setup({
  types: {
    context: {} as DeskContext,
    events: {} as DeskEvent | { type: `xstate.done.actor.${string}`; output?: CallOutput },
    input: {} as { agentId: number },
  },
  actors: { call: callMachine },
  actions: {
    /**
     * Rings the oldest waiting call when the agent is free and can answer; stops a ringing call the agent can
     * no longer take (not available, or gone from the queue after a re-sync).
     */
    ring: enqueueActions(({ context, enqueue }) => {
      const current = context.call?.getSnapshot();
      const active = current?.status === 'active';
      if (active && context.call && current.hasTag('ringing')) {
        const waiting = context.queue.find((c) => c.call_id === current.context.call.call_id);
        if (!context.canAnswer || !waiting || !offeredTo(waiting, context.agentId))
          enqueue.sendTo(context.call, { type: 'DISMISS' });
        return;
      }
      const next = context.queue.find((c) => offeredTo(c, context.agentId));
      if (active || !context.canAnswer || !next) return;
      if (context.call) enqueue.stopChild(context.call);
      enqueue.assign({
        call: ({ spawn }: { spawn: (src: 'call', options: object) => DeskContext['call'] }) =>
          spawn('call', { id: `call-${next.call_id}`, input: { call: next, agentId: context.agentId } }),
      });
    }),
    /** Passes the socket's call events and connection state on to the call. */
    forward: enqueueActions(({ context, event, enqueue }) => {
      if (context.call?.getSnapshot().status === 'active') enqueue.sendTo(context.call, event as CallEvent);
    }),
  },
}).createMachine({
  id: 'callDesk',
  context: ({ input }) => ({ agentId: input.agentId, queue: [], canAnswer: false, call: null }),
  on: {
    'CALL.INCOMING': {
      actions: [assign(({ context, event }) => ({ queue: queueWith(context.queue, event.call) })), 'ring'],
    },
    'CALL.OFFER': {
      actions: [assign(({ context, event }) => ({ queue: queueWith(context.queue, event.call) })), 'ring'],
    },
    'CALL.TAKEN': {
      actions: [
        assign(({ context, event }) => ({ queue: queueWithout(context.queue, event.call_id) })),
        'forward',
      ],
    },
    'CALL.CANCELLED': {
      actions: [
        assign(({ context, event }) => ({ queue: queueWithout(context.queue, event.call_id) })),
        'forward',
      ],
    },
    'CALL.ENDED': { actions: 'forward' },
    'CALL.CLOSED': { actions: 'forward' },
    'QUALITY.CUSTOMER': { actions: 'forward' },
    'QUEUE.SYNC': { actions: [assign(({ event }) => ({ queue: [...event.calls].sort(byAge) })), 'ring'] },
    AVAILABILITY: { actions: [assign(({ event }) => ({ canAnswer: event.canAnswer })), 'ring'] },
    'CONNECTION.LOST': { actions: 'forward' },
    'CONNECTION.RESTORED': { actions: 'forward' },
    // A call is over (answered and done, taken by another, cancelled, dismissed): the next one may ring. One whose
    // customer was not connected waits for them (`call.incoming` again when they are back).
    'xstate.done.actor.*': {
      actions: [
        assign(({ context, event }) =>
          event.output?.customerAway ? { queue: queueWithout(context.queue, event.output.call_id) } : {},
        ),
        'ring',
      ],
    },
  },
});
