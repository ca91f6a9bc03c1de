/**
 * The sign-up's stored place (CreateAccountScreen keeps snapshots that are not busy, or busy with a
 * `repeatable` read): a snapshot taken while a step still loads restores to that step and loads again; a
 * write in flight is never repeatable.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { Package } from '#contract/payments';
import type { EmailVerified } from '#contract/signup';
import { createAccountMachine } from '../../../src/machines/createAccount.machine';

const starter: Package = {
  id: 1,
  name: 'Starter',
  description: '500 verifications a month',
  verifications: 500,
  price: 25_000,
  currency: 'EUR',
  is_custom: false,
  services: null,
  period_days: 30,
};
const options = {
  countries: [{ code: 'TR', name: 'Türkiye' }],
  industries: [{ code: 'payments', name: 'Payments' }],
};
const never = <T>() => new Promise<T>(() => {});

/** The machine with every request answered at once, except the profile's options (held or answered). */
function machine(loadOptions: () => Promise<typeof options>, register = async () => 'handle') {
  return createAccountMachine.provide({
    actors: {
      register: fromPromise(register),
      sendCode: fromPromise(async () => {}),
      verifyCode: fromPromise<EmailVerified, { email: string; otp: string; signup: string | null }>(
        async () => ({
          verified: true,
          signup_token: 'token',
        }),
      ),
      loadPackages: fromPromise<Package[], void>(async () => [starter]),
      loadOptions: fromPromise(loadOptions),
      ticker: fromCallback(() => () => {}),
    },
  });
}

const steady = (snapshot: { hasTag(tag: 'busy' | 'repeatable'): boolean }) =>
  !snapshot.hasTag('busy') || snapshot.hasTag('repeatable');

describe('the sign-up snapshot kept for a reload', () => {
  it('a step still loading its options is kept, and the restored machine loads them again', async () => {
    const first = createActor(machine(never), { input: {} }).start();
    first.send({ type: 'account.submitted', email: 'nora@newco.test', password: 'Signup#2026' });
    await waitFor(first, (s) => s.matches('code'));
    first.send({ type: 'code.submitted', code: '123456' });
    await waitFor(first, (s) => s.matches({ packages: 'choosing' }));
    first.send({ type: 'package.chosen', packageId: 1 });
    expect(first.getSnapshot().matches({ profile: 'loading' })).toBe(true);
    expect(steady(first.getSnapshot())).toBe(true);
    const stored = JSON.parse(JSON.stringify(first.getPersistedSnapshot()));
    first.stop();

    let asked = 0;
    const restored = createActor(
      machine(async () => {
        asked += 1;
        return options;
      }),
      { snapshot: stored, input: {} },
    ).start();
    const editing = await waitFor(restored, (s) => s.matches({ profile: 'editing' }));
    expect(asked).toBe(1);
    expect(editing.context.options).toEqual(options);
    expect(editing.context.packageId).toBe(1);
  });

  it('a write under way (registering) is not kept', async () => {
    const actor = createActor(machine(never, never), { input: {} }).start();
    actor.send({ type: 'account.submitted', email: 'nora@newco.test', password: 'Signup#2026' });
    expect(actor.getSnapshot().matches('registering')).toBe(true);
    expect(steady(actor.getSnapshot())).toBe(false);
    actor.stop();
  });
});
