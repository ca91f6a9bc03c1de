/**
 * A legal hold holds on every path: while a profile is on hold, no one (an agent, an Admin, the API user) can
 * delete or change its evidence: the call's recording, its documents (delete, archive, field override, type
 * change); the retention job keeps it. Each refusal is 409 naming the hold's reason, changes nothing and is
 * audited; once the hold is lifted the same writes go through.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { auditLog, documents, documentTypes, videoCalls } from '../../server/db/schema';
import { runEvidenceRetention } from '../../server/domain/evidenceRetention';
import { uploadDocument, uploadRecording } from '../server/evidenceUploads';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(2048, 7)]);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PROFILE = 5;
const REASON = 'Court order 2026/17 keeps this file';

let t: TestApp;
const tokens = { agent: '', admin: '', api: '' };
const ids = { agent: 0, admin: 0, api: 0 };
const types = { id: 0, passport: 0 };

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin, tokens.api] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'api@acme.test', PASSWORDS.api),
  ]);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.api = await userId(t.app, 'api@acme.test');
  const rows = await t.app.ctx.db.select().from(documentTypes);
  types.id = rows.find((row) => row.documentClass === 'ID')?.id ?? 0;
  types.passport = rows.find((row) => row.documentClass === 'PA')?.id ?? 0;
  expect(types.id * types.passport).not.toBe(0);
});
afterAll(async () => {
  await t?.close();
});

const send = (method: 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

const setHold = async (hold: boolean) => {
  const response = await send('PUT', `/profile/${PROFILE}/legal_hold`, tokens.admin, {
    hold,
    reason: hold ? REASON : 'The court case was closed',
  });
  expect(response.statusCode).toBe(200);
};

/** A finished call of the profile answered by agent@acme.test, ended `endedAgo` ms ago, with its recording. */
async function callWithRecording(endedAgo = 0): Promise<number> {
  const end = new Date(Date.now() - endedAgo);
  const [row] = await t.app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId: PROFILE,
      agentId: ids.agent,
      roomId: randomUUID(),
      status: 3,
      callStartTime: new Date(end.getTime() - 60_000),
      callEndTime: end,
    })
    .returning({ id: videoCalls.id });
  const callId = row?.id as number;
  await uploadRecording(t.app, tokens.agent, callId, RECORDING);
  return callId;
}

/** A document of the profile uploaded by the agent (POST /document): its id. */
const uploadAgentDocument = () =>
  uploadDocument(t.app, tokens.agent, {
    profile: PROFILE,
    type: types.id,
    page: Buffer.concat([PNG_HEAD, Buffer.alloc(64)]),
  });

const documentRow = async (id: number) =>
  (await t.app.ctx.db.select().from(documents).where(eq(documents.id, id)))[0];
const recordingKey = async (callId: number) =>
  (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId)))[0]?.recordingKey;
const refusals = () =>
  t.app.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'legal_hold_refused'), eq(auditLog.objectId, String(PROFILE))));

describe('a legal hold', () => {
  it('refuses every delete or change of the evidence with 409 naming the reason, audited, then allows it once lifted', async () => {
    const callId = await callWithRecording();
    const key = (await recordingKey(callId)) as string;
    const doc = await uploadAgentDocument();
    const deletedDoc = await uploadAgentDocument();
    await setHold(true);

    const attempts = [
      {
        action: 'video_deleted',
        object: 'videocall',
        objectId: callId,
        actor: ids.api,
        run: () => send('DELETE', `/videocall/${callId}`, tokens.api),
      },
      {
        action: 'document_deleted',
        object: 'document',
        objectId: deletedDoc,
        actor: ids.agent,
        run: () => send('DELETE', `/document/${deletedDoc}`, tokens.agent),
      },
      {
        action: 'document_archived',
        object: 'document',
        objectId: doc,
        actor: ids.agent,
        run: () => send('PUT', `/document/${doc}/archive`, tokens.agent, { id: doc, archived: true }),
      },
      {
        action: 'document_fields_overridden',
        object: 'document',
        objectId: doc,
        actor: ids.admin,
        run: () =>
          send('PUT', `/document/${doc}/documentcontent/override`, tokens.admin, {
            fields: { FirstName: 'Someone Else' },
          }),
      },
      {
        action: 'document_type_changed',
        object: 'document',
        objectId: doc,
        actor: ids.admin,
        run: () => send('PATCH', `/document/${doc}`, tokens.admin, { document_type: types.passport }),
      },
    ];
    for (const attempt of attempts) {
      const before = (await refusals()).length;
      const response = await attempt.run();
      expect(response.statusCode, attempt.action).toBe(409);
      expect(response.json().detail, attempt.action).toContain(REASON);
      const rows = await refusals();
      expect(rows, attempt.action).toHaveLength(before + 1);
      expect(rows.at(-1), attempt.action).toMatchObject({
        companyId: 1,
        actorId: attempt.actor,
        objectType: 'profile',
        before: { legal_hold: true, reason: REASON },
        after: { refused: attempt.action, object: attempt.object, object_id: attempt.objectId },
      });
      expect(rows.at(-1)?.actorEmail, attempt.action).toMatch(/@acme\.test$/);
    }

    // Nothing changed: the recording and its file, both documents as they were, no deletion audited.
    expect(await recordingKey(callId)).toBe(key);
    expect(await t.app.ctx.storage.size(key)).not.toBeNull();
    expect(await documentRow(deletedDoc)).toMatchObject({ deletedAt: null });
    expect(await documentRow(doc)).toMatchObject({
      archived: false,
      contentOverrides: {},
      documentTypeId: types.id,
    });
    const written = await t.app.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.objectId, String(doc)));
    expect(written.map((row) => row.action)).toEqual(['document_uploaded']);

    // Decisions about the evidence and restoring it are not changes of it: they go on under a hold.
    expect((await send('PUT', `/document/${doc}/approve`, tokens.admin, { approved: true })).statusCode).toBe(
      200,
    );
    expect(
      (await send('PUT', `/document/${doc}/archive`, tokens.agent, { id: doc, archived: false })).statusCode,
    ).toBe(200);

    await setHold(false);
    expect((await send('DELETE', `/videocall/${callId}`, tokens.api)).statusCode).toBe(204);
    expect(await recordingKey(callId)).toBeNull();
    expect(await t.app.ctx.storage.size(key)).toBeNull();
    expect((await send('DELETE', `/document/${deletedDoc}`, tokens.agent)).statusCode).toBe(204);
    expect(
      (await send('PUT', `/document/${doc}/archive`, tokens.agent, { id: doc, archived: true })).statusCode,
    ).toBe(200);
    expect(
      (
        await send('PUT', `/document/${doc}/documentcontent/override`, tokens.admin, {
          fields: { FirstName: 'Someone Else' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await send('PATCH', `/document/${doc}`, tokens.admin, { document_type: types.passport })).statusCode,
    ).toBe(200);
    expect(await documentRow(deletedDoc)).toMatchObject({ deletedAt: expect.any(Date) });
    expect(await documentRow(doc)).toMatchObject({ archived: true, documentTypeId: types.passport });
  });

  it('keeps a held call past its retention from the retention job until the hold is lifted', async () => {
    const callId = await callWithRecording(1827 * DAY_MS);
    const key = (await recordingKey(callId)) as string;
    await setHold(true);
    await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
    expect(await recordingKey(callId)).toBe(key);
    expect(await t.app.ctx.storage.size(key)).not.toBeNull();
    await setHold(false);
    await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
    expect(await recordingKey(callId)).toBeNull();
  });

  it('declares the 409 of each refused write in the OpenAPI document', async () => {
    const { paths } = (
      await get<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
        t.app,
        '/api/v2/openapi.json',
      )
    ).body;
    for (const [path, method] of [
      ['/api/v2/videocall/{id}', 'delete'],
      ['/api/v2/document/{id}', 'delete'],
      ['/api/v2/document/{id}', 'patch'],
      ['/api/v2/document/{id}/archive', 'put'],
      ['/api/v2/document/{id}/documentcontent/override', 'put'],
    ] as const)
      expect(paths[path]?.[method]?.responses, `${method} ${path}`).toHaveProperty('409');
  });
});
