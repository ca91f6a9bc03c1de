/**
 * Guessing passwords and codes (ASVS 2.2.1), without locking the real user out: failures count per account and
 * address (growing delays) and per address, so eleven wrong passwords from elsewhere do not stop the user's right
 * password from their own address, and an attacker delays only himself; e-mailed reset codes get 10 wrong tries
 * an hour per account; with REDIS_URL the counts are shared by every process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '#contract/time';
import { FIRST_DELAY_SECONDS, WRONG_CODES_PER_HOUR } from '../../server/auth/attemptLimiter';
import { mailedCode, PASSWORDS, startTestApp, type TestApp } from '../server/helpers';
import { freePort } from '../support/freePort';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => {
  await t.close();
});

const ATTACKER = '203.0.113.66';
const USER_ADDRESS = '198.51.100.7';

const signIn = (app: TestApp, password: string, remoteAddress: string, username = 'agent@acme.test') =>
  app.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { username, password }, remoteAddress });

describe('sign-in without lock-out', () => {
  it('an attacker hammering one account delays only himself: the user signs in from their own address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await signIn(t, 'Wrong#Guess1', ATTACKER)).statusCode);
    // The default 10 failures in a row, then a growing wait (Retry-After) for that address.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array(5).fill(429));
    const waiting = await signIn(t, PASSWORDS.user, ATTACKER);
    expect(waiting.statusCode).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(FIRST_DELAY_SECONDS - 1);

    const own = await signIn(t, PASSWORDS.user, USER_ADDRESS);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toHaveProperty('access');
  });

  it('spraying many accounts from one address meets the per-address limit', async () => {
    const app = await startTestApp({
      loginRateLimit: { perAccount: 10, perAddress: 5, timeWindowMs: HOUR_MS },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++)
        statuses.push((await signIn(app, 'Wrong#Guess1', ATTACKER, `user${i}@acme.test`)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
      expect((await signIn(app, PASSWORDS.user, USER_ADDRESS)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('e-mailed codes', () => {
  it(`a reset code: at most ${WRONG_CODES_PER_HOUR} wrong tries an hour per account, new codes add none`, async () => {
    const email = 'viewer@acme.test';
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/user/reset_password/send',
        payload: { email },
        remoteAddress: `192.0.2.${Math.floor(Math.random() * 200) + 1}`,
      });
    const submit = (otp: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/user/reset_password/submit',
        payload: { email, otp, new_password: 'Changed@2026' },
        remoteAddress,
      });
    const statuses: number[] = [];
    // Each code dies after 5 wrong tries: the attacker asks for new ones, from other addresses.
    for (let round = 0; round < 3; round++) {
      expect((await send()).statusCode).toBe(200);
      const code = await mailedCode(t.app, email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++)
        statuses.push((await submit(wrong, `192.0.2.${10 * round + i + 1}`)).statusCode);
    }
    expect(statuses.slice(0, WRONG_CODES_PER_HOUR)).toEqual(Array(WRONG_CODES_PER_HOUR).fill(400));
    expect(statuses.slice(WRONG_CODES_PER_HOUR)).toEqual([429, 429]);
    // Even the right code waits now: the guesses are spent for this hour.
    expect((await send()).statusCode).toBe(200);
    const right = await submit(await mailedCode(t.app, email), '192.0.2.99');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(`a sign-up code: at most ${WRONG_CODES_PER_HOUR} wrong tries an hour per address`, async () => {
    const email = `newco-${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < WRONG_CODES_PER_HOUR + 1; i++) {
      if (i % 4 === 0) {
        const sent = await t.app.inject({
          method: 'POST',
          url: '/api/v2/user/email_otp/send',
          payload: { email },
          remoteAddress: `198.18.0.${i + 1}`,
        });
        expect(sent.statusCode).toBe(200);
      }
      const code = await mailedCode(t.app, email);
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v2/user/email_otp/submit',
        payload: { email, otp: code === '000000' ? '111111' : '000000' },
        remoteAddress: `198.18.1.${i + 1}`,
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([...Array(WRONG_CODES_PER_HOUR).fill(400), 429]);
  });
});

// ---------------------------------------------------------------- shared through Redis (REDIS_URL)

const REDIS = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

describe.runIf(existsSync(REDIS))('limits shared by every process through Redis', () => {
  let redis: ChildProcess | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(
      REDIS,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const redisUrl = `redis://127.0.0.1:${port}`;
    const limits = { loginRateLimit: { perAccount: 4, perAddress: 1000, timeWindowMs: HOUR_MS }, redisUrl };
    for (let i = 0; ; i++) {
      try {
        a = await startTestApp(limits);
        break;
      } catch (error) {
        if (i > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    b = await startTestApp(limits);
  }, 180_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    redis?.kill('SIGKILL');
  });

  it('failures counted by one process delay the same address on another', async () => {
    const address = '203.0.113.99';
    const statuses: number[] = [];
    for (const app of [a, b, a, b, a, b])
      statuses.push((await signIn(app, 'Wrong#Guess1', address)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    expect((await signIn(b, PASSWORDS.user, USER_ADDRESS)).statusCode).toBe(200);
  });
});
