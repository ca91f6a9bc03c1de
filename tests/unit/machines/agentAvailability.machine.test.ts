import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { agentAvailabilityMachine, canAnswer } from '../../../src/machines/agentAvailability.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const events = [
  { type: 'AGENT.STATUS', status: 'Offline', call_id: null },
  { type: 'AGENT.STATUS', status: 'Online', call_id: null },
  { type: 'AGENT.STATUS', status: 'Online', call_id: 7 },
  { type: 'STATUS.SET', status: 'Online' },
  { type: 'STATUS.SET', status: 'Break' },
  { type: 'CONNECTION.LOST' },
  { type: 'CONNECTION.RESTORED' },
  done('setStatus', { status: 'Online' }),
  done('setStatus', { status: 'Break' }),
  failed('setStatus', { status: 403, detail: 'You do not have permission to perform this action' }),
] as const;

function sut() {
  const effects = new Effects();
  const failures: unknown[] = [];
  const actor = createActor(
    agentAvailabilityMachine.provide({
      actors: { setStatus: effects.actor('setStatus') as never },
      actions: { notifyFailed: (_, error) => failures.push(error) },
    }),
  );
  return { actor, effects, failures };
}

describe('agent availability machine: every path of the model', () => {
  const cases = modelCases(agentAvailabilityMachine, { events: events as never });
  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => c.steps.at(-1)?.state.value));
    for (const state of ['unknown', 'known', 'setting']) expect(reached.has(state), state).toBe(true);
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('agent availability machine', () => {
  it('shows what the server says, asks for a change, and keeps the old status on failure', async () => {
    const { actor, effects, failures } = sut();
    actor.start();
    actor.send({ type: 'STATUS.SET', status: 'Online' });
    expect(actor.getSnapshot().value).toBe('unknown');
    actor.send({ type: 'AGENT.STATUS', status: 'Offline', call_id: null });
    actor.send({ type: 'STATUS.SET', status: 'Online' });
    expect(effects.inputs.get('setStatus')).toEqual([{ status: 'Online' }]);
    await effects.settle('setStatus', { error: { detail: 'Remote Server Error' } });
    expect(actor.getSnapshot().context.status).toBe('Offline');
    expect(failures).toEqual([{ detail: 'Remote Server Error' }]);
    actor.send({ type: 'STATUS.SET', status: 'Online' });
    await effects.settle('setStatus', { output: { status: 'Online' } });
    expect(canAnswer(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'CONNECTION.LOST' });
    expect(canAnswer(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'CONNECTION.RESTORED' });
    expect(canAnswer(actor.getSnapshot().context)).toBe(true);
    // In a call (this tab or another): not offered another one until the server frees the agent.
    actor.send({ type: 'AGENT.STATUS', status: 'Online', call_id: 12 });
    expect(canAnswer(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'AGENT.STATUS', status: 'Online', call_id: null });
    expect(canAnswer(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'AGENT.STATUS', status: 'Break', call_id: null });
    expect(canAnswer(actor.getSnapshot().context)).toBe(false);
  });
});
