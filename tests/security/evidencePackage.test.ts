/**
 * A call's evidence package and a profile's legal hold stay inside the company, and inside
 * the roles that may have them. Each test shows the allowed caller succeeding on the same object, so it fails on
 * the code before the package and the hold existed.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles, users, videoCalls } from '../../server/db/schema';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';

let t: TestApp;
let acmeAdmin: string;
let acmeAgent: string;
let acmeViewer: string;
let globexAdmin: string;
let callId: number;

beforeAll(async () => {
  t = await startTestApp();
  [acmeAdmin, acmeAgent, acmeViewer, globexAdmin] = await Promise.all([
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin),
  ]);
  const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
  const [row] = await t.app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId: 3,
      agentId: agent?.id ?? null,
      roomId: randomUUID(),
      status: 3,
      callStartTime: new Date(Date.now() - 60_000),
      callEndTime: new Date(),
    })
    .returning({ id: videoCalls.id });
  callId = row?.id as number;
});
afterAll(async () => {
  await t?.close();
});

const download = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/v2/videocall/${callId}/evidence`, headers: bearer(token) });
const hold = (token: string, profile: number, on: boolean) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v2/profile/${profile}/legal_hold`,
    headers: bearer(token),
    payload: { hold: on, reason: 'Regulator inquiry about this customer' },
  });
const downloadsAudited = async () =>
  (
    await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'evidence_downloaded'), eq(auditLog.objectId, String(callId))))
  ).length;

describe('the evidence package of a call', () => {
  it("is not another company's: its admin gets 404, nothing is audited; the call's company gets the ZIP", async () => {
    const other = await download(globexAdmin);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.' });
    expect(await downloadsAudited()).toBe(0);
    const own = await download(acmeAdmin);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(await downloadsAudited()).toBe(1);
  });

  it('is not for a user without download_evidence (403), not even the agent who may see the call', async () => {
    const viewer = await download(acmeViewer);
    expect(viewer.statusCode).toBe(403);
    expect((await download(acmeAgent)).statusCode).toBe(403);
  });
});

describe('the legal hold of a profile', () => {
  const held = async (profile: number) =>
    (await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, profile)))[0]?.legalHold;

  it("cannot be set by another company's admin (404, unchanged); the profile's Admin sets it", async () => {
    const other = await hold(globexAdmin, 3, true);
    expect(other.statusCode).toBe(404);
    expect(await held(3)).toBe(false);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v2/profile/3/legal_hold',
          headers: bearer(globexAdmin),
        })
      ).statusCode,
    ).toBe(404);
    const own = await hold(acmeAdmin, 3, true);
    expect(own.statusCode).toBe(200);
    expect(await held(3)).toBe(true);
  });

  it("cannot be lifted by a non-Admin of the company (403, unchanged), nor by another company's admin", async () => {
    expect((await hold(acmeAdmin, 3, true)).statusCode).toBe(200);
    expect((await hold(acmeAgent, 3, false)).statusCode).toBe(403);
    expect((await hold(globexAdmin, 3, false)).statusCode).toBe(404);
    expect(await held(3)).toBe(true);
    expect((await hold(acmeAdmin, 3, false)).statusCode).toBe(200);
    expect(await held(3)).toBe(false);
  });
});
