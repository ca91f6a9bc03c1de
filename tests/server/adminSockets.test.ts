/** Disabling a user closes their sockets at once. */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let url = '';
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

it('closes a disabled user’s sockets, and refuses a new one', async () => {
  const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const socketToken = async () =>
    (await post<{ token: string }>(t.app, '/api/v2/user/socket_token', { studio: true }, agent)).body.token;
  const socket = io(url, {
    path: '/socket.io',
    auth: { token: await socketToken() },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
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
