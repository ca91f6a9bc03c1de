import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { AML_DISABLED_DETAIL, amlFailureOf, amlReviewMachine } from '../../../src/machines/amlReview.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const refused = { status: 403, detail: "You don't have permission to update AML" };
const events = [
  { type: 'check.requested' },
  { type: 'approve.requested' },
  { type: 'approve.confirmed' },
  { type: 'approve.cancelled' },
  { type: 'failure.dismissed' },
  done('runCheck', { status: 'hit', matches: 1 }),
  failed('runCheck', refused),
  done('approve', { approved: true }),
  failed('approve', { status: 0, detail: 'Remote Server Error' }),
] as const;

function sut() {
  const effects = new Effects();
  const notices: [string, unknown][] = [];
  const actor = createActor(
    amlReviewMachine.provide({
      actors: { runCheck: effects.actor('runCheck') as never, approve: effects.actor('approve') as never },
      actions: {
        notifyChecked: (_, outcome) => notices.push(['checked', outcome]),
        notifyApproved: () => notices.push(['approved', null]),
        notifyFailed: (_, failure) => notices.push(['failed', failure]),
      },
    }),
    { input: { profileId: 26 } },
  );
  return { actor, effects, notices };
}

describe('AML review machine: every path of the model', () => {
  const cases = modelCases(amlReviewMachine, { events: events as never, input: { profileId: 26 } });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => c.steps.at(-1)?.state.value));
    for (const state of ['idle', 'confirming', 'checking', 'approving'])
      expect(reached.has(state), state).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('AML review machine: what the user sees', () => {
  it('runs a check for the profile and reports its outcome', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'check.requested' });
    expect(actor.getSnapshot().hasTag('checking')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await effects.settle('runCheck', { output: { status: 'hit', matches: 2 } });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(effects.inputs.get('runCheck')).toEqual([{ profileId: 26 }]);
    expect(notices).toEqual([['checked', { status: 'hit', matches: 2 }]]);
  });

  it('approves only after confirmation; cancelling sends nothing', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'approve.requested' });
    actor.send({ type: 'approve.cancelled' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(effects.inputs.get('approve')).toBeUndefined();
    actor.send({ type: 'approve.requested' });
    actor.send({ type: 'approve.confirmed' });
    expect(actor.getSnapshot().hasTag('approving')).toBe(true);
    await effects.settle('approve', { output: {} });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([['approved', null]]);
  });

  it('turns a refusal into the AML permission failure, kept until dismissed or retried', async () => {
    const { actor, effects, notices } = sut();
    actor.start();
    actor.send({ type: 'approve.requested' });
    actor.send({ type: 'approve.confirmed' });
    await effects.settle('approve', { error: refused });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.failure).toEqual({ kind: 'noPermission', detail: refused.detail });
    expect(notices).toEqual([['failed', { kind: 'noPermission', detail: refused.detail }]]);
    actor.send({ type: 'check.requested' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    await effects.settle('runCheck', { error: refused });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'failure.dismissed' });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('tells a refusal, a company without AML and other failures apart', () => {
    expect(amlFailureOf(refused)).toEqual({ kind: 'noPermission', detail: refused.detail });
    expect(amlFailureOf({ status: 403, detail: AML_DISABLED_DETAIL })).toMatchObject({ kind: 'disabled' });
    expect(amlFailureOf({ status: 400, detail: 'The profile has no name to screen' })).toEqual({
      kind: 'failed',
      detail: 'The profile has no name to screen',
    });
    expect(amlFailureOf(new Error('boom'))).toEqual({ kind: 'failed', detail: null });
  });
});
