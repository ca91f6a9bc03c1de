import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { CUSTOMER_NOT_CONNECTED, type QueuedCall } from '#contract/socket';
import { callMachine } from '../../../src/machines/call.machine';
import { callDeskMachine, queueWith, queueWithout } from '../../../src/machines/callDesk.machine';

const waiting = (call_id: number, minute: number): QueuedCall => ({
  call_id,
  profile: call_id * 10,
  profile_name: `Customer ${call_id}`,
  status: 0,
  created_at: `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`,
});

/** The desk with calls whose answer the test decides. */
function desk() {
  const answers: {
    callId: number;
    resolve: (v: { room_id: string }) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const notices: string[] = [];
  const machine = callDeskMachine.provide({
    actors: {
      call: callMachine.provide({
        actors: {
          answer: fromPromise<{ room_id: string }, { callId: number }>(
            ({ input }) =>
              new Promise((resolve, reject) => answers.push({ callId: input.callId, resolve, reject })),
          ),
          session: fromCallback(() => () => {}),
        },
        actions: {
          notifyTaken: () => notices.push('taken'),
          notifyCustomerAway: () => notices.push('away'),
          notifyCompleted: () => notices.push('completed'),
        },
      }),
    },
  });
  const actor = createActor(machine, { input: { agentId: 7 } });
  actor.start();
  const ringingCall = () => {
    const call = actor.getSnapshot().context.call?.getSnapshot();
    return call?.status === 'active' && call.hasTag('ringing') ? call.context.call.call_id : null;
  };
  return { actor, answers, notices, ringingCall };
}

describe('the call queue', () => {
  it('keeps each call once, oldest first', () => {
    const q = queueWith(queueWith(queueWith([], waiting(2, 5)), waiting(1, 1)), waiting(2, 5));
    expect(q.map((c) => c.call_id)).toEqual([1, 2]);
    expect(queueWithout(q, 1).map((c) => c.call_id)).toEqual([2]);
  });
});

describe('call desk', () => {
  it('rings the oldest waiting call only while the agent can answer', () => {
    const { actor, ringingCall } = desk();
    actor.send({ type: 'CALL.INCOMING', call: waiting(2, 5) });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    expect(ringingCall()).toBeNull();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    expect(ringingCall()).toBe(1);
    actor.send({ type: 'AVAILABILITY', canAnswer: false });
    expect(ringingCall()).toBeNull();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    expect(ringingCall()).toBe(1);
  });

  it('stops ringing with Call Already Answered when another agent takes the call, then rings the next', () => {
    const { actor, ringingCall, notices } = desk();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    actor.send({ type: 'CALL.INCOMING', call: waiting(2, 2) });
    actor.send({ type: 'CALL.TAKEN', call_id: 1, agent_id: 99 });
    expect(notices).toEqual(['taken']);
    expect(ringingCall()).toBe(2);
    actor.send({ type: 'CALL.CANCELLED', call_id: 2 });
    expect(ringingCall()).toBeNull();
    expect(actor.getSnapshot().context.queue).toEqual([]);
  });

  it('drops a stale ringing call after a re-sync and rings what is really waiting', () => {
    const { actor, ringingCall } = desk();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    expect(ringingCall()).toBe(1);
    actor.send({ type: 'CONNECTION.LOST' });
    actor.send({ type: 'CONNECTION.RESTORED' });
    actor.send({ type: 'QUEUE.SYNC', calls: [waiting(3, 3)] });
    expect(ringingCall()).toBe(3);
  });

  it('does not ring while the agent holds a call, and rings again once it is over', async () => {
    const { actor, answers, ringingCall } = desk();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    actor.getSnapshot().context.call?.send({ type: 'ANSWER' });
    expect(answers.map((a) => a.callId)).toEqual([1]);
    actor.send({ type: 'CALL.TAKEN', call_id: 1, agent_id: 7 });
    actor.send({ type: 'CALL.INCOMING', call: waiting(2, 2) });
    expect(ringingCall()).toBeNull();
    // The server refuses: another agent was faster.
    answers[0]?.reject({ detail: 'Call Already Answered' });
    await new Promise((r) => setTimeout(r, 0));
    expect(ringingCall()).toBe(2);
  });

  it('stops ringing a call refused because its customer is not connected, until the server offers it again', async () => {
    const { actor, answers, notices, ringingCall } = desk();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    actor.send({ type: 'CALL.INCOMING', call: waiting(2, 2) });
    actor.getSnapshot().context.call?.send({ type: 'ANSWER' });
    answers[0]?.reject({ detail: CUSTOMER_NOT_CONNECTED });
    await new Promise((r) => setTimeout(r, 0));
    expect(notices).toEqual(['away']);
    // The next waiting call rings, not the one whose customer is away.
    expect(ringingCall()).toBe(2);
    expect(actor.getSnapshot().context.queue.map((c) => c.call_id)).toEqual([2]);
    actor.send({ type: 'CALL.TAKEN', call_id: 2, agent_id: 9 });
    await new Promise((r) => setTimeout(r, 0));
    expect(ringingCall()).toBeNull();
    // The customer is back: the server offers the call again.
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    expect(ringingCall()).toBe(1);
  });

  it('passes what the customer receives on to the call', async () => {
    const { actor, answers } = desk();
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    actor.send({ type: 'CALL.INCOMING', call: waiting(1, 1) });
    actor.getSnapshot().context.call?.send({ type: 'ANSWER' });
    answers[0]?.resolve({ room_id: 'room-1' });
    await new Promise((r) => setTimeout(r, 0));
    const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
    const range = { min: 1, median: 1, max: 1 };
    const summary = {
      count: 1,
      height: range,
      fps: range,
      loss_pct: range,
      kbps: range,
      audio_level: range,
      issues: [],
    };
    actor.send({ type: 'QUALITY.CUSTOMER', call_id: 1, sample, summary });
    expect(actor.getSnapshot().context.call?.getSnapshot().context.customerQuality).toEqual({
      sample,
      summary,
    });
  });

  it('one agent at a time: rings only the call offered to this agent, and stops when the offer moves on', () => {
    const { actor, ringingCall } = desk();
    const offered = (call: QueuedCall, agent: number | null): QueuedCall => ({
      ...call,
      offer:
        agent === null
          ? null
          : { agent_id: agent, agent_name: `Agent ${agent}`, expires_at: '2026-11-22T10:30:15.000Z' },
    });
    actor.send({ type: 'AVAILABILITY', canAnswer: true });
    // Offered to nobody, then to another agent: it waits in the queue and does not ring here.
    actor.send({ type: 'CALL.OFFER', call: offered(waiting(1, 1), null) });
    actor.send({ type: 'CALL.OFFER', call: offered(waiting(2, 2), 8) });
    expect(actor.getSnapshot().context.queue.map((c) => c.call_id)).toEqual([1, 2]);
    expect(ringingCall()).toBeNull();
    // Offered to this agent (7): the younger call rings, the older one offered to nobody does not.
    actor.send({ type: 'CALL.INCOMING', call: offered(waiting(2, 2), 7) });
    expect(ringingCall()).toBe(2);
    // The offer lapses and goes to the next agent: the ring stops.
    actor.send({ type: 'CALL.OFFER', call: offered(waiting(2, 2), 9) });
    expect(ringingCall()).toBeNull();
    expect(actor.getSnapshot().context.queue.find((c) => c.call_id === 2)?.offer?.agent_id).toBe(9);
    // A re-sync that says the older call is offered here now rings it.
    actor.send({ type: 'QUEUE.SYNC', calls: [offered(waiting(1, 1), 7), offered(waiting(2, 2), 9)] });
    expect(ringingCall()).toBe(1);
  });
});
