/**
 * The sign-in page's single sign-on machines with stubbed requests: the e-mail is looked up once typing pauses,
 * Continue sends the browser to the provider, and the provider's answer becomes a stored account or a refusal.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SsoCallbackResponse } from '#contract/sso';
import type { SignedInAccount } from '../../../src/machines/session.machine';
import { ssoCallbackMachine } from '../../../src/machines/ssoCallback.machine';
import { ssoSignInMachine } from '../../../src/machines/ssoSignIn.machine';

const SSO_DOMAIN = 'bank.example';

function signIn() {
  const looked: string[] = [];
  const redirects: string[] = [];
  const actor = createActor(
    ssoSignInMachine.provide({
      actors: {
        lookup: fromPromise(async ({ input }) => {
          looked.push(input.email);
          return { sso: input.email.endsWith(`@${SSO_DOMAIN}`) };
        }),
        start: fromPromise(async ({ input }) => ({
          sso: true,
          authorization_url: `https://idp.example/auth?login_hint=${input.email}&return=${input.returnTo}`,
        })),
      },
      actions: { redirect: (_, url) => void redirects.push(url) },
    }),
    { input: { returnTo: '/review' } },
  ).start();
  return { actor, looked, redirects };
}

describe('the e-mail step', () => {
  it('looks up only the address typing paused on, and sends an SSO address to its provider', async () => {
    const { actor, looked, redirects } = signIn();
    for (const email of ['a', 'an', 'anna@bank', `anna@${SSO_DOMAIN}`])
      actor.send({ type: 'email.changed', email });
    await waitFor(actor, (s) => s.matches('known') && s.context.checked !== null);
    expect(looked).toEqual([`anna@${SSO_DOMAIN}`]);
    expect(actor.getSnapshot().context.sso).toBe(true);
    actor.send({ type: 'sso.continued' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(redirects).toEqual([`https://idp.example/auth?login_hint=anna@${SSO_DOMAIN}&return=/review`]);
  });

  it('keeps the password for other addresses, and Continue does nothing there', async () => {
    const { actor, redirects } = signIn();
    actor.send({ type: 'email.changed', email: 'agent@acme.test' });
    await waitFor(actor, (s) => s.matches('known') && s.context.checked !== null);
    expect(actor.getSnapshot().context.sso).toBe(false);
    actor.send({ type: 'sso.continued' });
    expect(actor.getSnapshot().matches('known')).toBe(true);
    expect(redirects).toEqual([]);
  });
});

const session: SsoCallbackResponse = {
  access: `x.${Buffer.from(JSON.stringify({ user_id: 7, email: 'anna@bank.example' })).toString('base64url')}.y`,
  company_id: 1,
  server: 'https://eu.example',
  regions: [{ name: 'Europe', server: 'https://eu.example' }],
  return_to: '/review',
};

function callback(finish: () => Promise<SsoCallbackResponse>) {
  const stored: SignedInAccount[] = [];
  const landed: (string | null)[] = [];
  const actor = createActor(
    ssoCallbackMachine.provide({
      actors: {
        finish: fromPromise(finish),
        loadAccount: fromPromise(async ({ input }) => ({
          id: 7,
          email: input.email,
          access: input.login.access,
          server: input.login.server,
          company_id: input.login.company_id,
          regions: input.login.regions,
          permissions: [],
          role: 'User',
          name: 'Anna',
          start_page: 'customers' as const,
        })),
      },
      actions: {
        storeAccount: (_, account) => void stored.push(account),
        signedIn: (_, returnTo) => void landed.push(returnTo),
      },
    }),
    { input: { answer: { state: 's', code: 'c' } } },
  ).start();
  return { actor, stored, landed };
}

describe('the provider’s answer', () => {
  it('stores the account and opens the page the sign-in started from', async () => {
    const { actor, stored, landed } = callback(async () => session);
    await waitFor(actor, (s) => s.status === 'done');
    expect(stored.map((a) => [a.id, a.email])).toEqual([[7, 'anna@bank.example']]);
    expect(landed).toEqual(['/review']);
  });

  it('shows the server’s refusal', async () => {
    const { actor, stored } = callback(async () => {
      throw Object.assign(new Error('refused'), { status: 400, detail: 'The ID token has expired' });
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('The ID token has expired');
    expect(stored).toEqual([]);
  });
});
