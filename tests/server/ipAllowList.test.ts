import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IpAllowListEntry } from '#contract/ipAllowList';
import { allowedBy, type IpRange, parseRange, rangeContains } from '#contract/ipRanges';
import { runAllowlistCommand } from '../../scripts/allowlist';
import { auditLog, ipAllowlist } from '../../server/db/schema';
import {
  clientAddressOf,
  createIpAllowListCache,
  proxyTrust,
  readTrustProxy,
} from '../../server/domain/ipAllowList';
import { bearer, PASSWORDS, type TestApp, tokenFor } from './helpers';
import { type LiveApp, liveApp } from './liveSockets';

const range = (text: string): IpRange => {
  const parsed = parseRange(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.problem.kind}`);
  return parsed.range;
};

describe('ranges (contract/ipRanges.ts)', () => {
  it('matches IPv4 addresses and CIDR ranges', () => {
    expect(rangeContains(range('10.0.0.0/8'), '10.255.1.2')).toBe(true);
    expect(rangeContains(range('10.0.0.0/8'), '11.0.0.1')).toBe(false);
    expect(rangeContains(range('127.0.0.1/32'), '127.0.0.1')).toBe(true);
    expect(rangeContains(range('127.0.0.1/32'), '127.0.0.2')).toBe(false);
    expect(rangeContains(range('192.168.1.10'), '192.168.1.10')).toBe(true);
    expect(rangeContains(range('192.168.1.10'), '192.168.1.11')).toBe(false);
    expect(rangeContains(range('0.0.0.0/0'), '203.0.113.9')).toBe(true);
  });

  it('matches IPv6 addresses and ranges, and never mixes the families', () => {
    expect(rangeContains(range('2001:db8::/32'), '2001:db8:ffff::1')).toBe(true);
    expect(rangeContains(range('2001:db8::/32'), '2001:db9::1')).toBe(false);
    expect(rangeContains(range('::1'), '::1')).toBe(true);
    expect(rangeContains(range('::/0'), '10.0.0.1')).toBe(false);
    expect(rangeContains(range('0.0.0.0/0'), '2001:db8::1')).toBe(false);
  });

  it('matches IPv4-mapped IPv6 client addresses against IPv4 entries, and stores mapped entries as IPv4', () => {
    expect(rangeContains(range('127.0.0.1/32'), '::ffff:127.0.0.1')).toBe(true);
    expect(rangeContains(range('127.0.0.1/32'), '::ffff:127.0.0.2')).toBe(false);
    expect(range('::ffff:10.0.0.0/104').text).toBe('10.0.0.0/8');
    expect(range('::ffff:127.0.0.1').text).toBe('127.0.0.1');
    expect(rangeContains(range('::ffff:10.0.0.0/104'), '10.9.9.9')).toBe(true);
  });

  it('normalises what it stores and names the problem of bad input', () => {
    expect(range(' 2001:DB8:0::1 ').text).toBe('2001:db8::1');
    expect(range('10.0.0.0/8').text).toBe('10.0.0.0/8');
    expect(parseRange('')).toEqual({ ok: false, problem: { kind: 'required' } });
    for (const bad of [
      '127.1',
      '0x7f.0.0.1',
      'example.com',
      'fe80::1%eth0',
      '10.0.0.0/',
      '10.0.0.0/x',
      '1.2.3',
    ])
      expect(parseRange(bad), bad).toEqual({ ok: false, problem: { kind: 'invalid' } });
    expect(parseRange('10.0.0.0/33')).toEqual({ ok: false, problem: { kind: 'prefix', max: 32 } });
    expect(parseRange('2001:db8::/129')).toEqual({ ok: false, problem: { kind: 'prefix', max: 128 } });
    expect(parseRange('10.0.0.1/8')).toEqual({
      ok: false,
      problem: { kind: 'hostBits', network: '10.0.0.0/8' },
    });
  });

  it('lets every address in with an empty list, and none that cannot be parsed otherwise', () => {
    expect(allowedBy([], '203.0.113.9')).toBe(true);
    expect(allowedBy([range('10.0.0.0/8')], 'garbage')).toBe(false);
    expect(allowedBy([range('10.0.0.0/8'), range('127.0.0.1')], '127.0.0.1')).toBe(true);
  });

  it('reads X-Forwarded-For only through trusted proxies, hop by hop from the right', () => {
    const trust = proxyTrust(readTrustProxy('127.0.0.1, 10.0.0.0/8'));
    const xff = (value: string) => ({ 'x-forwarded-for': value });
    expect(clientAddressOf('127.0.0.1', xff('203.0.113.9'), false)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', xff('203.0.113.9'), trust)).toBe('203.0.113.9');
    expect(clientAddressOf('127.0.0.1', xff('198.51.100.1, 203.0.113.9, 10.1.1.1'), trust)).toBe(
      '203.0.113.9',
    );
    expect(clientAddressOf('192.0.2.5', xff('203.0.113.9'), trust)).toBe('192.0.2.5');
    expect(clientAddressOf('127.0.0.1', {}, trust)).toBe('127.0.0.1');
    expect(() => readTrustProxy('proxy.local')).toThrow(/TRUST_PROXY/);
    expect(readTrustProxy('')).toEqual([]);
  });
});

describe('the cache', () => {
  it('reuses a company list until it is forgotten', async () => {
    let queries = 0;
    const rows = [{ address: '10.0.0.0/8' }];
    const db = {
      select: () => ({
        from: () => ({
          where: () => {
            queries += 1;
            return Promise.resolve([...rows]);
          },
        }),
      }),
    } as unknown as Parameters<typeof createIpAllowListCache>[0];
    const cache = createIpAllowListCache(db, 60_000);
    expect((await cache.ranges(1)).map((r) => r.text)).toEqual(['10.0.0.0/8']);
    rows.push({ address: '127.0.0.1' });
    expect((await cache.ranges(1)).map((r) => r.text)).toEqual(['10.0.0.0/8']);
    expect(queries).toBe(1);
    cache.forget(1);
    expect((await cache.ranges(1)).map((r) => r.text)).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(queries).toBe(2);
  });
});

describe('the IP allow-list API and its enforcement', () => {
  let live: LiveApp;
  let t: TestApp;
  const tokens: Record<'admin' | 'user' | 'globex', string> = { admin: '', user: '', globex: '' };
  const ACME = 1;

  beforeAll(async () => {
    // No cache: the operator's command line changes the database behind the server's back.
    live = await liveApp({ ipAllowListCacheMs: 0 });
    t = live.t;
    tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  });
  afterAll(() => live.close());
  // Every test starts with empty lists and no audit lines of them, and adds the entries it needs (the app
  // reads the list at every request: no cache to forget).
  beforeEach(async () => {
    await t.app.ctx.db.delete(ipAllowlist);
    await t.app.ctx.db.delete(auditLog).where(eq(auditLog.objectType, 'ip_allowlist'));
  });

  async function call(
    method: InjectOptions['method'],
    path: string,
    options: { token?: string; body?: unknown; from?: string; headers?: Record<string, string> } = {},
  ) {
    const response = await t.app.inject({
      method,
      url: `/api/v2${path}`,
      headers: { ...(options.token ? bearer(options.token) : {}), ...(options.headers ?? {}) },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
      ...(options.from ? { remoteAddress: options.from } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  }
  const list = async (from?: string) =>
    (await call('GET', '/ip-whitelist', { token: tokens.admin, ...(from ? { from } : {}) }))
      .body as IpAllowListEntry[];
  const add = (address: string, options: { from?: string; confirm?: boolean; label?: string } = {}) =>
    call('POST', '/ip-whitelist', {
      token: tokens.admin,
      body: {
        address,
        ...(options.label ? { label: options.label } : {}),
        ...(options.confirm ? { confirm_lockout: true } : {}),
      },
      ...(options.from ? { from: options.from } : {}),
    });
  const signIn = (from: string, password: string = PASSWORDS.admin) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/login/',
      payload: { username: 'admin@acme.test', password },
      remoteAddress: from,
    });
  const connect = (token: string) => live.connect({ token });
  const cli = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runAllowlistCommand(t.app.ctx.db, args, (line) => lines.push(line));
    return { code, lines };
  };
  /** Acme's list as an Admin leaves it: their own address first, then 10.0.0.0/8. */
  async function ownAddressAndTen() {
    expect((await add('127.0.0.1/32', { label: 'Head office' })).status).toBe(201);
    expect((await add('10.0.0.0/8')).status).toBe(201);
  }

  it('refuses bad input with 400 and a detail, and stores nothing', async () => {
    for (const [address, detail] of [
      ['not-an-ip', 'not-an-ip is not an IPv4 or IPv6 address or CIDR range'],
      ['10.0.0.1/8', '10.0.0.1/8 is not the start of its range: write 10.0.0.0/8'],
      ['10.0.0.0/40', 'The prefix length of 10.0.0.0/40 must be between 0 and 32'],
      ['  ', 'address is required'],
    ] as const) {
      const answer = await add(address);
      expect(answer.status, address).toBe(400);
      expect(answer.body.detail, address).toContain(detail);
    }
    const missing = await call('POST', '/ip-whitelist', { token: tokens.admin, body: { label: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toHaveProperty('detail');
    expect(await list()).toEqual([]);
    const audit = await call('GET', '/audit?object_type=ip_allowlist', { token: tokens.admin });
    expect(audit.body.count).toBe(0);
  });

  it('lets only Admins change the list', async () => {
    expect(
      (await call('POST', '/ip-whitelist', { token: tokens.user, body: { address: '10.0.0.0/8' } })).status,
    ).toBe(403);
    expect((await call('GET', '/ip-whitelist', { token: tokens.user })).status).toBe(403);
    expect((await call('DELETE', '/ip-whitelist/1', { token: tokens.user })).status).toBe(403);
  });

  it('guards against locking the caller out, refuses duplicates, and tells the caller their address', async () => {
    expect((await call('GET', '/ip-whitelist/me', { token: tokens.admin })).body).toEqual({
      address: '127.0.0.1',
      allowed: true,
    });
    const lockout = await add('10.0.0.0/8');
    expect(lockout.status).toBe(409);
    expect(lockout.body.address).toBe('127.0.0.1');
    expect(lockout.body.detail).toContain('your address 127.0.0.1 would not be on');
    expect(await list()).toEqual([]);

    const own = await add('127.0.0.1/32', { label: 'Head office' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      address: '127.0.0.1/32',
      label: 'Head office',
      created_by: 1,
      created_by_name: expect.any(String),
    });
    expect((await add('10.0.0.0/8')).status).toBe(201);
    const duplicate = await add('127.0.0.1');
    expect(duplicate).toEqual({ status: 400, body: { detail: '127.0.0.1 is already on the IP allow-list' } });
    expect((await list()).map((e) => e.address)).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
  });

  it('refuses API reads and sign-in from an address outside the list with 403 naming it', async () => {
    await ownAddressAndTen();
    const outside = await call('GET', '/profile', { token: tokens.admin, from: '127.0.0.2' });
    expect(outside).toEqual({
      status: 403,
      body: { detail: "Address 127.0.0.2 is not on this company's IP allow-list" },
    });
    expect((await call('GET', '/profile', { token: tokens.admin })).status).toBe(200);
    expect((await call('GET', '/profile', { token: tokens.admin, from: '10.20.30.40' })).status).toBe(200);
    expect((await call('GET', '/profile', { token: tokens.admin, from: '::ffff:127.0.0.1' })).status).toBe(
      200,
    );

    const refused = await signIn('127.0.0.2');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: "Address 127.0.0.2 is not on this company's IP allow-list" });
    // A wrong password learns nothing about the list.
    expect((await signIn('127.0.0.2', 'wrong')).json()).toEqual({ detail: 'Invalid Credentials' });
    expect((await signIn('127.0.0.1')).statusCode).toBe(200);
  });

  it('leaves the other company alone', async () => {
    await ownAddressAndTen();
    expect((await call('GET', '/profile', { token: tokens.globex, from: '127.0.0.2' })).status).toBe(200);
    expect((await call('GET', '/ip-whitelist', { token: tokens.globex })).body).toEqual([]);
    const globexIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login/',
      payload: { username: 'admin@globex.test', password: PASSWORDS.admin },
      remoteAddress: '127.0.0.2',
    });
    expect(globexIn.statusCode).toBe(200);
    const acmeId = (await list())[0]?.id as number;
    expect((await call('DELETE', `/ip-whitelist/${acmeId}`, { token: tokens.globex })).status).toBe(404);
    expect(await list()).toHaveLength(2);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    await ownAddressAndTen();
    const spoofed = await call('GET', '/profile', {
      token: tokens.admin,
      from: '127.0.0.2',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(spoofed.status).toBe(403);
    expect(spoofed.body.detail).toContain('127.0.0.2');
  });

  // The audit lines are those of the sequence: one story, so one test.
  it('runs a sequence: delete with the guard, add again, confirm by query and by body, clear by CLI; and writes an audit line for every change', async () => {
    await ownAddressAndTen();
    const [own, ten] = (await list()) as [IpAllowListEntry, IpAllowListEntry];
    // Deleting 127.0.0.1/32 leaves 10.0.0.0/8 only: the caller would be locked out.
    const guarded = await call('DELETE', `/ip-whitelist/${own.id}`, { token: tokens.admin });
    expect(guarded.status).toBe(409);
    expect(guarded.body.address).toBe('127.0.0.1');
    expect(await list()).toHaveLength(2);
    // Confirmed by the query flag: done, and the admin is outside from now on.
    expect(
      (await call('DELETE', `/ip-whitelist/${own.id}?confirm_lockout=true`, { token: tokens.admin })).status,
    ).toBe(204);
    expect((await call('GET', '/profile', { token: tokens.admin })).status).toBe(403);
    expect((await call('GET', '/profile', { token: tokens.admin, from: '10.0.0.7' })).status).toBe(200);
    // From inside, add it again.
    expect((await add('127.0.0.1/32', { from: '10.0.0.7' })).status).toBe(201);
    expect((await call('GET', '/profile', { token: tokens.admin })).status).toBe(200);
    // Deleting 10.0.0.0/8 from 10.0.0.7 would lock that caller out; confirmed by a JSON body.
    expect(
      (await call('DELETE', `/ip-whitelist/${ten.id}`, { token: tokens.admin, from: '10.0.0.7' })).status,
    ).toBe(409);
    expect(
      (
        await call('DELETE', `/ip-whitelist/${ten.id}`, {
          token: tokens.admin,
          from: '10.0.0.7',
          body: { confirm_lockout: true },
        })
      ).status,
    ).toBe(204);
    expect((await list()).map((e) => e.address)).toEqual(['127.0.0.1/32']);
    // Deleting the last entry empties the list: nobody is locked out.
    const last = (await list())[0] as IpAllowListEntry;
    expect((await call('DELETE', `/ip-whitelist/${last.id}`, { token: tokens.admin })).status).toBe(204);
    expect((await call('DELETE', `/ip-whitelist/${last.id}`, { token: tokens.admin })).status).toBe(404);
    // Lock out on purpose, then the operator clears the list from the command line.
    expect((await add('10.0.0.0/8', { confirm: true })).status).toBe(201);
    expect((await call('GET', '/ip-whitelist', { token: tokens.admin })).status).toBe(403);
    const listed = await cli('--company', String(ACME), '--list');
    expect(listed.code).toBe(0);
    expect(listed.lines.join('\n')).toContain('10.0.0.0/8');
    const cleared = await cli('--company', String(ACME), '--clear');
    expect(cleared).toEqual({
      code: 0,
      lines: ['Acme Bank (1): 1 IP allow-list entries removed; every address is allowed now'],
    });
    expect(await list()).toEqual([]);
    expect((await cli('--company', '999', '--clear')).code).toBe(1);
    expect((await cli('--company', String(ACME))).code).toBe(2);

    const audit = await call('GET', '/audit?object_type=ip_allowlist&limit=50', { token: tokens.admin });
    const actions = (
      audit.body.results as { action: string; ip: string | null; after: Record<string, unknown> }[]
    )
      .map((e) => e.action)
      .reverse();
    expect(actions).toEqual([
      'ip_allowlist_entry_added',
      'ip_allowlist_entry_added',
      'ip_allowlist_entry_deleted',
      'ip_allowlist_entry_added',
      'ip_allowlist_entry_deleted',
      'ip_allowlist_entry_deleted',
      'ip_allowlist_entry_added',
      'ip_allowlist_cleared',
    ]);
    const confirmed = (audit.body.results as { action: string; after: Record<string, unknown> }[]).filter(
      (e) => e.after.confirm_lockout === true,
    );
    expect(confirmed).toHaveLength(3);
  });

  it('refuses a staff socket from outside the list and drops open ones when the list changes', async () => {
    const acmeSocket = await live.socketToken(tokens.admin);
    const globexSocket = await live.socketToken(tokens.globex);
    const open = await connect(acmeSocket);
    const dropped = new Promise<string>((resolve) => open.once('disconnect', (reason) => resolve(reason)));
    // 127.0.0.1 is locked out on purpose (from 10.0.0.7, confirmed).
    expect((await add('10.0.0.0/8', { from: '10.0.0.7', confirm: true })).status).toBe(201);
    expect(await dropped).toBe('io server disconnect');
    await expect(connect(acmeSocket)).rejects.toThrow(
      "Address 127.0.0.1 is not on this company's IP allow-list",
    );
    // The other company's staff connect as before.
    expect((await connect(globexSocket)).connected).toBe(true);
    expect((await cli('--company', String(ACME), '--clear')).code).toBe(0);
    expect((await connect(acmeSocket)).connected).toBe(true);
  });
});

describe('behind a proxy named by TRUST_PROXY', () => {
  let live: LiveApp;
  let t: TestApp;
  let admin = '';
  beforeAll(async () => {
    live = await liveApp({ trustProxy: ['127.0.0.1'] });
    t = live.t;
    admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(() => live.close());

  const get = (path: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v2${path}`,
      headers: { ...bearer(admin), ...headers },
      remoteAddress,
    });
  const addTen = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/v2/ip-whitelist',
      headers: { ...bearer(admin), 'x-forwarded-for': '10.0.0.1' },
      payload: { address: '10.0.0.0/8' },
    });
  // Every test starts with an empty list and adds what it needs; through the API (from inside the list), so
  // that this app's cache of the list forgets it as well.
  beforeEach(async () => {
    const entries = (
      await get('/ip-whitelist', { 'x-forwarded-for': '10.0.0.1' })
    ).json() as IpAllowListEntry[];
    for (const entry of entries) {
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/v2/ip-whitelist/${entry.id}?confirm_lockout=true`,
        headers: { ...bearer(admin), 'x-forwarded-for': '10.0.0.1' },
      });
      expect(deleted.statusCode).toBe(204);
    }
  });

  it('takes the client address from X-Forwarded-For sent by the trusted proxy only', async () => {
    const me = await get('/ip-whitelist/me', { 'x-forwarded-for': '10.0.0.1' });
    expect(me.json()).toEqual({ address: '10.0.0.1', allowed: true });
    const added = await addTen();
    expect(added.statusCode).toBe(201);
    expect((await get('/profile', { 'x-forwarded-for': '10.9.8.7' })).statusCode).toBe(200);
    const outside = await get('/profile', { 'x-forwarded-for': '127.0.0.2' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().detail).toBe("Address 127.0.0.2 is not on this company's IP allow-list");
    // The proxy itself is outside the list; an untrusted hop's header is ignored.
    expect((await get('/profile', {})).statusCode).toBe(403);
    const untrusted = await get('/profile', { 'x-forwarded-for': '10.0.0.1' }, '127.0.0.5');
    expect(untrusted.json().detail).toContain('127.0.0.5');
  });

  it('applies the same rule to socket connections', async () => {
    expect((await addTen()).statusCode).toBe(201);
    const token = await live.socketToken(admin, { 'x-forwarded-for': '10.0.0.1' });
    const connect = (extraHeaders: Record<string, string>) =>
      live.connect({ token }, undefined, { extraHeaders });
    const inside = await connect({ 'x-forwarded-for': '10.0.0.3' });
    expect(inside.connected).toBe(true);
    inside.disconnect();
    await expect(connect({})).rejects.toThrow("Address 127.0.0.1 is not on this company's IP allow-list");
  });
});
