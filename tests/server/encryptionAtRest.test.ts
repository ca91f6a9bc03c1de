/**
 * Files at rest: what lies in the storage folder and in the S3-compatible store is ciphertext, the API serves
 * the plain file with its SHA-256 and Range requests, a wrong key or a changed chunk fails loudly, and key
 * rotation re-wraps the data keys without touching a file.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRotateKeyCommand } from '../../scripts/storageRotateKey';
import type { S3Config } from '../../server/config';
import { documentTypes, storageDataKeys, users, videoCalls } from '../../server/db/schema';
import { storeRecording } from '../../server/domain/videocalls/recordings';
import { databaseDataKeys } from '../../server/storage/dataKeys';
import { encryptedStorage, encryptPlainFiles } from '../../server/storage/encryptedStorage';
import { DecryptionError, HEADER_BYTES, parseHeader } from '../../server/storage/encryption';
import { configuredKeyProvider, localKeyProvider, UnknownKeyError } from '../../server/storage/keyProvider';
import { createLocalStorage } from '../../server/storage/storage';
import { bearer, FAST_CALLS, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const RECORDING = readFileSync(join(import.meta.dirname, 'fixtures', 'recording.webm'));
const PNG = readFileSync(join(import.meta.dirname, 'fixtures', 'page.png'));
const CUES = Buffer.from([0x1c, 0x53, 0xbb, 0x6b]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
const kek = () => randomBytes(32).toString('base64');

describe('files in the storage folder', () => {
  let t: TestApp;
  let agentToken: string;
  let agentId: number;
  const firstKek = kek();
  const root = () => join(t.config.dataDir, 'storage');

  beforeAll(async () => {
    t = await startTestApp({
      calls: { ...FAST_CALLS, maxRecordingBytes: 1024 * 1024 },
      storageKek: { keys: firstKek, file: undefined },
    });
    agentToken = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    agentId = agent?.id as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function recorded() {
    const [call] = await t.app.ctx.db
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
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(RECORDING)], { type: 'video/webm' }), 'call.webm');
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/videocall/${call?.id}`,
      headers: bearer(agentToken),
      payload: form,
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.app.ctx.db
      .select()
      .from(videoCalls)
      .where(eq(videoCalls.id, call?.id as number));
    return { url: path(response.json().recorded_file as string), key: row?.recordingKey as string };
  }

  async function documentPage() {
    const [type] = await t.app.ctx.db
      .select()
      .from(documentTypes)
      .where(eq(documentTypes.documentClass, 'PA'));
    const form = new FormData();
    form.append('profile', '3');
    form.append('type', String(type?.id));
    form.append('pages', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'front.png');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v2/document',
      headers: bearer(agentToken),
      payload: form,
    });
    expect(response.statusCode).toBe(201);
    const [page] = response.json().pages as { url: string; sha256: string }[];
    return { url: path(page?.url as string), sha256: page?.sha256 as string };
  }

  it('keeps ciphertext on disk and serves the plain recording, seekable by Range across chunks', async () => {
    const { url, key } = await recorded();
    const onDisk = readFileSync(join(root(), key));
    expect(parseHeader(onDisk).chunkBytes).toBe(64 * 1024);
    expect(onDisk.includes(RECORDING.subarray(200, 264))).toBe(false);

    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    const file = whole.rawPayload;
    expect(Number(whole.headers['content-length'])).toBe(file.length);
    // The served file is the seekable one (its header has the cues) and its hash is what the API reported.
    expect(file.indexOf(CUES)).toBeGreaterThan(0);
    const [row] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.recordingKey, key));
    expect(sha256(file)).toBe(row?.recordingSha256);
    expect(file.length).toBeGreaterThan(64 * 1024);

    for (const [start, end] of [
      [65_000, 66_000],
      [0, 0],
      [65_536, 65_536],
      [file.length - 5, file.length - 1],
    ] as const) {
      const part = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${start}-${end}` } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${file.length}`);
      expect(part.rawPayload).toEqual(file.subarray(start, end + 1));
    }
    const outside = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${file.length}-` } });
    expect(outside.statusCode).toBe(416);
  });

  it("keeps a document page's SHA-256 that of the plain image", async () => {
    const page = await documentPage();
    expect(page.sha256).toBe(sha256(PNG));
    const served = await t.app.inject({ method: 'GET', url: page.url });
    expect(served.rawPayload).toEqual(PNG);
    const key = page.url.split('?')[0]?.replace('/storage/', '') as string;
    expect(readFileSync(join(root(), key)).includes(PNG.subarray(0, 64))).toBe(false);
  });

  it('fails loudly for a wrong key, a lost data key and a changed chunk', async () => {
    const { key } = await recorded();
    const dataKeys = databaseDataKeys(t.app.ctx.db);
    const folder = createLocalStorage(root(), 'signing');
    const wrongKey = encryptedStorage(folder, localKeyProvider([randomBytes(32)]), dataKeys);
    await expect(buffer(wrongKey.open(key))).rejects.toBeInstanceOf(UnknownKeyError);

    const stored = readFileSync(join(root(), key));
    const changed = Buffer.from(stored);
    const at = HEADER_BYTES + 64 * 1024 + 100;
    changed[at] = (changed[at] as number) ^ 0x01;
    writeFileSync(join(root(), key), changed);
    await expect(buffer(t.app.ctx.storage.open(key))).rejects.toBeInstanceOf(DecryptionError);
    // Only the changed chunk fails: a range in the first chunk still reads.
    expect(await buffer(t.app.ctx.storage.open(key, { start: 0, end: 99 }))).toHaveLength(100);
    await expect(buffer(t.app.ctx.storage.open(key, { start: 65_600, end: 65_700 }))).rejects.toBeInstanceOf(
      DecryptionError,
    );

    writeFileSync(join(root(), key), stored);
    await t.app.ctx.db.delete(storageDataKeys).where(eq(storageDataKeys.storageKey, key));
    await expect(buffer(t.app.ctx.storage.open(key))).rejects.toThrow(/data key of .* is gone/);
  });

  it('rotation re-wraps every data key, leaves the files as they were, and keeps them readable', async () => {
    const { url, key } = await recorded();
    const page = await documentPage();
    const before = readFileSync(join(root(), key));
    const plainRecording = (await t.app.inject({ method: 'GET', url })).rawPayload;
    const secondKek = kek();
    // Without the old key in the list the command cannot unwrap, says so, and changes nothing.
    t.config.storageKek = { keys: secondKek, file: undefined };
    const refused: string[] = [];
    expect(await runRotateKeyCommand(t.app.ctx.db, t.config, [], (line) => refused.push(line))).toBe(1);
    expect(refused).toContainEqual(expect.stringMatching(/wrapped by local:\w+, which is not configured/));
    t.config.storageKek = { keys: `${secondKek},${firstKek}`, file: undefined };
    const lines: string[] = [];
    const rotate = () => runRotateKeyCommand(t.app.ctx.db, t.config, [], (line) => lines.push(line));
    expect(await rotate()).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/data keys now wrapped by .*; no file was rewritten/));
    const keys = configuredKeyProvider(t.config);
    expect([...(await databaseDataKeys(t.app.ctx.db).countByKek()).keys()]).toEqual([keys.currentKeyId]);
    expect(readFileSync(join(root(), key))).toEqual(before);

    // The old key is gone from the configuration: everything still reads.
    t.config.storageKek = { keys: secondKek, file: undefined };
    await t.restart();
    expect((await t.app.inject({ method: 'GET', url })).rawPayload).toEqual(plainRecording);
    expect((await t.app.inject({ method: 'GET', url: page.url })).rawPayload).toEqual(PNG);
  });

  it('reads the plain files of before as they are, and encrypts them in place on request', async () => {
    // The seeded sample images were written plain, as files stored before encryption are.
    const samples: string[] = [];
    for await (const { key } of t.app.ctx.storage.list('samples/')) samples.push(key);
    expect(samples.length).toBeGreaterThan(0);
    const sample = samples[0] as string;
    const plain = readFileSync(join(root(), sample));
    expect(await buffer(t.app.ctx.storage.open(sample))).toEqual(plain);
    const storage = encryptedStorage(
      createLocalStorage(root(), 'signing'),
      configuredKeyProvider(t.config),
      databaseDataKeys(t.app.ctx.db),
    );
    const result = await encryptPlainFiles(storage, 'samples/');
    expect(result.encrypted).toBe(samples.length);
    expect(readFileSync(join(root(), sample)).equals(plain)).toBe(false);
    expect(await buffer(t.app.ctx.storage.open(sample))).toEqual(plain);
    expect(await encryptPlainFiles(storage, 'samples/')).toEqual({ encrypted: 0, already: samples.length });
  });
});

describe('files in the S3-compatible store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idv-s3-enc-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: 'sealed', configs: [] }],
  });
  let t: TestApp;
  let config: S3Config;

  beforeAll(async () => {
    const { port } = await s3.run();
    config = {
      bucket: 'sealed',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    };
    t = await startTestApp({ s3: config });
  });
  afterAll(async () => {
    await t?.close();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores ciphertext objects and still serves the plain file and its ranges through /storage', async () => {
    const [call] = await t.app.ctx.db.select().from(videoCalls).limit(1);
    if (!call) throw new Error('the demo data has no call');
    await t.app.ctx.db
      .update(videoCalls)
      .set({ recordingKey: null, recordingSha256: null, agentId: call.agentId ?? 1 })
      .where(eq(videoCalls.id, call.id));
    await storeRecording(
      t.app.ctx.db,
      t.app.ctx.storage,
      call.companyId,
      call.id,
      call.agentId ?? 1,
      Readable.from([RECORDING]),
      1024 * 1024,
    );
    const [row] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, call.id));
    const key = row?.recordingKey as string;

    const client = new S3Client({ ...config });
    const object = await client.send(new GetObjectCommand({ Bucket: 'sealed', Key: key }));
    const inBucket = Buffer.from(
      await (
        object.Body as Readable & { transformToByteArray(): Promise<Uint8Array> }
      ).transformToByteArray(),
    );
    expect(parseHeader(inBucket).chunkBytes).toBe(64 * 1024);
    expect(inBucket.includes(RECORDING.subarray(1000, 1064))).toBe(false);

    // /storage streams and decrypts: the store holds only ciphertext.
    const url = path(t.app.ctx.storage.signedUrl(key));
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    const file = whole.rawPayload;
    expect(sha256(file)).toBe(row?.recordingSha256);
    expect(file.indexOf(CUES)).toBeGreaterThan(0);
    const end = file.length - 1;
    const part = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=65530-${end}` } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 65530-${end}/${file.length}`);
    expect(part.rawPayload).toEqual(file.subarray(65_530));
  });
});
