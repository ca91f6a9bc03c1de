import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryDataKeys, rewrapDataKeys } from '../../server/storage/dataKeys';
import { encryptedStorage, encryptPlainFiles } from '../../server/storage/encryptedStorage';
import {
  chunksOf,
  DecryptionError,
  decryptingStream,
  encryptedSize,
  encryptingStream,
  HEADER_BYTES,
  newHeader,
  parseHeader,
  plainLayout,
} from '../../server/storage/encryption';
import {
  KeyUnwrapError,
  localKeyProvider,
  readKekList,
  UnknownKeyError,
} from '../../server/storage/keyProvider';
import { createLocalStorage, FileTooLargeError } from '../../server/storage/storage';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** `bytes` cut into pieces at `cuts` (positions, in any order), as a stream would deliver them. */
function pieces(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) out.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return out;
}

const encrypt = (key: Buffer, header: ReturnType<typeof newHeader>, plain: Buffer, cuts: number[] = []) =>
  collect(Readable.from(pieces(plain, cuts)).pipe(encryptingStream(key, header)));

/** Decrypts plain `range` of `stored` reading only the stored bytes the range maps to. */
async function readRange(key: Buffer, stored: Buffer, range: { start: number; end: number }) {
  const header = parseHeader(stored);
  const layout = plainLayout(stored.length, header.chunkBytes);
  const plan = chunksOf(range, header.chunkBytes, layout);
  const body = stored.subarray(plan.stored.start, Math.min(plan.stored.end, stored.length - 1) + 1);
  return collect(
    Readable.from([body]).pipe(
      decryptingStream(key, header, {
        first: plan.first,
        skip: plan.skip,
        length: range.end - range.start + 1,
        reachesEnd: plan.reachesEnd,
      }),
    ),
  );
}

const readWhole = (key: Buffer, stored: Buffer) => {
  const header = parseHeader(stored);
  return collect(
    Readable.from([stored.subarray(HEADER_BYTES)]).pipe(
      decryptingStream(key, header, {
        length: plainLayout(stored.length, header.chunkBytes).plainBytes,
        reachesEnd: true,
      }),
    ),
  );
};

const plainAndChunk = fc.record({
  plain: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
  chunkBytes: fc.integer({ min: 1, max: 130 }),
  cuts: fc.array(fc.nat(), { maxLength: 8 }),
});

describe('the chunked cipher', () => {
  it('reads back every size whole, however the input arrives, and its sizes map both ways', async () => {
    await fc.assert(
      fc.asyncProperty(plainAndChunk, async ({ plain, chunkBytes, cuts }) => {
        const key = randomBytes(32);
        const stored = await encrypt(key, newHeader(chunkBytes), plain, cuts);
        expect(stored.length).toBe(encryptedSize(plain.length, chunkBytes));
        expect(plainLayout(stored.length, chunkBytes).plainBytes).toBe(plain.length);
        expect(await readWhole(key, stored)).toEqual(plain);
        if (plain.length >= 16) expect(stored.includes(plain.subarray(0, 16))).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('reads any byte range by decrypting only the chunks it touches', async () => {
    await fc.assert(
      fc.asyncProperty(
        plainAndChunk.filter(({ plain }) => plain.length > 0),
        fc.nat(),
        fc.nat(),
        async ({ plain, chunkBytes }, a, b) => {
          const key = randomBytes(32);
          const stored = await encrypt(key, newHeader(chunkBytes), plain);
          const start = a % plain.length;
          const end = start + (b % (plain.length - start));
          expect(await readRange(key, stored, { start, end })).toEqual(plain.subarray(start, end + 1));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('fails on any changed byte, whole or in the range that holds it', async () => {
    await fc.assert(
      fc.asyncProperty(plainAndChunk, fc.nat(), fc.integer({ min: 1, max: 255 }), async (input, at, flip) => {
        const key = randomBytes(32);
        const stored = await encrypt(key, newHeader(input.chunkBytes), input.plain);
        const position = HEADER_BYTES + (at % (stored.length - HEADER_BYTES));
        const changed = Buffer.from(stored);
        changed[position] = (changed[position] as number) ^ flip;
        await expect(readWhole(key, changed)).rejects.toBeInstanceOf(DecryptionError);
        if (input.plain.length === 0) return;
        const chunk = Math.floor((position - HEADER_BYTES) / (input.chunkBytes + 16));
        const start = Math.min(chunk * input.chunkBytes, input.plain.length - 1);
        await expect(readRange(key, changed, { start, end: start })).rejects.toBeInstanceOf(DecryptionError);
      }),
      { numRuns: 150 },
    );
  });

  it('fails for a file cut at a chunk boundary, chunks swapped, a changed header or another key', async () => {
    const key = randomBytes(32);
    const plain = randomBytes(1000);
    const stored = await encrypt(key, newHeader(100), plain);
    const sealed = 116;
    const cut = stored.subarray(0, HEADER_BYTES + 5 * sealed);
    expect(plainLayout(cut.length, 100).plainBytes).toBe(500);
    await expect(readWhole(key, cut)).rejects.toThrow(/final/);
    await expect(readRange(key, cut, { start: 450, end: 499 })).rejects.toBeInstanceOf(DecryptionError);
    const swapped = Buffer.concat([
      stored.subarray(0, HEADER_BYTES),
      stored.subarray(HEADER_BYTES + sealed, HEADER_BYTES + 2 * sealed),
      stored.subarray(HEADER_BYTES, HEADER_BYTES + sealed),
      stored.subarray(HEADER_BYTES + 2 * sealed),
    ]);
    await expect(readWhole(key, swapped)).rejects.toBeInstanceOf(DecryptionError);
    const header = Buffer.from(stored);
    header[20] = (header[20] as number) ^ 1;
    await expect(readWhole(key, header)).rejects.toBeInstanceOf(DecryptionError);
    await expect(readWhole(randomBytes(32), stored)).rejects.toBeInstanceOf(DecryptionError);
    // Another file's chunk (same key, same index) does not pass either: the header is bound in.
    const other = await encrypt(key, newHeader(100), plain);
    const mixed = Buffer.concat([
      stored.subarray(0, HEADER_BYTES + sealed),
      other.subarray(HEADER_BYTES + sealed),
    ]);
    await expect(readWhole(key, mixed)).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe('the key provider', () => {
  it('wraps data keys with the first key and unwraps with any; an unknown or wrong key fails loudly', async () => {
    const [oldKek, newKek] = [randomBytes(32), randomBytes(32)];
    const before = localKeyProvider([oldKek]);
    const after = localKeyProvider([newKek, oldKek]);
    const dataKey = randomBytes(32);
    const wrapped = await before.wrap(dataKey);
    expect(wrapped.wrapped.includes(dataKey)).toBe(false);
    expect(await after.unwrap(wrapped)).toEqual(dataKey);
    expect((await after.wrap(dataKey)).keyId).toBe(after.currentKeyId);
    await expect(localKeyProvider([newKek]).unwrap(wrapped)).rejects.toBeInstanceOf(UnknownKeyError);
    const damaged = { ...wrapped, wrapped: Buffer.from(wrapped.wrapped) };
    damaged.wrapped[20] = (damaged.wrapped[20] as number) ^ 1;
    await expect(before.unwrap(damaged)).rejects.toBeInstanceOf(KeyUnwrapError);
  });

  it('reads key lists as STORAGE_KEK and its file hold them, and refuses anything else', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    expect(readKekList(`${a.toString('base64')}, ${b.toString('base64')}`)).toEqual([a, b]);
    expect(readKekList(`# current\n${b.toString('base64')}\n\n${a.toString('base64')} # old\n`)).toEqual([
      b,
      a,
    ]);
    expect(() => readKekList(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => readKekList('not a key!')).toThrow(/32 bytes/);
    expect(() => readKekList(' # nothing\n')).toThrow(/no key/);
  });
});

describe('encrypted storage on a folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'idv-cipher-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const folder = createLocalStorage(root, 'secret-for-signing');

  it('stores ciphertext, answers plain sizes, ranges and hashes, rotates and encrypts old plain files', async () => {
    const dataKeys = memoryDataKeys();
    const [oldKek, newKek] = [randomBytes(32), randomBytes(32)];
    const storage = encryptedStorage(folder, localKeyProvider([oldKek]), dataKeys, { chunkBytes: 1024 });
    const plain = randomBytes(5000);
    const stored = await storage.put('recordings/a.webm', Readable.from([plain]));
    expect(stored.size).toBe(5000);
    const onDisk = readFileSync(join(root, 'recordings/a.webm'));
    expect(onDisk.includes(plain.subarray(0, 32))).toBe(false);
    expect(await storage.size('recordings/a.webm')).toBe(5000);
    expect(await collect(storage.open('recordings/a.webm'))).toEqual(plain);
    expect(await collect(storage.open('recordings/a.webm', { start: 1000, end: 3100 }))).toEqual(
      plain.subarray(1000, 3101),
    );
    expect(await storage.put('recordings/b.webm', Readable.from([]))).toMatchObject({ size: 0 });
    // Past the limit: the plain bytes are counted, and neither the file nor its data key is kept.
    await expect(
      storage.put('recordings/c.webm', Readable.from([plain, plain]), { maxBytes: 6000 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.size('recordings/c.webm')).toBeNull();
    expect([...(await dataKeys.countByKek()).values()]).toEqual([2]);
    expect(await collect(storage.open('recordings/b.webm'))).toEqual(Buffer.alloc(0));

    // Rotation: the files stay as they are, only their data keys are wrapped again.
    const rotated = encryptedStorage(folder, localKeyProvider([newKek, oldKek]), dataKeys);
    expect(await rewrapDataKeys(dataKeys, localKeyProvider([newKek, oldKek]), { batch: 1 })).toMatchObject({
      rewrapped: 2,
    });
    expect(readFileSync(join(root, 'recordings/a.webm'))).toEqual(onDisk);
    const onlyNew = encryptedStorage(folder, localKeyProvider([newKek]), dataKeys);
    expect(await collect(onlyNew.open('recordings/a.webm'))).toEqual(plain);
    expect(await collect(rotated.open('recordings/b.webm'))).toEqual(Buffer.alloc(0));
    await expect(
      collect(encryptedStorage(folder, localKeyProvider([oldKek]), dataKeys).open('recordings/a.webm')),
    ).rejects.toBeInstanceOf(UnknownKeyError);

    // A plain file from before encryption reads as it is, then is encrypted in place.
    mkdirSync(join(root, 'documents'), { recursive: true });
    writeFileSync(join(root, 'documents/old.png'), plain.subarray(0, 700));
    expect(await onlyNew.size('documents/old.png')).toBe(700);
    expect(await collect(onlyNew.open('documents/old.png', { start: 5, end: 9 }))).toEqual(
      plain.subarray(5, 10),
    );
    expect(await encryptPlainFiles(onlyNew)).toEqual({ encrypted: 1, already: 2 });
    expect(readFileSync(join(root, 'documents/old.png')).includes(plain.subarray(0, 32))).toBe(false);
    expect(await collect(onlyNew.open('documents/old.png'))).toEqual(plain.subarray(0, 700));

    // Removing forgets the data key first: a copy of the file kept elsewhere is unreadable too.
    await onlyNew.remove('recordings/a.webm');
    expect(await dataKeys.find('recordings/a.webm', parseHeader(onDisk).fileId)).toBeNull();
  });
});
