/**
 * A role or group change applied in another process only after its 5-second
 * principal cache, and the restricted token of a forced two-factor setup (10 minutes, no session) kept working
 * in another process after its user was disabled, and everywhere once the user was enabled again. Two apps on
 * one database stand for two processes behind a balancer: the change is made in one, the very next request
 * goes to the other.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bearer, login, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';

let t: TestApp;
/** The other process: the same configuration and database, caches of its own. */
let other: FastifyInstance;
let admin = '';

beforeAll(async () => {
  t = await startTestApp({ loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 } });
  other = await buildApp(t.config, {
    database: { db: t.app.ctx.db, kind: 'pglite', close: async () => undefined },
  });
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
}, 180_000);
afterAll(async () => {
  await other.close();
  await t.close();
});

const userIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).user_id as number;

function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  token: string,
  body?: object,
) {
  return app.inject({ method, url, headers: bearer(token), ...(body ? { payload: body } : {}) });
}

/** An Admin's change of a user, made in the first process. */
async function changeUser(id: number, change: object) {
  const answer = await send(t.app, 'PATCH', `/api/v2/user/${id}`, admin, {
    password: PASSWORDS.admin,
    ...change,
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

describe('access changes reach every process on the next request', () => {
  it('a forced two-factor setup token dies when its user is disabled, and enabling does not revive it', async () => {
    const forced = await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user);
    expect(forced.json()).toMatchObject({ detail: 'Two Factor Reset Required' });
    const { access: setup, user_id: id } = forced.json() as { access: string; user_id: number };
    const probe = (app: FastifyInstance) =>
      send(app, 'POST', `/api/v2/user/${id}/otp_reset`, setup, { password: PASSWORDS.user, disable: false });
    expect((await probe(other)).statusCode).toBe(200);

    await changeUser(id, { is_active: false });
    expect((await probe(other)).statusCode).toBe(401);
    expect((await probe(t.app)).statusCode).toBe(401);

    await changeUser(id, { is_active: true });
    expect((await probe(other)).statusCode).toBe(401);
    expect((await probe(t.app)).statusCode).toBe(401);
    // The user signs in again and gets a new setup token, which works.
    const again = (await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user)).json() as { access: string };
    const fresh = await send(other, 'POST', `/api/v2/user/${id}/otp_reset`, again.access, {
      password: PASSWORDS.user,
      disable: false,
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('a role change, a group change and a group edit apply to the very next request in another process', async () => {
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const id = userIdOf(agent);
    const calls = () =>
      send(other, 'GET', '/api/v2/videocall/report?start_date=2026-01-01&end_date=2026-01-31', agent);
    expect((await calls()).statusCode).toBe(200);

    await changeUser(id, { role: 'Restricted User' });
    expect((await calls()).statusCode).toBe(403);

    const created = await send(t.app, 'POST', '/api/v2/group', admin, {
      name: `Calls ${Date.now()}`,
      permissions: ['view_calls_page'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const group = (created.json() as { id: number }).id;
    await changeUser(id, { groups: [group] });
    expect((await calls()).statusCode).toBe(200);

    const edited = await send(t.app, 'PATCH', `/api/v2/group/${group}`, admin, { permissions: [] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await calls()).statusCode).toBe(403);

    await changeUser(id, { role: 'User', groups: [] });
    expect((await calls()).statusCode).toBe(200);
  });
});
