import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { passwordResetMachine, RESEND_AFTER_SECONDS } from '../../../src/machines/passwordReset.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const events = [
  { type: 'email.submitted', email: ' agent@acme.test ' },
  { type: 'code.resend' },
  { type: 'reset.submitted', code: ' 123456 ', password: 'NewSecret1' },
  { type: 'email.change' },
  { type: 'tick' },
  done('sendCode'),
  failed('sendCode', { status: 400, detail: 'This field can not be empty.' }),
  done('submitReset'),
  failed('submitReset', { status: 400, detail: 'Invalid code' }),
] as const;

/** A short countdown keeps the model small; the replay sends the ticks itself. */
const input = { resendAfter: 2 };

function sut(given: { resendAfter?: number } = input) {
  const effects = new Effects();
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        sendCode: effects.actor('sendCode') as never,
        submitReset: effects.actor('submitReset') as never,
        ticker: fromCallback(() => () => {}),
      },
    }),
    { input: given },
  );
  return { actor, effects };
}

describe('password reset machine: every path of the model', () => {
  const cases = modelCases(passwordResetMachine, { events: events as never, input });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const value of [
      '"enteringEmail"',
      '"sending"',
      '{"enteringCode":"waiting"}',
      '{"enteringCode":"resendable"}',
      '"resending"',
      '"submitting"',
      '"done"',
    ]) {
      expect(reached.has(value), value).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('password reset machine: resend countdown', () => {
  it('allows a resend only after the countdown, then starts it again', async () => {
    const { actor, effects } = sut({});
    actor.start();
    actor.send({ type: 'email.submitted', email: 'agent@acme.test' });
    await effects.settle('sendCode', { output: undefined });
    expect(actor.getSnapshot().context.countdown).toBe(RESEND_AFTER_SECONDS);
    actor.send({ type: 'code.resend' });
    expect(actor.getSnapshot().value).toEqual({ enteringCode: 'waiting' });
    for (let i = 0; i < RESEND_AFTER_SECONDS; i++) actor.send({ type: 'tick' });
    expect(actor.getSnapshot().value).toEqual({ enteringCode: 'resendable' });
    actor.send({ type: 'code.resend' });
    await effects.settle('sendCode', { output: undefined });
    expect(actor.getSnapshot().context.countdown).toBe(RESEND_AFTER_SECONDS);
    expect(effects.inputs.get('sendCode')).toEqual([
      { email: 'agent@acme.test' },
      { email: 'agent@acme.test' },
    ]);
  });

  it('submits the e-mail, the trimmed code and the new password', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'email.submitted', email: 'agent@acme.test' });
    await effects.settle('sendCode', { output: undefined });
    actor.send({ type: 'reset.submitted', code: ' 123456 ', password: 'NewSecret1' });
    await effects.settle('submitReset', { output: undefined });
    expect(effects.inputs.get('submitReset')).toEqual([
      { email: 'agent@acme.test', otp: '123456', new_password: 'NewSecret1' },
    ]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('password reset machine: a code from a link (invitation)', () => {
  it('goes straight to the new password without sending a code, and submits with the link’s e-mail', async () => {
    const sent: string[] = [];
    const submitted: unknown[] = [];
    const actor = createActor(
      passwordResetMachine.provide({
        actors: {
          sendCode: fromPromise(async ({ input }) => {
            sent.push(input.email);
          }),
          submitReset: fromPromise(async ({ input }) => {
            submitted.push(input);
          }),
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'code.received', email: ' invited@acme.test ' });
    expect(actor.getSnapshot().matches({ enteringCode: 'resendable' })).toBe(true);
    actor.send({ type: 'reset.submitted', code: '123456', password: 'Invited@2026' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([]);
    expect(submitted).toEqual([{ email: 'invited@acme.test', otp: '123456', new_password: 'Invited@2026' }]);
  });
});
