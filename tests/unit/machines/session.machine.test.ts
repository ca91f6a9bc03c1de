import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { LOGIN_DETAILS, sessionMachine } from '../../../src/machines/session.machine';
import { isApiUserToken, readTokenClaims } from '../../../src/machines/tokenClaims';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

const token = (claims: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const userToken = token({ user_id: 3, company_id: 1, email: 'agent@acme.test', is_api_user: false });
const apiToken = token({ user_id: 9, company_id: 1, email: 'api@acme.test', is_api_user: true });
const regions = [
  { name: 'Europe', server: 'http://eu.test' },
  { name: 'Türkiye', server: 'http://tr.test' },
];
const success = (access: string) => ({
  access,
  company_id: 1,
  server: 'http://eu.test',
  regions: regions.slice(0, 1),
});
const account = {
  id: 3,
  email: 'agent@acme.test',
  access: userToken,
  server: 'http://eu.test',
  company_id: 1,
  regions: [],
  permissions: ['view_profiles_page'],
  role: 'User',
  name: 'Ada Agent',
};
const apiError = (status: number, detail: string, body: unknown = { detail }) => ({ status, detail, body });
const assertion = {
  challenge_id: 'c1',
  response: {
    id: 'cred',
    rawId: 'cred',
    type: 'public-key' as const,
    response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
    clientExtensionResults: {},
  },
};
const bodyOf = (detail: string) =>
  detail === LOGIN_DETAILS.twoFactorReset || detail === LOGIN_DETAILS.passkeyRegistration
    ? { detail, access: 'setup-token' }
    : detail === LOGIN_DETAILS.passkeyRequired
      ? { detail, otp: true }
      : { detail };

const events = [
  { type: 'credentials.submitted', email: ' agent@acme.test ', password: 'Secret12' },
  { type: 'region.chosen', server: 'http://tr.test' },
  { type: 'code.submitted', otp: '123456' },
  { type: 'photo.taken', photo: 'data:image/jpeg;base64,AAAA' },
  { type: 'camera.denied' },
  { type: 'back' },
  { type: 'passwordReset.completed' },
  { type: 'twoFactor.completed' },
  { type: 'forced.cancelled' },
  { type: 'passkey.requested' },
  { type: 'passkey.chosen' },
  { type: 'code.chosen' },
  { type: 'passkey.registered' },
  done('passkeyAssertion', assertion),
  failed('passkeyAssertion', new Error('NotAllowedError')),
  done('passkeyLogin', success(userToken)),
  failed('passkeyLogin', apiError(400, LOGIN_DETAILS.photoRequired)),
  failed('passkeyLogin', apiError(400, LOGIN_DETAILS.passkeyRejected)),
  done('login', { regions }),
  done('login', success(userToken)),
  done('login', success(apiToken)),
  ...Object.values(LOGIN_DETAILS).map((detail) => failed('login', apiError(400, detail, bodyOf(detail)))),
  failed('login', apiError(0, 'Remote Server Error')),
  done('loadAccount', account),
  failed('loadAccount', apiError(500, 'Remote Server Error')),
] as const;

function sut() {
  const effects = new Effects();
  const stored: unknown[] = [];
  let signedIn = 0;
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: effects.actor('login') as never,
        loadAccount: effects.actor('loadAccount') as never,
        passkeyAssertion: effects.actor('passkeyAssertion') as never,
        passkeyLogin: effects.actor('passkeyLogin') as never,
      },
      actions: {
        storeAccount: (_, params) => stored.push(params),
        signedIn: () => {
          signedIn += 1;
        },
      },
    }),
    { input: {} },
  );
  return { actor, effects, stored, signedIn: () => signedIn };
}

describe('session machine: every path of the model', () => {
  const cases = modelCases(sessionMachine, { events: events as never });

  it('reaches every state of the machine', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const value of [
      'signedIn',
      'forcedPasswordReset',
      'forcedTwoFactor',
      'forcedPasskey',
      'assertingPasskey',
      'passkeySigningIn',
      '{"signedOut":"askingPasskey"}',
      '{"signedOut":"credentials"}',
      '{"signedOut":"choosingRegion"}',
      '{"signedOut":"askingCode"}',
      '{"signedOut":"askingPhoto"}',
      'submitting',
      'loadingAccount',
    ]) {
      expect(reached.has(value.startsWith('{') ? value : JSON.stringify(value)), value).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { actor, effects } = sut();
    await replay(actor, effects, testCase);
  });
});

describe('session machine: what reaches the outside', () => {
  it('sends what the user typed, the chosen region, the code and the photo to the login call', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: ' agent@acme.test ', password: 'Secret12' });
    await effects.settle('login', { output: { regions } });
    actor.send({ type: 'region.chosen', server: 'http://tr.test' });
    await effects.settle('login', { error: apiError(400, LOGIN_DETAILS.otpRequired) });
    actor.send({ type: 'code.submitted', otp: ' 654321 ' });
    expect(effects.inputs.get('login')).toEqual([
      {
        username: 'agent@acme.test',
        password: 'Secret12',
        otp: null,
        photo: null,
        server: null,
        passkey: null,
      },
      {
        username: 'agent@acme.test',
        password: 'Secret12',
        otp: null,
        photo: null,
        server: 'http://tr.test',
        passkey: null,
      },
      {
        username: 'agent@acme.test',
        password: 'Secret12',
        otp: '654321',
        photo: null,
        server: 'http://tr.test',
        passkey: null,
      },
    ]);
  });

  it('stores the loaded account and signals the sign-in exactly once', async () => {
    const { actor, effects, stored, signedIn } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'agent@acme.test', password: 'Secret12' });
    await effects.settle('login', { output: success(userToken) });
    expect(effects.inputs.get('loadAccount')).toEqual([
      { login: success(userToken), email: 'agent@acme.test' },
    ]);
    await effects.settle('loadAccount', { output: account });
    expect(actor.getSnapshot().status).toBe('done');
    expect(stored).toEqual([account]);
    expect(signedIn()).toBe(1);
  });

  it('never stores a session for an API user token', async () => {
    const { actor, effects, stored } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'api@acme.test', password: 'Secret12' });
    await effects.settle('login', { output: success(apiToken) });
    expect(actor.getSnapshot().context.error).toBe('apiUser');
    expect(effects.inputs.get('loadAccount')).toBeUndefined();
    expect(stored).toEqual([]);
  });

  it('keeps the restricted session of a forced two-factor reset', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'agent@acme.test', password: 'Secret12' });
    await effects.settle('login', {
      error: apiError(400, LOGIN_DETAILS.twoFactorReset, {
        detail: LOGIN_DETAILS.twoFactorReset,
        access: userToken,
        server: 'http://eu.test',
      }),
    });
    expect(actor.getSnapshot().value).toBe('forcedTwoFactor');
    expect(actor.getSnapshot().context.setup).toEqual({
      access: userToken,
      server: 'http://eu.test',
      user_id: 3,
    });
  });
});

describe('session machine: passkeys', () => {
  it('asks for the passkey after the password, then sends the assertion with the password', async () => {
    const { actor, effects, stored } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'agent@acme.test', password: 'Secret12' });
    await effects.settle('login', {
      error: apiError(400, LOGIN_DETAILS.passkeyRequired, {
        detail: LOGIN_DETAILS.passkeyRequired,
        otp: false,
      }),
    });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'askingPasskey' });
    // No TOTP code is offered when the server does not accept one.
    actor.send({ type: 'code.chosen' });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'askingPasskey' });
    actor.send({ type: 'passkey.chosen' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await effects.settle('passkeyAssertion', { output: assertion });
    expect(effects.inputs.get('login')?.at(-1)).toEqual({
      username: 'agent@acme.test',
      password: 'Secret12',
      otp: null,
      photo: null,
      server: null,
      passkey: assertion,
    });
    await effects.settle('login', { output: success(userToken) });
    await effects.settle('loadAccount', { output: account });
    expect(stored).toEqual([account]);
  });

  it('offers the TOTP code instead when the server accepts one, and back to the passkey', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'mfa@acme.test', password: 'Secret12' });
    await effects.settle('login', {
      error: apiError(400, LOGIN_DETAILS.passkeyRequired, {
        detail: LOGIN_DETAILS.passkeyRequired,
        otp: true,
      }),
    });
    actor.send({ type: 'code.chosen' });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'askingCode' });
    actor.send({ type: 'passkey.chosen' });
    expect(actor.getSnapshot().value).toBe('assertingPasskey');
    // A cancelled ceremony comes back to the passkey step with a message.
    await effects.settle('passkeyAssertion', { error: new Error('NotAllowedError') });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'askingPasskey' });
    expect(actor.getSnapshot().context.error).toBe('passkeyFailed');
  });

  it('signs in without a password, with the face photo when the server asks for it', async () => {
    const { actor, effects, stored } = sut();
    actor.start();
    actor.send({ type: 'passkey.requested' });
    expect(effects.inputs.get('login')).toBeUndefined();
    await effects.settle('passkeyLogin', { error: apiError(400, LOGIN_DETAILS.photoRequired) });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'askingPhoto' });
    actor.send({ type: 'photo.taken', photo: 'data:image/jpeg;base64,AAAA' });
    expect(effects.inputs.get('passkeyLogin')).toEqual([
      { photo: null },
      { photo: 'data:image/jpeg;base64,AAAA' },
    ]);
    await effects.settle('passkeyLogin', { output: success(userToken) });
    await effects.settle('loadAccount', { output: account });
    expect(stored).toEqual([account]);
  });

  it('registers a passkey when the company requires one, then asks to sign in again', async () => {
    const { actor, effects } = sut();
    actor.start();
    actor.send({ type: 'credentials.submitted', email: 'viewer@acme.test', password: 'Secret12' });
    await effects.settle('login', {
      error: apiError(400, LOGIN_DETAILS.passkeyRegistration, {
        detail: LOGIN_DETAILS.passkeyRegistration,
        access: userToken,
        server: 'http://eu.test',
        user_id: 3,
      }),
    });
    expect(actor.getSnapshot().value).toBe('forcedPasskey');
    expect(actor.getSnapshot().context.setup).toEqual({
      access: userToken,
      server: 'http://eu.test',
      user_id: 3,
    });
    expect(actor.getSnapshot().context.password).toBe('Secret12');
    actor.send({ type: 'passkey.registered' });
    expect(actor.getSnapshot().value).toEqual({ signedOut: 'credentials' });
    expect(actor.getSnapshot().context.notice).toBe('passkeyRegistered');
    expect(actor.getSnapshot().context.password).toBe('');
  });
});

describe('token claims', () => {
  it('reads the API-user marker and survives garbage', () => {
    expect(isApiUserToken(apiToken)).toBe(true);
    expect(isApiUserToken(userToken)).toBe(false);
    expect(readTokenClaims('not a token')).toBeNull();
    expect(readTokenClaims('a.%%%.c')).toBeNull();
    expect(readTokenClaims(token({ email: 'çağrı@örnek.test' }))?.email).toBe('çağrı@örnek.test');
  });
});
