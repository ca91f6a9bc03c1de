import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { JOIN_LINK_USED } from '#contract/constants';
import { customerCallMachine } from '../../../src/machines/customerCall.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const TEXT = { en: 'I agree to the recording.', tr: 'Kaydı kabul ediyorum.' };

const events = [
  done('loadConsent', { required: true, text: TEXT }),
  done('loadConsent', { required: false, text: TEXT }),
  failed('loadConsent', new Error('offline')),
  { type: 'AGREE', language: 'tr' },
  { type: 'DECLINE' },
  done('openCamera'),
  failed('openCamera', new Error('NotAllowedError')),
  { type: 'DEVICE.CHOSEN', kind: 'camera', deviceId: 'cam-2' },
  { type: 'DEVICE.CHOSEN', kind: 'microphone', deviceId: 'mic-2' },
  { type: 'JOIN' },
  done('join'),
  failed('join', new Error('offline')),
  // An own field, so the graph tells it from the other failure (an Error alone serializes to {}).
  failed('join', Object.assign(new Error(JOIN_LINK_USED), { status: 409 })),
  { type: 'QUEUE.POSITION', position: 1, expected_wait_s: 0 },
  { type: 'CONNECTION.LOST' },
  { type: 'ANSWERED', agent_name: 'Umut Agent' },
  { type: 'PEER.CONNECTED' },
  { type: 'PEER.LOST' },
  { type: 'PEER.RECONNECTING' },
  { type: 'RETRY' },
  { type: 'LEAVE' },
  { type: 'ENDED' },
] as const;

function sut() {
  const effects = new Effects();
  const actor = createActor(
    customerCallMachine.provide({
      actors: {
        loadConsent: effects.actor('loadConsent') as never,
        openCamera: effects.actor('openCamera') as never,
        join: effects.actor('join') as never,
        peer: fromCallback(() => () => {}),
      },
    }),
  );
  return { actor, effects };
}

describe('customer call machine: every path of the model', () => {
  const cases = modelCases(customerCallMachine, { events: events as never });
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const state of [
      'camera',
      'cameraDenied',
      'checking',
      'joining',
      'joinFailed',
      'linkUsed',
      'waiting',
      'ended',
      'left',
    ])
      expect(reached.has(JSON.stringify(state)), state).toBe(true);
    expect(reached.has(JSON.stringify({ live: 'inCall' }))).toBe(true);
    expect(reached.has(JSON.stringify({ live: 'reconnecting' }))).toBe(true);
  });
});

/** Started, past a procedure without consent: the camera opens. */
async function pastConsent() {
  const { actor, effects } = sut();
  actor.start();
  await effects.settle('loadConsent', { output: { required: false, text: TEXT } });
  return { actor, effects };
}

describe('customer call machine: consent before the camera', () => {
  it('asks first where the procedure wants consent; the camera opens only after I agree', async () => {
    const { actor, effects } = sut();
    actor.start();
    await effects.settle('loadConsent', { output: { required: true, text: TEXT } });
    expect(actor.getSnapshot().value).toBe('consenting');
    expect(actor.getSnapshot().context.consentText).toEqual(TEXT);
    expect(effects.inputs.get('openCamera')).toBeUndefined();
    actor.send({ type: 'DECLINE' });
    expect(actor.getSnapshot().value).toBe('declined');
    actor.send({ type: 'RETRY' });
    actor.send({ type: 'AGREE', language: 'tr' });
    expect(actor.getSnapshot().value).toBe('camera');
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    expect(effects.inputs.get('join')).toEqual([{ consent: 'tr' }]);
  });

  it('without a consent step the camera opens at once and the call carries no consent', async () => {
    const { actor, effects } = await pastConsent();
    expect(actor.getSnapshot().value).toBe('camera');
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    expect(effects.inputs.get('join')).toEqual([{ consent: null }]);
  });
});

describe('customer call machine: the device check', () => {
  it('opens the camera, waits for the customer, and joins only when asked', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { output: undefined });
    expect(actor.getSnapshot().value).toBe('checking');
    expect(effects.inputs.get('join')).toBeUndefined();
    actor.send({ type: 'JOIN' });
    expect(actor.getSnapshot().value).toBe('joining');
  });

  it('a device chosen opens the camera again with every choice so far', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'DEVICE.CHOSEN', kind: 'microphone', deviceId: 'mic-2' });
    expect(actor.getSnapshot().value).toBe('camera');
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'DEVICE.CHOSEN', kind: 'camera', deviceId: 'cam-2' });
    await effects.settle('openCamera', { output: undefined });
    expect(effects.inputs.get('openCamera')).toEqual([
      {},
      { microphone: 'mic-2' },
      { microphone: 'mic-2', camera: 'cam-2' },
    ]);
    expect(actor.getSnapshot().value).toBe('checking');
  });

  it('a blocked camera says so, and Try again asks again', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { error: new Error('NotAllowedError') });
    expect(actor.getSnapshot().value).toBe('cameraDenied');
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('camera');
  });
});

describe('customer call machine: waiting through a dropped connection', () => {
  it('forgets the place told before the drop and shows it again once the server tells it', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    await effects.settle('join', { output: undefined });
    actor.send({ type: 'QUEUE.POSITION', position: 2, expected_wait_s: 120 });
    actor.send({ type: 'CONNECTION.LOST' });
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context).toMatchObject({
      position: null,
      expectedWait: null,
      reconnecting: true,
    });
    actor.send({ type: 'QUEUE.POSITION', position: 1, expected_wait_s: 0 });
    expect(actor.getSnapshot().context).toMatchObject({ position: 1, expectedWait: 0, reconnecting: false });
  });
});

describe('customer call machine: a guided call', () => {
  it('shows the step and the code the agent sent only once in the call; a reload’s read sets both again', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    await effects.settle('join', { output: undefined });
    actor.send({ type: 'GUIDE.STEP', kind: 'id_front' });
    expect(actor.getSnapshot().context.step).toBeNull();
    actor.send({ type: 'ANSWERED', agent_name: 'Umut Agent' });
    actor.send({ type: 'GUIDE.STEP', kind: 'second_channel_code' });
    const code = { channel: 'sms', to: '•••42', tries_left: 3, sent_at: '2026-11-26T10:00:00.000Z' } as const;
    actor.send({ type: 'GUIDE.CODE', code });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'second_channel_code', code });
    actor.send({ type: 'PEER.CONNECTED' });
    actor.send({ type: 'GUIDE.STEP', kind: 'questions' });
    actor.send({ type: 'GUIDE.CODE', code: null });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'questions', code: null });
  });
});

describe('customer call machine: a used join link', () => {
  it('ends in linkUsed when the server says the link is used up, with no retry; another failure may retry', async () => {
    const { actor, effects } = await pastConsent();
    await effects.settle('openCamera', { output: undefined });
    actor.send({ type: 'JOIN' });
    await effects.settle('join', { error: new Error('offline') });
    expect(actor.getSnapshot().value).toBe('joinFailed');
    actor.send({ type: 'RETRY' });
    await effects.settle('join', { error: new Error(JOIN_LINK_USED) });
    expect(actor.getSnapshot().value).toBe('linkUsed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().hasTag('camera')).toBe(false);
  });
});
