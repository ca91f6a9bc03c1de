/**
 * A call whose peer cannot connect says what failed (the TURN server's refusal, its absence, no path) and can
 * still be retried or ended with a status.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { QueuedCall } from '#contract/socket';
import { callMachine, type SessionCommand } from '../../../src/machines/call.machine';
import { Effects } from './modelPaths';

const call: QueuedCall = {
  call_id: 5,
  profile: 50,
  profile_name: 'Ada Yılmaz',
  status: 0,
  created_at: '2026-11-22T10:00:00.000Z',
};

function started() {
  const effects = new Effects();
  const commands: SessionCommand['type'][] = [];
  const hungUp: number[] = [];
  const actor = createActor(
    callMachine.provide({
      delays: { connectTimeout: 60_000 },
      actors: {
        answer: effects.actor('answer') as never,
        saveStatus: effects.actor('saveStatus') as never,
        checkCall: effects.actor('checkCall') as never,
        session: fromCallback<SessionCommand, { call: QueuedCall; room: string }>(({ receive }) => {
          receive((command) => commands.push(command.type));
        }),
      },
      actions: { hangUp: (_, id) => hungUp.push(id) },
    }),
    { input: { call, agentId: 7 } },
  );
  actor.start();
  return { actor, effects, commands, hungUp };
}

describe('a call whose peer cannot connect', () => {
  it('shows the cause, retries without it, and is ended with a status like any call', async () => {
    const { actor, effects, commands, hungUp } = started();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'ICE.FAILED', cause: 'credentials' });
    expect(actor.getSnapshot().matches({ live: 'iceFailed' })).toBe(true);
    expect(actor.getSnapshot().context.iceFailure).toBe('credentials');

    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().matches({ live: 'connecting' })).toBe(true);
    expect(actor.getSnapshot().context.iceFailure).toBeNull();
    // Known only after the time-out: the generic failure becomes the named one.
    actor.send({ type: 'PEER.FAILED' });
    actor.send({ type: 'ICE.FAILED', cause: 'unreachable' });
    expect(actor.getSnapshot().matches({ live: 'iceFailed' })).toBe(true);
    expect(actor.getSnapshot().context.iceFailure).toBe('unreachable');

    actor.send({ type: 'HANG_UP' });
    expect(hungUp).toEqual([5]);
    expect(commands).toEqual(['SESSION.RESTART', 'SESSION.STOP']);
    actor.send({ type: 'RECORDING.READY', kept: false });
    expect(actor.getSnapshot().matches('ending')).toBe(true);
    actor.send({ type: 'STATUS.PICK', status: 7 });
    actor.send({ type: 'STATUS.SAVE' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
  });

  it('is not a cause once the call is up: a later ICE.FAILED leaves the call alone', async () => {
    const { actor, effects } = started();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'ICE.FAILED', cause: 'noPath' });
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
  });
});
