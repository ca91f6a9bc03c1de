/**
 * Recordings and pages on the local storage: Range requests on stored files, recordings made seekable
 * at upload, a page's SHA-256, and the limits against abuse (one call per join link, calls per link and per
 * address, the company's storage quota, uploads per user).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { Decoder } from 'ts-ebml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users, videoCalls } from '../../server/db/schema';
import { parseRange } from '../../server/routes/storage';
import { seekableHead } from '../../server/storage/webm';
import { longRecording } from '../support/recordings';
import { bearer, FAST_CALLS, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const RECORDING = readFileSync(join(import.meta.dirname, 'fixtures', 'recording.webm'));
const PNG = readFileSync(join(import.meta.dirname, 'fixtures', 'page.png'));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function multipart(parts: { name: string; filename?: string; body: Buffer | string }[]) {
  const boundary = 'evidence-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename
      ? `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`
      : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`),
      Buffer.from(part.body),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe('Range requests (RFC 9110)', () => {
  it('reads one byte range, a suffix and an open end; ignores what is not one simple range', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-9', 1000)).toBeUndefined();
    expect(parseRange('bytes=9-1', 1000)).toBeUndefined();
    expect(parseRange('items=0-1', 1000)).toBeUndefined();
    expect(parseRange(undefined, 1000)).toBeUndefined();
  });
});

describe('a recording made seekable', () => {
  it("MediaRecorder's webm has no cues; the fixed header has the duration and the cues", async () => {
    const head = await seekableHead(Readable.from([RECORDING]));
    expect(head).not.toBeNull();
    expect(head?.duration).toBeGreaterThan(1);
    expect(head?.duration).toBeLessThan(10);
    // The Cues element (ID 1C 53 BB 6B) is in the new header, and was nowhere in the original.
    const cues = Buffer.from([0x1c, 0x53, 0xbb, 0x6b]);
    expect(RECORDING.indexOf(cues)).toBe(-1);
    expect(head?.head.indexOf(cues)).toBeGreaterThan(0);
  });

  it("a long call's recording gets a cue every five seconds or so, each at a cluster of the fixed file", async () => {
    const recording = longRecording(2 * 1024 * 1024);
    const head = await seekableHead(Readable.from([recording]));
    expect(head?.duration).toBeGreaterThan(60);
    const fixed = Buffer.concat([head?.head ?? Buffer.alloc(0), recording.subarray(head?.bodyStart)]);
    const elements = new Decoder().decode(head?.head.buffer.slice(0) as ArrayBuffer);
    const segmentData = elements.find((e) => e.name === 'Segment')?.dataStart ?? Number.NaN;
    const valuesOf = (name: string) =>
      elements.filter((e) => e.name === name).map((e) => (e as unknown as { value: number }).value);
    const times = valuesOf('CueTime');
    const positions = valuesOf('CueClusterPosition');
    expect(times.length).toBe(positions.length);
    // One cue per five seconds at least apart, none more than a cluster's length (about half a second) later.
    const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5000);
    expect(Math.max(...gaps)).toBeLessThan(6000);
    expect(times.length).toBeGreaterThanOrEqual(Math.floor((head?.duration ?? 0) / 6));
    for (const position of positions)
      expect(fixed.readUInt32BE(segmentData + position).toString(16)).toBe('1f43b675');
  });

  it('answers null for bytes that are no webm with clusters', async () => {
    expect(await seekableHead(Readable.from([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])]))).toBeNull();
  });
});

describe('the server', () => {
  let t: TestApp;
  let agentToken: string;
  let agentId: number;
  beforeAll(async () => {
    t = await startTestApp({
      calls: { ...FAST_CALLS, maxRecordingBytes: 1024 * 1024 },
      limits: {
        companyStorageBytes: 1024 ** 4,
        uploadsPerMinute: 1000,
        uploadsAtOnce: 3,
        callsPerLinkPerHour: 3,
        callsPerAddressPerHour: 1000,
      },
    });
    agentToken = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    agentId = agent?.id as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  const endedCall = async () => {
    const [row] = await t.app.ctx.db
      .insert(videoCalls)
      .values({
        companyId: 1,
        profileId: 3,
        agentId,
        roomId: randomUUID(),
        status: 3,
        callEndTime: new Date(),
      })
      .returning({ id: videoCalls.id });
    return row?.id as number;
  };
  const uploadRecording = (callId: number, body: Buffer) => {
    const { payload, type } = multipart([{ name: 'file', filename: 'call.webm', body }]);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/v2/videocall/${callId}`,
      headers: { ...bearer(agentToken), 'content-type': type },
      payload,
    });
  };
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  it('stores a recording seekable, keeps its SHA-256 and serves Range requests with 206', async () => {
    const stored = await uploadRecording(await endedCall(), RECORDING);
    expect(stored.statusCode).toBe(200);
    const url = path(stored.json().recorded_file);
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const file = whole.rawPayload;
    expect(sha256(file)).toBe(stored.json().recording_sha256);
    // The stored file is the fixed one: a header with cues, the same media after it.
    expect(file.indexOf(Buffer.from([0x1c, 0x53, 0xbb, 0x6b]))).toBeGreaterThan(0);
    expect(file.length).toBeGreaterThan(RECORDING.length);

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${file.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload).toEqual(file.subarray(100, 200));
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(file.subarray(file.length - 10));
    const outside = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${file.length}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${file.length}`);
  });

  it("keeps each document page's SHA-256 and returns it with the document", async () => {
    const { payload, type } = multipart([
      { name: 'profile', body: '3' },
      { name: 'type', body: '1' },
      { name: 'upload_source', body: 'studio' },
      { name: 'pages', filename: 'page.png', body: PNG },
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/document',
      headers: { ...bearer(agentToken), 'content-type': type },
      payload,
    });
    expect(created.statusCode).toBe(201);
    const [page] = created.json().pages;
    expect(page.sha256).toBe(sha256(PNG));
    const image = await t.app.inject({ method: 'GET', url: path(page.url), headers: { range: 'bytes=0-7' } });
    expect(image.statusCode).toBe(206);
    expect(image.rawPayload).toEqual(PNG.subarray(0, 8));
  });

  it('a join link holds one call at a time, and creates only so many calls an hour', async () => {
    const linked = await t.app.inject({
      method: 'POST',
      url: '/api/v2/profile/url',
      headers: bearer(agentToken),
      payload: { profile: 4 },
    });
    const { token } = linked.json() as { token: string };
    const create = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall',
        headers: bearer(token),
        payload: { profile: 4 },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const again = await create();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Its call ends (missed): the link may create another, up to callsPerLinkPerHour (3); the company allows
    // more retries than that, so the hour's limit is what stops it.
    await t.app.ctx.db.update(companies).set({ joinLinkRetries: 5 }).where(eq(companies.id, 1));
    for (let i = 0; i < 2; i++) {
      await t.app.ctx.db
        .update(videoCalls)
        .set({ status: 2 })
        .where(eq(videoCalls.joinLink, sha256(Buffer.from(token))));
      expect((await create()).statusCode).toBe(201);
    }
    await t.app.ctx.db
      .update(videoCalls)
      .set({ status: 2 })
      .where(eq(videoCalls.joinLink, sha256(Buffer.from(token))));
    const limited = await create();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ detail: 'Too many calls, try again later' });
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('limits on uploads', () => {
  let t: TestApp;
  let agentToken: string;
  let agentId: number;
  beforeAll(async () => {
    t = await startTestApp({
      calls: { ...FAST_CALLS, maxRecordingBytes: 1024 * 1024 },
      limits: {
        companyStorageBytes: 10 * 1024 ** 3,
        uploadsPerMinute: 4,
        uploadsAtOnce: 1,
        callsPerLinkPerHour: 10,
        callsPerAddressPerHour: 2,
      },
    });
    agentToken = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    agentId = agent?.id as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  const endedCall = async () => {
    const [row] = await t.app.ctx.db
      .insert(videoCalls)
      .values({
        companyId: 1,
        profileId: 3,
        agentId,
        roomId: randomUUID(),
        status: 3,
        callEndTime: new Date(),
      })
      .returning({ id: videoCalls.id });
    return row?.id as number;
  };
  const uploadRecording = async (callId: number, body: Buffer) => {
    const { payload, type } = multipart([{ name: 'file', filename: 'call.webm', body }]);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/v2/videocall/${callId}`,
      headers: { ...bearer(agentToken), 'content-type': type },
      payload,
    });
  };

  it('refuses an upload past the company storage quota with a clear 413, keeping nothing', async () => {
    const { storageUsed } = await import('../../server/domain/evidence');
    const used = await storageUsed(t.app.ctx.db, 1);
    t.app.ctx.config.limits.companyStorageBytes = used + 1000;
    try {
      const callId = await endedCall();
      const refused = await uploadRecording(callId, RECORDING);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ detail: "Your company's storage quota is used up" });
      expect(await storageUsed(t.app.ctx.db, 1)).toBe(used);
      t.app.ctx.config.limits.companyStorageBytes = used;
      const full = await uploadRecording(callId, RECORDING);
      expect(full.statusCode).toBe(413);
      expect(full.json()).toEqual({ detail: "Your company's storage quota is used up" });
    } finally {
      t.app.ctx.config.limits.companyStorageBytes = 10 * 1024 ** 3;
    }
  });

  it('limits uploads per user at once and in a minute (429 with a detail)', async () => {
    const leave = await t.app.ctx.uploads.enter(agentId);
    const busy = await uploadRecording(await endedCall(), RECORDING);
    expect(busy.statusCode).toBe(429);
    expect(busy.json()).toEqual({ detail: 'Too many uploads at once, wait for one to finish' });
    leave();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await uploadRecording(await endedCall(), RECORDING)).statusCode);
    // 4 a minute: the quota test above used 2, the one at once above 1 (both counted) → 1 more, then 429.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await uploadRecording(await endedCall(), RECORDING);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ detail: 'Too many uploads, try again later' });
  });

  it('limits the calls one client address creates in an hour', async () => {
    const statuses: number[] = [];
    for (const profile of [5, 6, 7]) {
      const linked = await t.app.inject({
        method: 'POST',
        url: '/api/v2/profile/url',
        headers: bearer(agentToken),
        payload: { profile },
      });
      const { token } = linked.json() as { token: string };
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall',
        headers: bearer(token),
        payload: { profile },
      });
      statuses.push(created.statusCode);
    }
    expect(statuses).toEqual([201, 201, 429]);
  });
});
