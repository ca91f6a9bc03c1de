import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  entryProblem,
  type StepEntryContext,
  stepEntryMachine,
} from '../../../src/machines/stepEntry.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const events = [
  { type: 'CHANGE', value: '12345' },
  { type: 'CHANGE', value: '123456' },
  { type: 'SUBMIT' },
  { type: 'AGAIN' },
  done('submit', { accepted: true, tries_left: 2 }),
  done('submit', { accepted: false, tries_left: 1 }),
  done('submit', { accepted: false, tries_left: 0 }),
  failed('submit', new TypeError('Failed to fetch')),
] as const;

function sut(kind: 'code' | 'serial_number') {
  const effects = new Effects();
  const actor = createActor(
    stepEntryMachine.provide({ actors: { submit: effects.actor('submit') as never } }),
    {
      input: { kind },
    },
  );
  return { actor, effects };
}

for (const kind of ['code', 'serial_number'] as const) {
  const cases = modelCases(stepEntryMachine, {
    events: events as never,
    input: { kind },
    serializeState: (s) => {
      const c = s.context as StepEntryContext;
      return JSON.stringify([s.value, c.value, c.triesLeft, c.problem]);
    },
  });
  describe(`step entry (${kind}): every path of the model`, () => {
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
      const { actor, effects } = sut(kind);
      await replay(actor, effects, testCase);
    });
    it('reaches every state', () => {
      const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
      for (const state of ['"editing"', '"sending"', '"sent"', '"spent"'])
        expect(reached.has(state), state).toBe(true);
    });
  });
}

describe('step entry', () => {
  it('checks the value before sending: a code has 6 digits, a serial number 1 to 40 characters', () => {
    expect(entryProblem('code', ' 123456 ')).toBeNull();
    expect(entryProblem('code', '12345a')).toBe('codeFormat');
    expect(entryProblem('code', '1234567')).toBe('codeFormat');
    expect(entryProblem('serial_number', 'A12 345')).toBeNull();
    expect(entryProblem('serial_number', '   ')).toBe('serialEmpty');
    expect(entryProblem('serial_number', 'x'.repeat(41))).toBe('serialEmpty');
  });

  it('a wrong code says the tries left and empties the field; the last wrong try ends the entry', async () => {
    const { actor, effects } = sut('code');
    actor.start();
    actor.send({ type: 'CHANGE', value: '12' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.problem).toBe('codeFormat');
    actor.send({ type: 'CHANGE', value: ' 111111 ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('sending');
    await effects.settle('submit', { output: { accepted: false, tries_left: 1 } });
    expect(effects.inputs.get('submit')).toEqual([{ kind: 'code', value: '111111' }]);
    expect(actor.getSnapshot().context).toMatchObject({ value: '', triesLeft: 1, problem: 'wrongCode' });
    actor.send({ type: 'CHANGE', value: '222222' });
    actor.send({ type: 'SUBMIT' });
    await effects.settle('submit', { output: { accepted: false, tries_left: 0 } });
    expect(actor.getSnapshot().value).toBe('spent');
  });

  it('a serial number is sent, then may be typed again while tries are left; a network failure keeps the value', async () => {
    const { actor, effects } = sut('serial_number');
    actor.start();
    actor.send({ type: 'CHANGE', value: 'A12' });
    actor.send({ type: 'SUBMIT' });
    await effects.settle('submit', { error: new TypeError('Failed to fetch') });
    expect(actor.getSnapshot().context).toMatchObject({ value: 'A12', problem: 'failed' });
    actor.send({ type: 'SUBMIT' });
    await effects.settle('submit', { output: { accepted: true, tries_left: 1 } });
    expect(actor.getSnapshot().value).toBe('sent');
    actor.send({ type: 'AGAIN' });
    expect(actor.getSnapshot().context).toMatchObject({ value: '', problem: null });
    actor.send({ type: 'CHANGE', value: 'A13' });
    actor.send({ type: 'SUBMIT' });
    await effects.settle('submit', { output: { accepted: true, tries_left: 0 } });
    actor.send({ type: 'AGAIN' });
    expect(actor.getSnapshot().value).toBe('sent');
  });
});
