/**
 * Finding "webhook targets in IPv6 forms of loopback pass the SSRF guard": the IPv4 address inside
 * every IPv6 form (mapped, translated, compatible, 6to4, NAT64, Teredo) is checked against the private ranges,
 * when the URL is validated and when a delivery resolves the host name.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookEndpoints } from '../../server/db/schema';
import { FORBIDDEN_TARGET } from '../../server/integrations/webhooks/ssrf';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';

/** IPv6 forms that carry a loopback, private or metadata IPv4 address. */
const CARRIERS = [
  '::ffff:7f00:1', // IPv4-mapped 127.0.0.1, hex form
  '::ffff:0:a00:1', // IPv4-translated 10.0.0.1
  '::7f00:1', // IPv4-compatible 127.0.0.1
  '::a9fe:a9fe', // IPv4-compatible 169.254.169.254
  '2002:7f00:1::', // 6to4 of 127.0.0.1
  '2002:c0a8:101::1', // 6to4 of 192.168.1.1
  '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
  '64:ff9b::a00:1', // NAT64 of 10.0.0.1
  '64:ff9b:1::a9fe:a9fe', // local-use NAT64 (/96) of 169.254.169.254
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (obfuscated)
  '2001:0:a00:1::1', // Teredo, server 10.0.0.1
];

/** Names the mocked resolver answers with those forms (delivery-time checks). */
const resolved = new Map(CARRIERS.map((address, i) => [`carrier${i}.evil.test`, address]));

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: unknown, callback: unknown) => {
    const address = resolved.get(hostname);
    const done = (typeof options === 'function' ? options : callback) as (
      error: Error | null,
      addresses: { address: string; family: number }[],
    ) => void;
    if (address) return done(null, [{ address, family: 6 }]);
    return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (hostname: string, options?: unknown) => {
    const address = resolved.get(hostname);
    if (address) return [{ address, family: 6 }];
    return (real.lookup as (...args: unknown[]) => Promise<unknown>)(hostname, options);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => t.close());

const addEndpoint = (url: string) =>
  t.app.inject({ method: 'POST', url: '/api/v2/webhook_endpoint', headers: bearer(admin), payload: { url } });

describe('SSRF guard and IPv6 forms of private IPv4 addresses', () => {
  it('refuses every IPv6 literal that carries a private IPv4 address when the URL is validated', async () => {
    for (const address of CARRIERS) {
      const answer = await addEndpoint(`http://[${address}]:8080/hook`);
      expect({ address, status: answer.statusCode, body: answer.json() }).toEqual({
        address,
        status: 400,
        body: { detail: FORBIDDEN_TARGET },
      });
    }
  });

  it('refuses a host name that resolves to such a form, at validation and again at delivery', async () => {
    for (const [host, address] of resolved) {
      const answer = await addEndpoint(`http://${host}/hook`);
      expect({ address, status: answer.statusCode }).toEqual({ address, status: 400 });
      // Stored past validation (the DNS answer changed since): the delivery refuses it after resolving.
      const [row] = await t.app.ctx.db
        .insert(webhookEndpoints)
        .values({
          companyId: 1,
          url: `http://${host}:9/hook`,
          secret: t.app.ctx.secrets.seal('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
        })
        .returning();
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/v2/webhook_endpoint/${row?.id}/test`,
        headers: bearer(admin),
        payload: {},
      });
      expect({ address, body: sent.json() }).toMatchObject({
        address,
        body: { success: false, error: FORBIDDEN_TARGET },
      });
      await t.app.ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row?.id as number));
    }
  });

  it('still accepts IPv6 forms of public IPv4 addresses and plain public IPv6', async () => {
    for (const address of ['2002:808:808::1', '64:ff9b::808:808', '2606:4700:4700::1111']) {
      const answer = await addEndpoint(`http://[${address}]/hook`);
      expect({ address, status: answer.statusCode }).toEqual({ address, status: 201 });
    }
  });
});
