import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import { CUSTOMER_NOT_CONNECTED, type QueuedCall } from '#contract/socket';
import { CALL_ALREADY_ANSWERED, callMachine, type SessionCommand } from '../../../src/machines/call.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const call: QueuedCall = {
  call_id: 5,
  profile: 50,
  profile_name: 'Ada Yılmaz',
  status: 0,
  created_at: '2026-11-22T10:00:00.000Z',
};
const input = { call, agentId: 7 };

const events = [
  { type: 'ANSWER' },
  { type: 'DISMISS' },
  { type: 'CALL.TAKEN', call_id: 5, agent_id: 8 },
  { type: 'CALL.TAKEN', call_id: 5, agent_id: 7 },
  { type: 'CALL.TAKEN', call_id: 6, agent_id: 8 },
  { type: 'CALL.CANCELLED', call_id: 5 },
  { type: 'CALL.ENDED', call_id: 5, by: 'customer' },
  { type: 'PEER.CONNECTED' },
  { type: 'PEER.LOST' },
  { type: 'PEER.FAILED' },
  { type: 'PEER.RECONNECTING', at: 1_000 },
  { type: 'MEDIA.DENIED' },
  { type: 'RETRY' },
  { type: 'HANG_UP' },
  { type: 'RECORDING.READY', kept: true },
  { type: 'RECORDING.READY', kept: false },
  { type: 'STATUS.PICK', status: 1 },
  { type: 'STATUS.PICK', status: 3 },
  { type: 'REASON.PICK', reason: 'identity_verified' },
  { type: 'REASON.PICK', reason: 'Not an id!' },
  { type: 'STATUS.SAVE' },
  { type: 'CONNECTION.LOST' },
  { type: 'CONNECTION.RESTORED' },
  done('answer', { room_id: 'room-5' }),
  failed('answer', { detail: CALL_ALREADY_ANSWERED }),
  failed('answer', { detail: CUSTOMER_NOT_CONNECTED }),
  failed('answer', { detail: 'Set your status to Online to answer' }),
  done('saveStatus', {}),
  failed('saveStatus', { status: 409, detail: 'The call was not answered' }),
  done('upload', undefined),
] as const;

function sut() {
  const effects = new Effects();
  const notices: [string, unknown?][] = [];
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
        hangUp: (_, id) => notices.push(['hangUp', id]),
        notifyTaken: () => notices.push(['taken']),
        notifyCompleted: () => notices.push(['completed']),
        notifyDone: () => notices.push(['done']),
        notifyFailed: (_, detail) => notices.push(['failed', detail]),
        notifyClosed: (_, reason) => notices.push(['closed', reason]),
      },
    }),
    { input },
  );
  return { actor, effects, notices, commands };
}

describe('call machine: every path of the model', () => {
  const cases = modelCases(callMachine, { events: events as never, input });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const state of [
      '"ringing"',
      '"answering"',
      '{"live":"connecting"}',
      '{"live":"inCall"}',
      '{"live":"peerLost"}',
      '{"live":"reconnecting"}',
      '{"live":"connectionFailed"}',
      '{"live":"cameraDenied"}',
      '{"live":"stopping"}',
      '"ending"',
      '"saving"',
      '"uploading"',
      '"done"',
      '"takenByOther"',
      '"customerAway"',
      '"cancelled"',
      '"dismissed"',
      '"failed"',
    ])
      expect(reached.has(state), state).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('call machine', () => {
  it('goes from answer to upload: the status is required before the call can close', async () => {
    const { actor, effects, notices, commands } = sut();
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    expect(actor.getSnapshot().context.room).toBe('room-5');
    actor.send({ type: 'PEER.CONNECTED' });
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
    actor.send({ type: 'HANG_UP' });
    expect(notices).toEqual([['hangUp', 5]]);
    expect(commands).toEqual(['SESSION.STOP']);
    actor.send({ type: 'RECORDING.READY', kept: true });
    actor.send({ type: 'STATUS.SAVE' });
    expect(actor.getSnapshot().value).toBe('ending');
    actor.send({ type: 'STATUS.PICK', status: 2 });
    expect(actor.getSnapshot().context.status).toBeNull();
    actor.send({ type: 'STATUS.PICK', status: 9 });
    actor.send({ type: 'STATUS.SAVE' });
    expect(effects.inputs.get('saveStatus')).toEqual([{ callId: 5, status: 9, outcomeReason: null }]);
    await effects.settle('saveStatus', { output: {} });
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(effects.inputs.get('upload')).toEqual([{ callId: 5 }]);
    await effects.settle('upload', { output: undefined });
    expect(actor.getSnapshot().status).toBe('done');
    expect(notices.at(-1)).toEqual(['done']);
  });

  it('saves the reason picked with the status; another status clears it, its list differs', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'HANG_UP' });
    actor.send({ type: 'RECORDING.READY', kept: false });
    actor.send({ type: 'STATUS.PICK', status: 3 });
    actor.send({ type: 'REASON.PICK', reason: 'identity_verified' });
    actor.send({ type: 'STATUS.PICK', status: 3 });
    expect(actor.getSnapshot().context.outcomeReason).toBe('identity_verified');
    actor.send({ type: 'STATUS.PICK', status: 6 });
    expect(actor.getSnapshot().context.outcomeReason).toBeNull();
    actor.send({ type: 'REASON.PICK', reason: 'Light!' });
    expect(actor.getSnapshot().context.outcomeReason).toBeNull();
    actor.send({ type: 'REASON.PICK', reason: 'light' });
    actor.send({ type: 'STATUS.SAVE' });
    expect(effects.inputs.get('saveStatus')).toEqual([{ callId: 5, status: 6, outcomeReason: 'light' }]);
    // Refused by the server (a guided call's missing steps): back to the end screen with its detail.
    await effects.settle('saveStatus', { error: { status: 400, detail: 'not passed: id_front' } });
    expect(actor.getSnapshot().value).toBe('ending');
    expect(actor.getSnapshot().context).toMatchObject({
      error: 'not passed: id_front',
      outcomeReason: 'light',
    });
  });

  it('keeps the quality samples the session reports during the call, for the end screen', async () => {
    const { actor, effects } = sut();
    actor.start();
    const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
    actor.send({ type: 'QUALITY.SAMPLE', sample });
    expect(actor.getSnapshot().context.quality).toEqual([]); // still ringing: no call to measure
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'QUALITY.SAMPLE', sample });
    actor.send({ type: 'QUALITY.SAMPLE', sample: { ...sample, fps: 9 } });
    actor.send({ type: 'HANG_UP' });
    actor.send({ type: 'RECORDING.READY', kept: false });
    expect(actor.getSnapshot().value).toBe('ending');
    expect(actor.getSnapshot().context.quality.map((s) => s.fps)).toEqual([30, 9]);
  });

  it('keeps what the customer receives, as the server tells it, for its own call only and after the hang-up', async () => {
    const { actor, effects } = sut();
    actor.start();
    const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
    const range = { min: 240, median: 240, max: 240 };
    const summary = {
      count: 3,
      height: range,
      fps: range,
      loss_pct: range,
      kbps: range,
      audio_level: range,
      issues: ['picture' as const],
    };
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'QUALITY.CUSTOMER', call_id: 6, sample, summary });
    expect(actor.getSnapshot().context.customerQuality).toBeNull(); // another call's
    actor.send({ type: 'QUALITY.CUSTOMER', call_id: 5, sample, summary });
    expect(actor.getSnapshot().context.customerQuality).toEqual({ sample, summary });
    actor.send({ type: 'HANG_UP' });
    actor.send({ type: 'RECORDING.READY', kept: false });
    const last = { ...sample, height: 120 };
    actor.send({ type: 'QUALITY.CUSTOMER', call_id: 5, sample: last, summary });
    expect(actor.getSnapshot().value).toBe('ending');
    expect(actor.getSnapshot().context.customerQuality?.sample).toEqual(last);
  });

  it('hears Call Completed when the customer hangs up, and skips the upload without a recording', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'CALL.ENDED', call_id: 5, by: 'customer' });
    expect(actor.getSnapshot().context.endedBy).toBe('customer');
    expect(notices).toEqual([['completed']]);
    actor.send({ type: 'RECORDING.READY', kept: false });
    actor.send({ type: 'STATUS.PICK', status: 3 });
    actor.send({ type: 'STATUS.SAVE' });
    await effects.settle('saveStatus', { output: {} });
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('offers a way out of every failure: retry restarts the session, hang up ends the call', async () => {
    const { actor, effects, commands } = sut();
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'MEDIA.DENIED' });
    expect(actor.getSnapshot().matches({ live: 'cameraDenied' })).toBe(true);
    actor.send({ type: 'RETRY' });
    actor.send({ type: 'PEER.FAILED' });
    expect(actor.getSnapshot().matches({ live: 'connectionFailed' })).toBe(true);
    actor.send({ type: 'RETRY' });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'PEER.LOST' });
    expect(actor.getSnapshot().matches({ live: 'peerLost' })).toBe(true);
    actor.send({ type: 'HANG_UP' });
    expect(commands).toEqual(['SESSION.RESTART', 'SESSION.RESTART', 'SESSION.STOP']);
  });

  it('says Connection can not be established when the peer does not connect in time', async () => {
    const { effects } = sut();
    const actor = createActor(
      callMachine.provide({
        delays: { connectTimeout: 20 },
        actors: {
          answer: effects.actor('answer') as never,
          session: fromCallback(() => () => {}),
        },
      }),
      { input },
    );
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    await waitFor(actor, (s) => s.matches({ live: 'connectionFailed' }), { timeout: 1000 });
  });

  it('marks the socket down and up without leaving the call', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'ANSWER' });
    await effects.settle('answer', { output: { room_id: 'room-5' } });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'CONNECTION.LOST' });
    expect(actor.getSnapshot().context.socketDown).toBe(true);
    expect(actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
    actor.send({ type: 'CONNECTION.RESTORED' });
    expect(actor.getSnapshot().context.socketDown).toBe(false);
  });

  describe('reads its call again when the socket comes back (what it missed meanwhile)', () => {
    async function inCallThenBack() {
      const parts = sut();
      parts.actor.start();
      parts.actor.send({ type: 'ANSWER' });
      await parts.effects.settle('answer', { output: { room_id: 'room-5' } });
      parts.actor.send({ type: 'PEER.CONNECTED' });
      parts.actor.send({ type: 'CONNECTION.LOST' });
      parts.actor.send({ type: 'CONNECTION.RESTORED' });
      expect(parts.effects.inputs.get('checkCall')).toEqual([{ callId: 5 }]);
      return parts;
    }

    it('closed meanwhile (a restart): the call ends with the reason, no status to pick', async () => {
      const { actor, effects, notices, commands } = await inCallThenBack();
      await effects.settle('checkCall', {
        output: { status: 8, end_reason: 'server_restart', call_end_time: '2026-11-25T10:00:00Z' },
      });
      expect(actor.getSnapshot().matches({ live: 'stopping' })).toBe(true);
      expect(commands).toEqual(['SESSION.STOP']);
      actor.send({ type: 'RECORDING.READY', kept: false });
      expect(actor.getSnapshot().value).toBe('closed');
      expect(notices).toEqual([['closed', 'server_restart']]);
    });

    it('hung up by the customer meanwhile: Call Completed, and the agent picks the status', async () => {
      const { actor, effects, notices } = await inCallThenBack();
      await effects.settle('checkCall', {
        output: { status: 1, end_reason: null, call_end_time: '2026-11-25T10:00:00Z' },
      });
      actor.send({ type: 'RECORDING.READY', kept: false });
      expect(actor.getSnapshot().value).toBe('ending');
      expect(actor.getSnapshot().context.endedBy).toBe('customer');
      expect(notices).toEqual([['completed']]);
    });

    it('still talking, or not read: the call goes on', async () => {
      const talking = await inCallThenBack();
      await talking.effects.settle('checkCall', {
        output: { status: 1, end_reason: null, call_end_time: null },
      });
      expect(talking.actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
      const unread = await inCallThenBack();
      await unread.effects.settle('checkCall', { error: new Error('offline') });
      expect(unread.actor.getSnapshot().matches({ live: 'inCall' })).toBe(true);
      expect(unread.notices).toEqual([]);
    });
  });
});
