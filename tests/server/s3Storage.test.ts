/**
 * The storage interface on an S3-compatible store (s3rver in this process): streamed multipart uploads, the
 * byte limit and the type checks as with the local folder, downloads through /storage, and /readyz.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../../server/config';
import { videoCalls } from '../../server/db/schema';
import { storeRecording } from '../../server/domain/videocalls/recordings';
import { createS3Storage } from '../../server/storage/s3';
import { FileTooLargeError, newKey } from '../../server/storage/storage';
import { startTestApp, type TestApp } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'idv-s3-'));
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  directory: dir,
  silent: true,
  configureBuckets: [{ name: 'files', configs: [] }],
});
let config: S3Config;
let client: S3Client;

beforeAll(async () => {
  const { port } = await server.run();
  config = {
    bucket: 'files',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  };
  client = new S3Client({ ...config, endpoint: config.endpoint });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A stream of `chunks` chunks of 1 MiB, produced lazily. */
function chunked(chunks: number, fill = 97): Readable {
  let sent = 0;
  return new Readable({
    read() {
      this.push(sent++ < chunks ? Buffer.alloc(1_048_576, fill) : null);
    },
  });
}

const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);

describe('S3 storage', () => {
  it('streams a small and a multipart file to the bucket and back, then removes them', async () => {
    const storage = createS3Storage(config, 'secret-for-signing');
    const small = newKey('documents', 'bin');
    expect(await storage.put(small, Readable.from([Buffer.from('hello')]))).toEqual({
      key: small,
      size: 5,
      sha256: createHash('sha256').update('hello').digest('hex'),
    });
    expect(await text(storage.open(small, { start: 1, end: 3 }))).toBe('ell');
    expect(await text(storage.open(small))).toBe('hello');
    // 20 MiB: three parts of a multipart upload.
    const large = newKey('recordings', 'webm');
    expect(await storage.put(large, chunked(20))).toMatchObject({ key: large, size: 20 * 1_048_576 });
    const listed: string[] = [];
    for await (const file of storage.list('recordings/')) listed.push(file.key);
    expect(listed).toContain(large);
    expect(await storage.size(large)).toBe(20 * 1_048_576);
    const back = await buffer(storage.open(large));
    expect(back.length).toBe(20 * 1_048_576);
    expect(back.every((byte) => byte === 97)).toBe(true);
    await storage.remove(small);
    await storage.remove(large);
    expect(await storage.size(small)).toBeNull();
    expect(await storage.size(large)).toBeNull();
  });

  it('stops a file over the limit in the middle of a multipart upload and keeps nothing', async () => {
    const storage = createS3Storage(config, 'secret-for-signing');
    const key = newKey('recordings', 'webm');
    await expect(storage.put(key, chunked(20), { maxBytes: 17 * 1_048_576 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(await storage.size(key)).toBeNull();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'files', Prefix: key }));
    expect(listed.Contents ?? []).toEqual([]);
    // The same key again, within the limit: stored.
    expect((await storage.put(key, chunked(2))).size).toBe(2 * 1_048_576);
    await storage.remove(key);
  });

  it('a missing object opens as a failing stream, not a crash', async () => {
    const storage = createS3Storage(config, 'secret-for-signing');
    await expect(text(storage.open('documents/missing.png'))).rejects.toThrow();
    expect(() => storage.open('../escape')).toThrow(/Invalid storage key/);
  });
});

describe('the server on S3 storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ s3: config });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks a recording type and size before anything is kept, and serves it by its signed address', async () => {
    const [call] = await t.app.ctx.db.select().from(videoCalls).limit(1);
    if (!call) throw new Error('the demo data has no call');
    await t.app.ctx.db
      .update(videoCalls)
      .set({ recordingKey: null, recordingSha256: null })
      .where(eq(videoCalls.id, call.id));
    const agentId = call.agentId ?? 1;
    if (call.agentId === null)
      await t.app.ctx.db.update(videoCalls).set({ agentId }).where(eq(videoCalls.id, call.id));
    const store = (bytes: Buffer[], max = 64 * 1024) =>
      storeRecording(
        t.app.ctx.db,
        t.app.ctx.storage,
        call.companyId,
        call.id,
        agentId,
        Readable.from(bytes),
        max,
      );
    await expect(store([Buffer.from('hello, not a video at all')])).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(store([WEBM, Buffer.alloc(64 * 1024)])).rejects.toBeInstanceOf(FileTooLargeError);
    await store([WEBM]);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
    const [stored] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, call.id));
    const url = t.app.ctx.storage.signedUrl(stored?.recordingKey as string);
    const fetched = await t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('video/webm');
    expect(fetched.rawPayload).toEqual(WEBM);
    expect(fetched.headers['accept-ranges']).toBe('bytes');
    // Range requests through S3: 206 with the part, 416 past the end.
    const part = await t.app.inject({
      method: 'GET',
      url: url.replace(/^https?:\/\/[^/]+/, ''),
      headers: { range: 'bytes=2-5' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 2-5/${WEBM.length}`);
    expect(part.rawPayload).toEqual(WEBM.subarray(2, 6));
    const outside = await t.app.inject({
      method: 'GET',
      url: url.replace(/^https?:\/\/[^/]+/, ''),
      headers: { range: `bytes=${WEBM.length}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(stored?.recordingSha256).toBe(createHash('sha256').update(WEBM).digest('hex'));
    const forged = await t.app.inject({ method: 'GET', url: `${url.replace(/^https?:\/\/[^/]+/, '')}x` });
    expect(forged.statusCode).toBe(403);
  });
});
