/**
 * The identification evidence cannot be changed. Each test is one finding of the probe
 * ("a second PATCH replaces a stored recording, by the same agent or any User", "a crash leaves `.part` files
 * and unreferenced page images", no hash kept or checked) and fails on the code before the fix.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { auditLog, users, videoCalls, webhookMessages } from '../../server/db/schema';
import { storeRecording } from '../../server/domain/videocalls/recordings';
import { bearer, FAST_CALLS, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';

const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const webm = (fill: number, bytes = 4096) => Buffer.concat([WEBM_MAGIC, Buffer.alloc(bytes, fill)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
const logLines: string[] = [];
let agentToken: string;
let adminToken: string;
let agentId: number;

beforeAll(async () => {
  t = await startTestApp(
    { calls: FAST_CALLS, logLevel: 'error' },
    { logStream: { write: (line) => logLines.push(line) } },
  );
  agentToken = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  adminToken = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
  agentId = agent?.id as number;
});
afterAll(async () => {
  await t?.close();
});

/** A finished call of profile 3 answered by agent@acme.test, with no recording yet. */
async function endedCall(): Promise<number> {
  const [row] = await t.app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId: 3,
      agentId,
      roomId: randomUUID(),
      status: 3,
      callStartTime: new Date(Date.now() - 60_000),
      callEndTime: new Date(),
    })
    .returning({ id: videoCalls.id });
  return row?.id as number;
}

function upload(callId: number, body: Buffer, token = agentToken) {
  const boundary = 'evidence-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.webm"\r\n` +
        'Content-Type: video/webm\r\n\r\n',
    ),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'PATCH',
    url: `/api/v2/videocall/${callId}`,
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const rowOf = async (callId: number) =>
  (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId)))[0];
const served = (url: string) => t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
const storedFiles = () =>
  readdirSync(join(t.config.dataDir, 'storage', 'recordings'), { recursive: true }).map(String);

describe('a stored recording is never replaced', () => {
  it('a second upload for a call that has one is refused with 409, and the first stays', async () => {
    const callId = await endedCall();
    const first = await upload(callId, webm(1));
    expect(first.statusCode).toBe(200);
    const second = await upload(callId, webm(2));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ detail: 'The call already has a recording' });
    const fetched = await served(first.json().recorded_file);
    expect(fetched.rawPayload).toEqual(webm(1));
    expect((await rowOf(callId))?.recordingSha256).toBe(sha256(webm(1)));
  });

  it("another User of the company (an Admin too) cannot upload a call's recording", async () => {
    const callId = await endedCall();
    const byAdmin = await upload(callId, webm(3), adminToken);
    expect(byAdmin.statusCode).toBe(403);
    expect((await rowOf(callId))?.recordingKey).toBeNull();
  });

  it('a deleted recording is not replaced either', async () => {
    const callId = await endedCall();
    expect((await upload(callId, webm(4))).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/videocall/${callId}`,
      headers: bearer(agentToken),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await upload(callId, webm(5))).statusCode).toBe(409);
  });

  it('the same agent retrying an upload that never completed goes through, and nothing is left of it', async () => {
    const callId = await endedCall();
    const before = storedFiles();
    const cut = new Readable({
      read() {
        this.push(webm(6, 1024));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(
      storeRecording(t.app.ctx.db, t.app.ctx.storage, 1, callId, agentId, cut, FAST_CALLS.maxRecordingBytes),
    ).rejects.toThrow('connection reset');
    expect((await rowOf(callId))?.recordingKey).toBeNull();
    expect(storedFiles().sort()).toEqual(before.sort());
    const retry = await upload(callId, webm(6));
    expect(retry.statusCode).toBe(200);
    expect(retry.json().recording_sha256).toBe(sha256(webm(6)));
  });

  it('over the limit: 413 before anything is stored, and an earlier recording is untouched', async () => {
    const callId = await endedCall();
    const before = storedFiles();
    const over = await upload(callId, webm(7, FAST_CALLS.maxRecordingBytes));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ detail: 'Size must be less than 300MB' });
    expect(storedFiles().sort()).toEqual(before.sort());
    expect((await rowOf(callId))?.recordingKey).toBeNull();

    const good = await upload(callId, webm(8));
    expect(good.statusCode).toBe(200);
    expect((await upload(callId, webm(9, FAST_CALLS.maxRecordingBytes))).statusCode).not.toBe(200);
    expect((await served(good.json().recorded_file)).rawPayload).toEqual(webm(8));
  });
});

describe('each stored file keeps its SHA-256', () => {
  it('a recording: stored, returned with the call, and sent in the videocall.recorded webhook', async () => {
    const callId = await endedCall();
    const stored = await upload(callId, webm(10));
    const hash = sha256(webm(10));
    expect(stored.json().recording_sha256).toBe(hash);
    expect((await rowOf(callId))?.recordingSha256).toBe(hash);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v2/videocall?profile=3&limit=100',
      headers: bearer(agentToken),
    });
    expect(listed.json().results.find((c: { id: number }) => c.id === callId).recording_sha256).toBe(hash);
    const events = await t.app.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.companyId, 1), eq(webhookMessages.eventType, 'videocall.recorded')));
    const bodies = events.map((event) => JSON.parse(event.body).data);
    expect(bodies).toContainEqual(expect.objectContaining({ call_id: callId, sha256: hash }));
  });

  it('a tampered file is detected when served: logged and audited', async () => {
    const callId = await endedCall();
    const stored = await upload(callId, webm(11));
    const key = (await rowOf(callId))?.recordingKey as string;
    writeFileSync(join(t.config.dataDir, 'storage', key), webm(12));
    const fetched = await served(stored.json().recorded_file);
    expect(fetched.statusCode).toBe(200);
    await expect
      .poll(async () =>
        t.app.ctx.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.objectId, String(callId)), eq(auditLog.action, 'evidence_hash_mismatch'))),
      )
      .toEqual([
        expect.objectContaining({
          objectType: 'videocall',
          before: { key, sha256: sha256(webm(11)) },
          after: { key, sha256: sha256(webm(12)) },
        }),
      ]);
    expect(logLines.some((line) => line.includes('stored file does not match its SHA-256'))).toBe(true);
  });
});

describe('at start', () => {
  it('removes .part files and page images and recordings that nothing references', async () => {
    const storage = join(t.config.dataDir, 'storage');
    const stray = ['documents/stray.png', 'recordings/1/99-stray.webm', 'documents/page.png.1234.part'];
    for (const file of stray) {
      mkdirSync(dirname(join(storage, file)), { recursive: true });
      writeFileSync(join(storage, file), 'left behind by a crash');
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(storage, file), old, old);
    }
    const kept = await upload(await endedCall(), webm(13));
    expect(kept.statusCode).toBe(200);
    // The server starts again on the same database and storage folder.
    const again = await buildApp(t.config, {
      database: { db: t.app.ctx.db, kind: 'pglite', close: async () => undefined },
    });
    try {
      const left = readdirSync(storage, { recursive: true }).map(String);
      for (const file of stray) expect(left).not.toContain(file);
      // What rows reference stays: the seed's images and the recording just stored.
      expect(left.filter((file) => file.startsWith('samples/')).length).toBeGreaterThan(0);
      expect((await served(kept.json().recorded_file)).rawPayload).toEqual(webm(13));
    } finally {
      await again.close();
    }
  });
});
