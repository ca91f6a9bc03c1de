import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type AdminAction,
  adminActionMachine,
  WRONG_PASSWORD,
} from '../../../src/machines/adminAction.machine';

const disable: AdminAction = { kind: 'disable', userId: 7, name: 'Umut Agent' };

function sut(answers: (() => Promise<void>)[]) {
  const calls: { action: AdminAction; password: string }[] = [];
  const done: string[] = [];
  const actor = createActor(
    adminActionMachine.provide({
      actors: {
        perform: fromPromise(async ({ input }) => {
          calls.push(input);
          const next = answers.shift();
          if (!next) throw new Error('no answer left');
          await next();
        }),
      },
      actions: { notifyDone: (_, params) => done.push(params.kind) },
    }),
  ).start();
  return { actor, calls, done };
}

const reject = (detail: string) => () => Promise.reject({ status: 400, detail });

describe('admin action machine', () => {
  it('asks for the password, performs the action with it and reports success once', async () => {
    const { actor, calls, done } = sut([() => Promise.resolve()]);
    actor.send({ type: 'action.requested', action: disable });
    expect(actor.getSnapshot().hasTag('prompt')).toBe(true);
    actor.send({ type: 'password.confirmed', password: 'Admin@2026' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls).toEqual([{ action: disable, password: 'Admin@2026' }]);
    expect(done).toEqual(['disable']);
    expect(actor.getSnapshot().context).toMatchObject({ action: null, error: null, completed: 'disable' });
  });

  it('keeps the prompt open on a wrong password, and succeeds on the next try', async () => {
    const { actor, calls, done } = sut([reject(WRONG_PASSWORD), () => Promise.resolve()]);
    actor.send({ type: 'action.requested', action: disable });
    actor.send({ type: 'password.confirmed', password: 'nope' });
    await waitFor(actor, (s) => s.matches('confirming'));
    expect(actor.getSnapshot().context.error).toBe(WRONG_PASSWORD);
    actor.send({ type: 'password.confirmed', password: 'Admin@2026' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls.map((c) => c.password)).toEqual(['nope', 'Admin@2026']);
    expect(done).toEqual(['disable']);
  });

  it('returns to the form with the server’s message on another failure', async () => {
    const create: AdminAction = {
      kind: 'create',
      userId: null,
      name: 'New',
      fields: { username: 'x@y.test' },
    };
    const { actor, done } = sut([reject('A user with this e-mail address already exists')]);
    actor.send({ type: 'action.requested', action: create });
    actor.send({ type: 'password.confirmed', password: 'Admin@2026' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBe('A user with this e-mail address already exists');
    expect(done).toEqual([]);
    actor.send({ type: 'error.dismissed' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('does nothing when the prompt is cancelled', () => {
    const { actor, calls } = sut([]);
    actor.send({ type: 'action.requested', action: disable });
    actor.send({ type: 'password.cancelled' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.action).toBeNull();
    expect(calls).toEqual([]);
  });
});
