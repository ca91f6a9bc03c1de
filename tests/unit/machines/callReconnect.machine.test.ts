import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { CUSTOMER_GRACE_MARGIN_MS, RECONNECT_GRACE_MS } from '#contract/callReconnect';
import { CALL_STATUSES } from '#contract/constants';
import type { QueuedCall } from '#contract/socket';
import { callMachine, type SessionCommand } from '../../../src/machines/call.machine';
import { customerCallMachine } from '../../../src/machines/customerCall.machine';
import { Effects } from './modelPaths';

const call: QueuedCall = {
  call_id: 5,
  profile: 50,
  profile_name: 'Ada Yılmaz',
  status: 0,
  created_at: '2026-11-22T10:00:00.000Z',
};

function agentCall() {
  const effects = new Effects();
  const notices: string[] = [];
  const commands: SessionCommand['type'][] = [];
  const actor = createActor(
    callMachine.provide({
      actors: {
        answer: effects.actor('answer') as never,
        saveStatus: effects.actor('saveStatus') as never,
        checkCall: effects.actor('checkCall') as never,
        recordingUpload: effects.actor('upload') as never,
        session: fromCallback<SessionCommand, { call: QueuedCall; room: string }>(({ receive }) => {
          receive((command) => commands.push(command.type));
        }),
      },
      actions: {
        hangUp: () => notices.push('hangUp'),
        notifyConnectionGaveUp: () => notices.push('gaveUp'),
      },
    }),
    { input: { call, agentId: 7 } },
  );
  return { actor, effects, notices, commands };
}

async function inCall() {
  const sut = agentCall();
  sut.actor.start();
  sut.actor.send({ type: 'ANSWER' });
  await sut.effects.settle('answer', { output: { room_id: 'room-5' } });
  sut.actor.send({ type: 'PEER.CONNECTED' });
  return sut;
}

describe('call machine: a network change mid-call', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows "Reconnecting…" from the drop and carries on in the same call when the link is back', async () => {
    const { actor, notices, commands } = await inCall();
    actor.send({ type: 'PEER.RECONNECTING', at: 1_234 });
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    expect(actor.getSnapshot().hasTag('live')).toBe(true);
    expect(actor.getSnapshot().context.reconnectingSince).toBe(1_234);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS - 1);
    actor.send({ type: 'PEER.CONNECTED' });
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
    expect(actor.getSnapshot().context.reconnectingSince).toBeNull();
    // The session was neither restarted nor stopped: same peer, same recording.
    expect(commands).toEqual([]);
    expect(notices).toEqual([]);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS);
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
  });

  it('ends the call as a connection error once the grace period is over', async () => {
    const { actor, notices, commands } = await inCall();
    actor.send({ type: 'PEER.RECONNECTING', at: 1_234 });
    vi.advanceTimersByTime(RECONNECT_GRACE_MS);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ live: 'stopping' })).toBe(true);
    expect(notices).toEqual(['hangUp', 'gaveUp']);
    expect(commands).toEqual(['SESSION.STOP']);
    expect(snapshot.context).toMatchObject({
      endedBy: 'agent',
      connectionGaveUp: true,
      status: CALL_STATUSES.indexOf('CONNECTION ERROR'),
      reconnectingSince: null,
    });
    // What was recorded before and during the drop is kept and goes to the status and the upload.
    actor.send({ type: 'RECORDING.READY', kept: true });
    expect(actor.getSnapshot().value).toBe('ending');
    expect(actor.getSnapshot().context.recorded).toBe(true);
  });

  it('counts the grace period again after each drop', async () => {
    const { actor } = await inCall();
    actor.send({ type: 'PEER.RECONNECTING', at: 1 });
    vi.advanceTimersByTime(RECONNECT_GRACE_MS - 1_000);
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'PEER.RECONNECTING', at: 2 });
    vi.advanceTimersByTime(RECONNECT_GRACE_MS - 1_000);
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(actor.getSnapshot().matches({ live: 'stopping' })).toBe(true);
  });

  it('falls back to "Connection lost" when the peer itself is gone, and lets the agent hang up meanwhile', async () => {
    const lost = await inCall();
    lost.actor.send({ type: 'PEER.RECONNECTING', at: 1 });
    lost.actor.send({ type: 'PEER.LOST' });
    expect(lost.actor.getSnapshot().matches({ live: 'peerLost' })).toBe(true);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS);
    expect(lost.actor.getSnapshot().matches({ live: 'peerLost' })).toBe(true);

    const hungUp = await inCall();
    hungUp.actor.send({ type: 'PEER.RECONNECTING', at: 1 });
    hungUp.actor.send({ type: 'HANG_UP' });
    expect(hungUp.actor.getSnapshot().matches({ live: 'stopping' })).toBe(true);
    expect(hungUp.actor.getSnapshot().context.connectionGaveUp).toBe(false);
    expect(hungUp.notices).toEqual(['hangUp']);
  });
});

describe('customer call machine: a network change mid-call', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function customerInCall() {
    const effects = new Effects();
    let peers = 0;
    const actor = createActor(
      customerCallMachine.provide({
        actors: {
          loadConsent: effects.actor('loadConsent') as never,
          openCamera: effects.actor('openCamera') as never,
          join: effects.actor('join') as never,
          peer: fromCallback(() => {
            peers++;
            return () => {
              peers--;
            };
          }),
        },
      }),
    ).start();
    await effects.settle('loadConsent', { output: { required: false, text: { en: '', tr: '' } } });
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    await effects.settle('join', { output: undefined });
    actor.send({ type: 'ANSWERED', agent_name: 'Umut Agent' });
    actor.send({ type: 'PEER.CONNECTED' });
    return { actor, peers: () => peers };
  }

  it('says "Reconnecting…" and goes on with the same peer when the link is back', async () => {
    const { actor, peers } = await customerInCall();
    actor.send({ type: 'PEER.RECONNECTING' });
    expect(actor.getSnapshot().matches({ live: 'reconnecting' })).toBe(true);
    actor.send({ type: 'PEER.CONNECTED' });
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
    expect(peers()).toBe(1);
  });

  it('hears the agent end the call, or gives up by itself a little after the agent would', async () => {
    const ended = await customerInCall();
    ended.actor.send({ type: 'PEER.RECONNECTING' });
    ended.actor.send({ type: 'ENDED' });
    expect(ended.actor.getSnapshot().value).toBe('ended');

    const alone = await customerInCall();
    alone.actor.send({ type: 'PEER.RECONNECTING' });
    vi.advanceTimersByTime(RECONNECT_GRACE_MS + CUSTOMER_GRACE_MARGIN_MS - 1);
    expect(alone.actor.getSnapshot().matches({ live: 'reconnecting' })).toBe(true);
    vi.advanceTimersByTime(1);
    expect(alone.actor.getSnapshot().value).toBe('lost');
    expect(alone.peers()).toBe(0);
  });
});
