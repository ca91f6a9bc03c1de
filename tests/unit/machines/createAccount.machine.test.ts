import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import {
  type CompanyProfile,
  createAccountMachine,
  RESEND_AFTER_SECONDS,
  stepOf,
} from '../../../src/machines/createAccount.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const apiError = (status: number, detail: string) => ({ status, detail, body: { detail } });
const lost = apiError(0, 'Remote Server Error');
const starter = {
  id: 1,
  name: 'Starter',
  description: '500 verifications a month',
  verifications: 500,
  price: 25_000,
  currency: 'EUR',
  is_custom: false,
};
const profile: CompanyProfile = {
  company_name: 'Newco',
  first_name: 'Nora',
  last_name: 'Founder',
  phone: '+90 555 123 45 67',
  industry: 'payments',
  country: 'TR',
};
const options = {
  countries: [{ code: 'TR', name: 'Türkiye' }],
  industries: [{ code: 'payments', name: 'Payments' }],
};
const company = {
  access: 'access-token',
  company_id: 7,
  server: 'http://eu.test',
  regions: [{ name: 'Europe', server: 'http://eu.test' }],
  user_id: 40,
  services: ['verification', 'video_kyc'],
};
const checkout = { session_id: 'cs_1', url: 'http://pay.test/checkout/cs_1' };
const account = {
  id: 40,
  email: 'nora@newco.test',
  access: 'access-token',
  server: 'http://eu.test',
  company_id: 7,
  regions: company.regions,
  permissions: ['view_admin_page'],
  role: 'Admin',
  name: 'Nora Founder',
};

const events = [
  { type: 'account.submitted', email: ' nora@newco.test ', password: 'Signup#2026' },
  { type: 'code.submitted', code: ' 123456 ' },
  { type: 'code.resend' },
  { type: 'tick' },
  { type: 'package.chosen', packageId: 1 },
  { type: 'profile.submitted', profile },
  { type: 'payment.start' },
  { type: 'checkout.returned', sessionId: 'cs_1' },
  { type: 'payment.check' },
  { type: 'retry' },
  { type: 'back' },
  { type: 'restart' },
  done('register', 'handle-1'),
  failed('register', lost),
  failed('register', apiError(400, 'The password needs 8 or more characters')),
  done('sendCode'),
  failed('sendCode', apiError(429, 'Too many code requests, try again later')),
  done('verifyCode', { verified: true, signup_token: 'signup-token' }),
  done('verifyCode', { verified: true, already_registered: true }),
  done('verifyCode', { verified: true }),
  failed('verifyCode', apiError(400, 'Invalid code')),
  failed('verifyCode', lost),
  done('loadPackages', [starter]),
  failed('loadPackages', lost),
  done('loadOptions', options),
  failed('loadOptions', lost),
  done('createCompany', company),
  failed('createCompany', apiError(409, 'This e-mail address already has an account.')),
  failed('createCompany', apiError(401, 'Token is invalid or expired')),
  failed('createCompany', lost),
  done('buyPackage', checkout),
  failed('buyPackage', lost),
  done('paymentStatus', 'paid'),
  done('paymentStatus', 'declined'),
  done('paymentStatus', 'expired'),
  done('paymentStatus', 'open'),
  failed('paymentStatus', lost),
  done('loadAccount', account),
  failed('loadAccount', lost),
] as const;

/** A short countdown keeps the model small; the replay sends the ticks itself. */
const input = { resendAfter: 1 };
const ACTORS = [
  'register',
  'sendCode',
  'verifyCode',
  'loadPackages',
  'loadOptions',
  'createCompany',
  'buyPackage',
  'paymentStatus',
  'loadAccount',
] as const;

function sut() {
  const effects = new Effects();
  const opened: string[] = [];
  const stored: unknown[] = [];
  const actor = createActor(
    createAccountMachine.provide({
      actors: {
        ...Object.fromEntries(ACTORS.map((id) => [id, effects.actor(id)])),
        ticker: fromCallback(() => () => {}),
      } as never,
      actions: {
        openCheckout: (_, url) => opened.push(url),
        storeAccount: (_, params) => stored.push(params),
      },
    }),
    { input },
  );
  return { actor, effects, opened, stored };
}

describe('create-account machine: every path of the model', () => {
  const cases = modelCases(createAccountMachine, { events: events as never, input });

  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const value of [
      '"account"',
      '"registering"',
      '{"code":"waiting"}',
      '{"code":"resendable"}',
      '"resending"',
      '"verifying"',
      '"alreadyRegistered"',
      '{"packages":"loading"}',
      '{"packages":"failed"}',
      '{"packages":"choosing"}',
      '{"profile":"loading"}',
      '{"profile":"failed"}',
      '{"profile":"editing"}',
      '"creatingCompany"',
      '{"payment":"ready"}',
      '{"payment":"starting"}',
      '{"payment":"atCheckout"}',
      '{"payment":"checking"}',
      '{"payment":"pending"}',
      '"signingIn"',
      '"signInFailed"',
      '"firstSteps"',
    ]) {
      expect(reached.has(value), value).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

/** Drives the happy path up to the payment step. */
async function toPayment() {
  const s = sut();
  s.actor.start();
  s.actor.send({ type: 'account.submitted', email: ' nora@newco.test ', password: 'Signup#2026' });
  await s.effects.settle('register', { output: 'handle-1' });
  s.actor.send({ type: 'code.submitted', code: ' 123456 ' });
  await s.effects.settle('verifyCode', { output: { verified: true, signup_token: 'signup-token' } });
  await s.effects.settle('loadPackages', { output: [starter] });
  s.actor.send({ type: 'package.chosen', packageId: 1 });
  await s.effects.settle('loadOptions', { output: options });
  s.actor.send({ type: 'profile.submitted', profile });
  await s.effects.settle('createCompany', { output: company });
  return s;
}

describe('create-account machine: what each step sends', () => {
  it('registers with the trimmed e-mail and the password, which never enters the context; checks the code with the registration’s handle', async () => {
    const { actor, effects } = await toPayment();
    expect(effects.inputs.get('register')).toEqual([{ email: 'nora@newco.test', password: 'Signup#2026' }]);
    expect(effects.inputs.get('verifyCode')).toEqual([
      { email: 'nora@newco.test', otp: '123456', signup: 'handle-1' },
    ]);
    expect(effects.inputs.get('createCompany')).toEqual([{ token: 'signup-token', packageId: 1, profile }]);
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain('Signup#2026');
    // The sign-up token is spent once the company exists.
    expect(actor.getSnapshot().context.signupToken).toBeNull();
  });

  it('allows a resend only after the countdown, then starts it again', async () => {
    const s = sut();
    const actor = createActor(
      createAccountMachine.provide({
        actors: {
          register: s.effects.actor('register') as never,
          sendCode: s.effects.actor('sendCode') as never,
          ticker: fromCallback(() => () => {}),
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'account.submitted', email: 'nora@newco.test', password: 'Signup#2026' });
    await s.effects.settle('register', { output: 'handle-1' });
    expect(actor.getSnapshot().context.countdown).toBe(RESEND_AFTER_SECONDS);
    actor.send({ type: 'code.resend' });
    expect(actor.getSnapshot().value).toEqual({ code: 'waiting' });
    for (let i = 0; i < RESEND_AFTER_SECONDS; i++) actor.send({ type: 'tick' });
    expect(actor.getSnapshot().value).toEqual({ code: 'resendable' });
    actor.send({ type: 'code.resend' });
    await s.effects.settle('sendCode', { output: undefined });
    expect(actor.getSnapshot().context.countdown).toBe(RESEND_AFTER_SECONDS);
  });

  it('a wrong code, then the right one', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'account.submitted', email: 'nora@newco.test', password: 'Signup#2026' });
    await effects.settle('register', { output: 'handle-1' });
    actor.send({ type: 'code.submitted', code: '000000' });
    await effects.settle('verifyCode', { error: apiError(400, 'Invalid code') });
    expect(actor.getSnapshot().context.error).toBe('invalidCode');
    expect(stepOf(actor.getSnapshot())).toBe('code');
    actor.send({ type: 'code.submitted', code: '123456' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await effects.settle('verifyCode', { output: { verified: true, signup_token: 't' } });
    expect(actor.getSnapshot().matches({ packages: 'loading' })).toBe(true);
  });

  it('pays: declined, then another try that is open, then paid; opens the checkout each time and signs in', async () => {
    const { actor, effects, opened, stored } = await toPayment();
    actor.send({ type: 'payment.start' });
    await effects.settle('buyPackage', { output: checkout });
    actor.send({ type: 'checkout.returned', sessionId: 'cs_1' });
    await effects.settle('paymentStatus', { output: 'declined' });
    expect(actor.getSnapshot().context.error).toBe('paymentDeclined');
    actor.send({ type: 'payment.start' });
    await effects.settle('buyPackage', {
      output: { session_id: 'cs_2', url: 'http://pay.test/checkout/cs_2' },
    });
    actor.send({ type: 'checkout.returned', sessionId: 'cs_2' });
    await effects.settle('paymentStatus', { output: 'open' });
    expect(actor.getSnapshot().matches({ payment: 'pending' })).toBe(true);
    actor.send({ type: 'payment.check' });
    await effects.settle('paymentStatus', { output: 'paid' });
    await effects.settle('loadAccount', { output: account });
    expect(actor.getSnapshot().status).toBe('done');
    expect(stepOf(actor.getSnapshot())).toBe('done');
    expect(opened).toEqual([checkout.url, 'http://pay.test/checkout/cs_2']);
    expect(stored).toEqual([account]);
    expect(effects.inputs.get('paymentStatus')).toEqual([
      { company, sessionId: 'cs_1' },
      { company, sessionId: 'cs_2' },
      { company, sessionId: 'cs_2' },
    ]);
  });

  it('back from the payment to another package keeps the company and skips the profile', async () => {
    const { actor, effects } = await toPayment();
    actor.send({ type: 'back' });
    expect(actor.getSnapshot().matches({ packages: 'choosing' })).toBe(true);
    actor.send({ type: 'package.chosen', packageId: 2 });
    expect(actor.getSnapshot().matches({ payment: 'ready' })).toBe(true);
    actor.send({ type: 'payment.start' });
    expect(effects.inputs.get('buyPackage')).toEqual([{ company, packageId: 2 }]);
  });

  it('survives a reload: a persisted snapshot at the checkout goes on where it was', async () => {
    const { actor, effects } = await toPayment();
    actor.send({ type: 'payment.start' });
    await effects.settle('buyPackage', { output: checkout });
    const persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
    actor.stop();

    const after = sut();
    const restored = createActor(
      createAccountMachine.provide({
        actors: {
          paymentStatus: after.effects.actor('paymentStatus') as never,
          loadAccount: after.effects.actor('loadAccount') as never,
        },
      }),
      { snapshot: persisted, input },
    ).start();
    expect(restored.getSnapshot().matches({ payment: 'atCheckout' })).toBe(true);
    expect(restored.getSnapshot().context.company).toEqual(company);
    restored.send({ type: 'checkout.returned', sessionId: 'cs_1' });
    await after.effects.settle('paymentStatus', { output: 'paid' });
    await after.effects.settle('loadAccount', { output: account });
    expect(restored.getSnapshot().value).toBe('firstSteps');
  });
});
