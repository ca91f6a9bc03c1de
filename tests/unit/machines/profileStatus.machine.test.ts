import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { profileStatusMachine } from '../../../src/machines/profileStatus.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

/** A 409: someone else moved the profile to Pending Approval meanwhile (version 4). */
const conflict = {
  status: 409,
  detail: 'Changed by someone else meanwhile',
  body: {
    detail: 'Changed by someone else meanwhile',
    current: { id: 7, status: 'Pending Approval', version: 4 },
  },
};

/** The four-eyes answers: the change waits for a second reviewer (202), or is refused (409). */
const held = {
  result: false,
  status: 'Pending Review',
  detail: 'The change waits for a second review (four-eyes: approve_high_risk)',
  second_review: { case: 12, decision: 'approve', rules: ['approve_high_risk'] },
};
const refused = {
  status: 409,
  detail: 'A decision on this profile awaits a second review',
  body: {
    detail: 'A decision on this profile awaits a second review',
    reason: 'decision_waits',
    rules: ['approve_high_risk'],
    case: 12,
  },
};

const events = [
  { type: 'status.selected', status: 'Approved' },
  { type: 'status.selected', status: 'Rejected' },
  { type: 'status.selected', status: 'Pending Review' },
  { type: 'change.confirmed', reason: 'too short' },
  { type: 'change.confirmed', reason: '  Document is forged.  ' },
  { type: 'change.cancelled' },
  { type: 'status.loaded', status: 'Approved' },
  // With the version the server answers, so the model stays finite (without one an accepted change is +1,
  // tested below).
  done('changeStatus', { result: true, status: 'Approved', version: 4 }),
  done('changeStatus', { result: true, status: 'Rejected', version: 4 }),
  done('changeStatus', { result: false, status: 'Pending Review', detail: 'Status change failed' }),
  failed('changeStatus', { status: 403, detail: 'You do not have permission to perform this action' }),
  failed('changeStatus', conflict),
  done('changeStatus', held),
  failed('changeStatus', refused),
  { type: 'conflict.reapplied' },
  { type: 'conflict.discarded' },
] as const;

const input = { profileId: 7, status: 'Pending Review' as const, version: 3 };

function sut() {
  const effects = new Effects();
  const notices: [string, unknown][] = [];
  const actor = createActor(
    profileStatusMachine.provide({
      actors: { changeStatus: effects.actor('changeStatus') as never },
      actions: {
        notifyChanged: (_, status) => notices.push(['changed', status]),
        notifyFailed: (_, detail) => notices.push(['failed', detail]),
        notifyHeld: (_, second) => notices.push(['held', second]),
        notifyRefused: (_, why) => notices.push(['refused', why]),
        reload: () => notices.push(['reload', null]),
      },
    }),
    { input },
  );
  return { actor, effects, notices };
}

describe('profile status machine: every path of the model', () => {
  const cases = modelCases(profileStatusMachine, { events: events as never, input });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => c.steps.at(-1)?.state.value));
    for (const state of ['idle', 'confirming', 'changing', 'conflicted'])
      expect(reached.has(state), state).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('profile status machine', () => {
  it('changes at once to a status that needs no confirmation, and takes the status from the answer', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    expect(effects.inputs.get('changeStatus')).toEqual([
      { profileId: 7, status: 'Approved', reject_reason: null, version: 3 },
    ]);
    await effects.settle('changeStatus', { output: { result: true, status: 'Temporarily Approved' } });
    expect(actor.getSnapshot().context.current).toBe('Temporarily Approved');
    expect(notices).toEqual([['changed', 'Temporarily Approved']]);
  });

  it.each(['Rejected', 'Blacklisted'] as const)(
    '%s asks for confirmation and a reason of 10 characters',
    async (status) => {
      const { actor, effects, notices } = sut();
      actor.start();
      actor.send({ type: 'status.selected', status });
      expect(actor.getSnapshot().value).toBe('confirming');
      actor.send({ type: 'change.confirmed', reason: ' 123456789 ' });
      expect(actor.getSnapshot().value).toBe('confirming');
      expect(effects.inputs.get('changeStatus')).toBeUndefined();
      actor.send({ type: 'change.confirmed', reason: ' Forged passport photo ' });
      expect(effects.inputs.get('changeStatus')).toEqual([
        { profileId: 7, status, reject_reason: 'Forged passport photo', version: 3 },
      ]);
      await effects.settle('changeStatus', { output: { result: true, status } });
      expect(actor.getSnapshot().context.current).toBe(status);
      expect(notices).toEqual([['changed', status]]);
    },
  );

  it('keeps the status when the server answers result false', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', {
      output: { result: false, status: 'Pending Review', detail: 'Status change failed' },
    });
    expect(actor.getSnapshot().context.current).toBe('Pending Review');
    expect(notices).toEqual([['failed', 'Status change failed']]);
  });

  it('keeps the status and reports the detail when the request fails', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', {
      error: { status: 403, detail: 'You do not have permission to perform this action' },
    });
    expect(actor.getSnapshot().context.current).toBe('Pending Review');
    expect(notices).toEqual([['failed', 'You do not have permission to perform this action']]);
  });

  it('keeps the status and says so when the change waits for a second review', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', { output: held });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({
      current: 'Pending Review',
      version: 3,
      target: null,
    });
    expect(notices).toEqual([['held', held.second_review]]);
  });

  it('tells a four-eyes refusal apart from other errors (a version conflict stays a conflict)', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', { error: refused });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.current).toBe('Pending Review');
    expect(notices).toEqual([
      ['refused', { reason: 'decision_waits', rules: ['approve_high_risk'], case: 12 }],
    ]);
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', { error: conflict });
    expect(actor.getSnapshot().hasTag('conflict')).toBe(true);
    expect(notices).toHaveLength(1);
  });

  it('ignores choosing the current status', () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Pending Review' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(effects.inputs.get('changeStatus')).toBeUndefined();
  });

  it('takes a newer version while idle, and keeps the chosen one while confirming', () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'status.loaded', status: 'Pending Review', version: 4 });
    actor.send({ type: 'status.selected', status: 'Rejected' });
    actor.send({ type: 'status.loaded', status: 'Pending Approval', version: 5 });
    actor.send({ type: 'change.confirmed', reason: 'Forged passport photo' });
    expect(effects.inputs.get('changeStatus')).toEqual([
      { profileId: 7, status: 'Rejected', reject_reason: 'Forged passport photo', version: 4 },
    ]);
  });

  it('keeps its snapshot when a load brings the status and version it holds, idle or confirming', () => {
    const { actor } = sut();
    actor.start();
    const idle = actor.getSnapshot();
    actor.send({ type: 'status.loaded', status: 'Pending Review', version: 3 });
    actor.send({ type: 'status.loaded', status: 'Pending Review' });
    expect(actor.getSnapshot()).toBe(idle);
    actor.send({ type: 'status.loaded', status: 'Pending Review', version: 4 });
    expect(actor.getSnapshot()).not.toBe(idle);
    expect(actor.getSnapshot().context.version).toBe(4);

    actor.send({ type: 'status.selected', status: 'Rejected' });
    const confirming = actor.getSnapshot();
    actor.send({ type: 'status.loaded', status: 'Pending Review', version: 9 });
    expect(actor.getSnapshot()).toBe(confirming);
    actor.send({ type: 'status.loaded', status: 'Approved', version: 9 });
    expect(actor.getSnapshot().context).toMatchObject({ current: 'Approved', version: 4 });
  });

  it('after a conflict, re-applies the same status and reason with the version there now', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Rejected' });
    actor.send({ type: 'change.confirmed', reason: ' Forged passport photo ' });
    await effects.settle('changeStatus', { error: conflict });
    const snapshot = actor.getSnapshot();
    expect(snapshot.hasTag('conflict')).toBe(true);
    expect(snapshot.context.conflict).toMatchObject({ status: 'Pending Approval', version: 4 });
    expect(notices).toEqual([]);
    actor.send({ type: 'conflict.reapplied' });
    expect(effects.inputs.get('changeStatus')?.at(-1)).toEqual({
      profileId: 7,
      status: 'Rejected',
      reject_reason: 'Forged passport photo',
      version: 4,
    });
    await effects.settle('changeStatus', { output: { result: true, status: 'Rejected' } });
    expect(actor.getSnapshot().context).toMatchObject({ current: 'Rejected', conflict: null });
    expect(notices).toEqual([['changed', 'Rejected']]);
  });

  it('after a conflict, discarding keeps what is there now and reloads', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Approved' });
    await effects.settle('changeStatus', { error: conflict });
    actor.send({ type: 'conflict.discarded' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({
      current: 'Pending Approval',
      version: 4,
      target: null,
      reason: null,
      conflict: null,
    });
    expect(notices).toEqual([['reload', null]]);
  });

  it('the next change carries the version the accepted one left, before any reload', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'status.selected', status: 'Pending Approval' });
    await effects.settle('changeStatus', { output: { result: true, status: 'Pending Approval' } });
    actor.send({ type: 'status.selected', status: 'Approved' });
    expect(effects.inputs.get('changeStatus')?.at(-1)).toMatchObject({ status: 'Approved', version: 4 });
    // A refused change (result false) leaves the version where it was.
    await effects.settle('changeStatus', { output: { result: false, status: 'Pending Approval' } });
    actor.send({ type: 'status.selected', status: 'Approved' });
    expect(effects.inputs.get('changeStatus')?.at(-1)).toMatchObject({ status: 'Approved', version: 4 });
  });
});
