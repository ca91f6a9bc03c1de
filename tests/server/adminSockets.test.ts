/** Disabling a user closes their sockets at once. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, PASSWORDS, post, type TestApp, tokenFor } from './helpers';
import { type LiveApp, liveApp } from './liveSockets';

let live: LiveApp;
let t: TestApp;

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
});
afterAll(() => live.close());

it('closes a disabled user’s sockets, and refuses a new one', async () => {
  const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const socket = await live.studio(agent);
  const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  const me = JSON.parse(Buffer.from(agent.split('.')[1] ?? '', 'base64url').toString()) as {
    user_id: number;
  };
  const disabled = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/user/${me.user_id}`,
    headers: bearer(admin),
    payload: { password: PASSWORDS.admin, is_active: false },
  });
  expect(disabled.statusCode).toBe(200);
  expect(await closed).toBe('io server disconnect');
  const again = await post(t.app, '/api/v2/user/socket_token', { studio: true }, agent);
  expect(again.status).toBe(401);
});
