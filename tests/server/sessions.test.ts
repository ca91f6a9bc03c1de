/** Server-side sessions: ended sessions' tokens get 401 at once, their sockets close. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '#contract/sessions';
import { sessions } from '../../server/db/schema';
import { createSessionService } from '../../server/domain/sessions';
import { bearer, get, login, mailedCode, PASSWORDS, post, type TestApp, tokenFor } from './helpers';
import { type LiveApp, liveApp } from './liveSockets';

let live: LiveApp;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  live = await liveApp(
    { logLevel: 'info', loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 } },
    { logStream: { write: (line) => logLines.push(line) } },
  );
  t = live.t;
}, 180_000);
afterAll(() => live.close());

const AGENT = 'agent@acme.test';
const ADMIN = 'admin@acme.test';

/** Signs in with a given User-Agent; returns the token. */
async function signIn(email: string, password: string, userAgent = 'vitest'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/login/',
    headers: { 'user-agent': userAgent },
    payload: { username: email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { access: string }).access;
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    user_id: number;
    jti: string;
  };

const profiles = async (token: string) => (await get(t.app, '/api/v2/profile', token)).status;
const listOf = async (token: string) => (await get<SessionInfo[]>(t.app, '/api/v2/session', token)).body;
const endSession = (token: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/v2/session/${id}`, headers: bearer(token) });
const logout = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/v2/session/logout', headers: bearer(token) });

describe('server-side sessions', () => {
  it('every access token carries a session; the list shows browser, address and this device', async () => {
    const first = await signIn(AGENT, PASSWORDS.user, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0');
    const second = await signIn(AGENT, PASSWORDS.user, 'Mozilla/5.0 (Macintosh) Firefox/131.0');
    expect(claimsOf(first).jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claimsOf(first).jti).not.toBe(claimsOf(second).jti);
    const list = await listOf(first);
    const mine = list.find((s) => s.id === claimsOf(first).jti);
    const other = list.find((s) => s.id === claimsOf(second).jti);
    expect(mine).toMatchObject({ current: true, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' });
    expect(mine?.ip).toBe('127.0.0.1');
    expect(other).toMatchObject({ current: false, user_agent: 'Mozilla/5.0 (Macintosh) Firefox/131.0' });
    // Another user's list never shows them.
    const admin = await signIn(ADMIN, PASSWORDS.admin);
    expect((await listOf(admin)).some((s) => s.id === mine?.id)).toBe(false);
    await logout(first);
    await logout(second);
    await logout(admin);
  });

  it('logout ends the session at once; signing in again, and out again, works', async () => {
    for (let round = 0; round < 2; round += 1) {
      const token = await signIn(AGENT, PASSWORDS.user);
      expect(await profiles(token)).toBe(200);
      expect((await logout(token)).statusCode).toBe(204);
      const after = await get<{ detail: string }>(t.app, '/api/v2/profile', token);
      expect(after).toEqual({ status: 401, body: { detail: 'This session was logged out. Sign in again.' } });
      // A second logout with the same token: 401, nothing else changes.
      expect((await logout(token)).statusCode).toBe(401);
    }
  });

  it('ends another session from the list: 401 for it, the others go on; unknown and foreign ids are 404', async () => {
    const here = await signIn(AGENT, PASSWORDS.user);
    const there = await signIn(AGENT, PASSWORDS.user);
    const admin = await signIn(ADMIN, PASSWORDS.admin);
    const thereId = claimsOf(there).jti;
    // Nobody ends another user's session.
    expect((await endSession(admin, thereId)).statusCode).toBe(404);
    expect(await profiles(there)).toBe(200);
    const ended = await endSession(here, thereId);
    expect(ended.statusCode).toBe(204);
    expect(await profiles(there)).toBe(401);
    expect(await profiles(here)).toBe(200);
    expect((await listOf(here)).some((s) => s.id === thereId)).toBe(false);
    // Ending it again, or an id that never was: 404 with a detail.
    const again = await endSession(here, thereId);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Not found.' });
    expect((await endSession(here, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const malformed = await endSession(here, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('detail');
    // Ending one's own current session is a logout.
    expect((await endSession(here, claimsOf(here).jti)).statusCode).toBe(204);
    expect(await profiles(here)).toBe(401);
    await logout(admin);
  });

  it('disconnects the sockets of an ended session and refuses their socket tokens', async () => {
    const token = await signIn(AGENT, PASSWORDS.user);
    const other = await signIn(AGENT, PASSWORDS.user);
    const socket = await live.studio(token);
    const otherSocket = await live.studio(other);
    const lateToken = await live.socketToken(token);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect((await logout(token)).statusCode).toBe(204);
    expect(await closed).toBe('io server disconnect');
    // The other session's socket stays.
    expect(otherSocket.connected).toBe(true);
    // A socket token issued before the end does not connect any more.
    const refused = await live.connect({ token: lateToken }).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    expect(refused).toBe('Token is invalid or expired');
    otherSocket.close();
    await logout(other);
  });

  it('a password change ends the other sessions and keeps this one; changing it back works too', async () => {
    const here = await signIn(AGENT, PASSWORDS.user);
    const there = await signIn(AGENT, PASSWORDS.user);
    const { user_id: id } = claimsOf(here);
    const change = (token: string, from: string, to: string) =>
      post(t.app, `/api/v2/user/${id}/change_password`, { password: from, new_password: to }, token);
    expect((await change(here, PASSWORDS.user, 'Changed@2026')).status).toBe(200);
    expect(await profiles(there)).toBe(401);
    expect(await profiles(here)).toBe(200);
    expect((await listOf(here)).map((s) => s.id)).toEqual([claimsOf(here).jti]);
    // A wrong current password ends nothing.
    const third = await signIn(AGENT, 'Changed@2026');
    expect((await change(here, 'Wrong@2026', PASSWORDS.user)).status).toBe(400);
    expect(await profiles(third)).toBe(200);
    expect((await change(here, 'Changed@2026', PASSWORDS.user)).status).toBe(200);
    expect(await profiles(third)).toBe(401);
    expect(await profiles(here)).toBe(200);
    await logout(here);
  });

  it('an admin-forced reset and a reset by e-mailed code end every session of the user', async () => {
    const agent = await signIn(AGENT, PASSWORDS.user);
    const admin = await signIn(ADMIN, PASSWORDS.admin);
    const { user_id: id } = claimsOf(agent);
    const forced = await post(
      t.app,
      `/api/v2/user/${id}/reset_password`,
      { password: PASSWORDS.admin },
      admin,
    );
    expect(forced.status).toBe(200);
    expect(await profiles(agent)).toBe(401);
    expect(await profiles(admin)).toBe(200);
    expect((await login(t.app, AGENT, PASSWORDS.user)).json()).toEqual({ detail: 'Password Reset Required' });

    // The reset by code (no session of its own) sets the password and ends whatever sessions remain.
    const adminOther = await signIn(ADMIN, PASSWORDS.admin);
    expect((await post(t.app, '/api/v2/user/reset_password/send', { email: ADMIN })).status).toBe(200);
    const code = await mailedCode(t.app, ADMIN);
    const submitted = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: ADMIN,
      otp: code,
      new_password: PASSWORDS.admin,
    });
    expect(submitted.status).toBe(200);
    expect(await profiles(admin)).toBe(401);
    expect(await profiles(adminOther)).toBe(401);
    // The agent sets a password with a code too, and signs in again.
    await post(t.app, '/api/v2/user/reset_password/send', { email: AGENT });
    await post(t.app, '/api/v2/user/reset_password/submit', {
      email: AGENT,
      otp: await mailedCode(t.app, AGENT),
      new_password: PASSWORDS.user,
    });
    const back = await tokenFor(t.app, AGENT, PASSWORDS.user);
    expect(await profiles(back)).toBe(200);
  });

  it('writes "last seen" at most once a minute per session', async () => {
    const token = await signIn(AGENT, PASSWORDS.user);
    const { jti, user_id } = claimsOf(token);
    const row = async () => (await t.app.ctx.db.select().from(sessions).where(eq(sessions.id, jti)))[0];
    const before = await row();
    for (let i = 0; i < 5; i += 1) expect(await profiles(token)).toBe(200);
    // Within the minute after sign-in, requests write nothing.
    expect((await row())?.lastSeenAt.getTime()).toBe(before?.lastSeenAt.getTime());
    // Seen two minutes ago (another process's view, no cache): the next check writes once, the one after
    // it does not.
    await t.app.ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 120_000) })
      .where(eq(sessions.id, jti));
    const fresh = createSessionService({ tokens: t.app.ctx.tokens, accessTtlSeconds: 3600, cacheMs: 0 });
    expect(await fresh.check(t.app.ctx.db, { session_id: jti, user_id }, '10.0.0.9')).toBe(true);
    await expect.poll(async () => (await row())?.lastIp).toBe('10.0.0.9');
    const written = (await row())?.lastSeenAt.getTime() ?? 0;
    expect(written).toBeGreaterThan(before?.lastSeenAt.getTime() ?? 0);
    expect(await fresh.check(t.app.ctx.db, { session_id: jti, user_id }, '10.0.0.10')).toBe(true);
    expect(await row()).toMatchObject({ lastIp: '10.0.0.9', lastSeenAt: new Date(written) });
    // The list shows the address of the latest write.
    expect((await listOf(token)).find((s) => s.id === jti)?.ip).toBe('10.0.0.9');
    await logout(token);
  });
});

describe('the server log', () => {
  it('never holds a join-link or file-link token', async () => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.join-link-secret.sig';
    const signature = 'file-link-signature-0123456789';
    await fetch(`${live.url}/customer.html?token=${encodeURIComponent(secret)}`, {
      headers: { accept: 'text/html' },
    });
    await fetch(`${live.url}/storage/documents/x.png?expires=1&signature=${signature}`);
    await fetch(`${live.url}/api/v2/profile?Token=${secret}&page=1`);
    const log = logLines.join('');
    expect(log).toContain('/customer.html?token=[redacted]');
    expect(log).toContain('/storage/documents/x.png?expires=1&signature=[redacted]');
    expect(log).toContain('page=1');
    expect(log).not.toContain('join-link-secret');
    expect(log).not.toContain(signature);
  });
});
