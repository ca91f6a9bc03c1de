import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { twoFactorMachine, WRONG_PASSWORD } from '../../../src/machines/twoFactor.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const events = [
  { type: 'qr.requested' },
  { type: 'disable.requested' },
  { type: 'password.confirmed', password: 'Secret12' },
  { type: 'password.cancelled' },
  { type: 'code.submitted', code: ' 123456 ' },
  { type: 'setup.cancelled' },
  { type: 'mfa.loaded', mfa: true },
  { type: 'mfa.loaded', mfa: false },
  done('requestSecret', 'JBSWY3DPEHPK3PXP'),
  failed('requestSecret', { status: 400, detail: WRONG_PASSWORD }),
  failed('requestSecret', { status: 500, detail: 'Remote Server Error' }),
  done('verifyCode'),
  failed('verifyCode', { status: 400, detail: 'Invalid code' }),
  done('disable'),
  failed('disable', { status: 400, detail: WRONG_PASSWORD }),
  failed('disable', { status: 500, detail: 'Remote Server Error' }),
  done('refreshUser'),
  failed('refreshUser', { status: 500, detail: 'Remote Server Error' }),
] as const;

function sut(input: { mfa: boolean; forced?: boolean }) {
  const effects = new Effects();
  const actor = createActor(
    twoFactorMachine.provide({
      actors: {
        requestSecret: effects.actor('requestSecret') as never,
        verifyCode: effects.actor('verifyCode') as never,
        disable: effects.actor('disable') as never,
        refreshUser: effects.actor('refreshUser') as never,
      },
    }),
    { input },
  );
  return { actor, effects };
}

/** Not started → password → secret → code → refreshed: enabled. */
async function enabledFromScratch() {
  const { actor, effects } = sut({ mfa: false });
  actor.start();
  actor.send({ type: 'qr.requested' });
  actor.send({ type: 'password.confirmed', password: 'Secret12' });
  await effects.settle('requestSecret', { output: 'JBSWY3DPEHPK3PXP' });
  actor.send({ type: 'code.submitted', code: '123456' });
  await effects.settle('verifyCode', { output: undefined });
  await effects.settle('refreshUser', { output: undefined });
  return { actor, effects };
}

describe.each([
  ['not started', { mfa: false }],
  ['enabled', { mfa: true }],
  ['forced setup', { mfa: true, forced: true }],
] as const)('two-factor machine (%s): every path of the model', (_, input) => {
  const cases = modelCases(twoFactorMachine, { events: events as never, input });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const { actor, effects } = sut(input);
    await replay(actor, effects, testCase);
  });
});

describe('two-factor machine', () => {
  it('covers every state over its three starting points', () => {
    const reached = new Set(
      [{ mfa: false }, { mfa: true }, { mfa: true, forced: true }].flatMap((input) =>
        modelCases(twoFactorMachine, { events: events as never, input }).map(
          (c) => c.steps.at(-1)?.state.value,
        ),
      ),
    );
    for (const state of [
      'notStarted',
      'enabled',
      'confirmingPassword',
      'requestingSecret',
      'showingQr',
      'verifying',
      'disabling',
      'refreshing',
      'completed',
    ]) {
      expect(reached.has(state), state).toBe(true);
    }
  });

  it('enables: password → secret → code verified with the same password → user refreshed → enabled', async () => {
    const { actor, effects } = await enabledFromScratch();
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(effects.inputs.get('verifyCode')).toEqual([
      { secret: 'JBSWY3DPEHPK3PXP', code: '123456', password: 'Secret12' },
    ]);
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('a wrong password keeps the prompt open with "Wrong password"', async () => {
    const { actor, effects } = sut({ mfa: true });
    actor.start();
    actor.send({ type: 'disable.requested' });
    actor.send({ type: 'password.confirmed', password: 'nope' });
    await effects.settle('disable', { error: { status: 400, detail: WRONG_PASSWORD } });
    expect(actor.getSnapshot().value).toBe('confirmingPassword');
    expect(actor.getSnapshot().context.error).toBe('wrongPassword');
    actor.send({ type: 'password.cancelled' });
    expect(actor.getSnapshot().value).toBe('enabled');
  });

  it('follows the user as loaded again only in a steady view: a prompt opened meanwhile stays open', async () => {
    const { actor } = await enabledFromScratch();
    // Disable is clicked before the reloaded user (mfa on) reaches the panel.
    actor.send({ type: 'disable.requested' });
    actor.send({ type: 'mfa.loaded', mfa: true });
    expect(actor.getSnapshot().value).toBe('confirmingPassword');
    actor.send({ type: 'password.cancelled' });
    expect(actor.getSnapshot().value).toBe('enabled');
    // Another tab turned it off: the steady view follows.
    actor.send({ type: 'mfa.loaded', mfa: false });
    expect(actor.getSnapshot().value).toBe('notStarted');
    actor.send({ type: 'mfa.loaded', mfa: true });
    expect(actor.getSnapshot().value).toBe('enabled');
  });

  it('a forced setup never follows a loaded user with two-factor on', () => {
    const { actor } = sut({ mfa: true, forced: true });
    actor.start();
    actor.send({ type: 'mfa.loaded', mfa: true });
    expect(actor.getSnapshot().value).toBe('notStarted');
  });

  it('the forced setup ends when the code is verified, without a refresh', async () => {
    const { actor, effects } = sut({ mfa: true, forced: true });
    actor.start();
    expect(actor.getSnapshot().value).toBe('notStarted');
    actor.send({ type: 'qr.requested' });
    actor.send({ type: 'password.confirmed', password: 'Secret12' });
    await effects.settle('requestSecret', { output: 'SECRET' });
    actor.send({ type: 'code.submitted', code: '000000' });
    await effects.settle('verifyCode', { output: undefined });
    expect(actor.getSnapshot().status).toBe('done');
    expect(effects.inputs.get('refreshUser')).toBeUndefined();
  });
});
