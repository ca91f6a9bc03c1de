/**
 * The storage every caller uses: the local folder or S3 underneath, every file written through it encrypted
 * (server/storage/encryption.ts) under a data key of its own, wrapped by the KeyProvider and kept in a
 * DataKeyStore. Files from before encryption have no header and are read as they are
 * (`npm run storage:encrypt-existing` encrypts them). Sizes, ranges and SHA-256 sums are the plain content's,
 * so callers and evidence checks see no difference.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough, pipeline } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { type DataKeyStore, databaseDataKeys } from './dataKeys';
import {
  chunksOf,
  DEFAULT_CHUNK_BYTES,
  DecryptionError,
  decryptingStream,
  encryptingStream,
  type FileHeader,
  HEADER_BYTES,
  isEncrypted,
  newHeader,
  parseHeader,
  plainLayout,
} from './encryption';
import { configuredKeyProvider, type KeyProvider } from './keyProvider';
import { createS3Storage } from './s3';
import { byteLimit, checkedKey, createLocalStorage, hashing, type Storage } from './storage';

const DATA_KEY_BYTES = 32;

/** What a stored file is: plain (from before encryption) or encrypted, with its sizes. */
export type StoredForm =
  | { encrypted: false; storedBytes: number }
  | { encrypted: true; storedBytes: number; plainBytes: number; chunks: number; header: FileHeader };

export interface EncryptedStorage extends Storage {
  /** The stored file's form, or null when there is none. */
  inspect(key: string): Promise<StoredForm | null>;
  /** The store underneath, which sees the stored (encrypted) bytes. */
  readonly inner: Storage;
}

export function encryptedStorage(
  inner: Storage,
  keys: KeyProvider,
  dataKeys: DataKeyStore,
  options: { chunkBytes?: number } = {},
): EncryptedStorage {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;

  async function inspect(key: string): Promise<StoredForm | null> {
    const storedBytes = await inner.size(key);
    if (storedBytes === null) return null;
    if (storedBytes < HEADER_BYTES) return { encrypted: false, storedBytes };
    const head = await buffer(inner.open(key, { start: 0, end: HEADER_BYTES - 1 }));
    if (!isEncrypted(head)) return { encrypted: false, storedBytes };
    const header = parseHeader(head);
    return { encrypted: true, storedBytes, header, ...plainLayout(storedBytes, header.chunkBytes) };
  }

  async function dataKeyOf(key: string, header: FileHeader): Promise<Buffer> {
    const wrapped = await dataKeys.find(key, header.fileId);
    if (!wrapped) throw new DecryptionError(`The data key of ${key} is gone: the file cannot be read`);
    return keys.unwrap(wrapped);
  }

  async function streamInto(
    out: PassThrough,
    key: string,
    range: { start: number; end: number } | undefined,
  ) {
    const form = await inspect(key);
    if (!form) throw Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
    if (!form.encrypted) {
      pipeline(inner.open(key, range), out, () => undefined);
      return;
    }
    const { header, plainBytes, storedBytes } = form;
    const dataKey = await dataKeyOf(key, header);
    let decrypt: NodeJS.ReadWriteStream;
    let stored: { start: number; end: number };
    if (!range) {
      decrypt = decryptingStream(dataKey, header, { length: plainBytes, reachesEnd: true });
      stored = { start: HEADER_BYTES, end: storedBytes - 1 };
    } else {
      if (range.start > range.end || range.start >= plainBytes)
        throw new RangeError(`Range ${range.start}-${range.end} outside ${key} (${plainBytes} bytes)`);
      const wanted = { start: range.start, end: Math.min(range.end, plainBytes - 1) };
      const plan = chunksOf(wanted, header.chunkBytes, form);
      decrypt = decryptingStream(dataKey, header, {
        first: plan.first,
        skip: plan.skip,
        length: wanted.end - wanted.start + 1,
        reachesEnd: plan.reachesEnd,
      });
      stored = { start: plan.stored.start, end: Math.min(plan.stored.end, storedBytes - 1) };
    }
    pipeline(inner.open(key, stored), decrypt, out, () => undefined);
  }

  return {
    inner,
    inspect,
    async put(key, source, putOptions = {}) {
      checkedKey(key);
      const header = newHeader(chunkBytes);
      const dataKey = randomBytes(DATA_KEY_BYTES);
      // The data key is kept just before the file's last chunk is written, so no complete file is ever without
      // it, and an upload refused on the way (over its size limit, cut off) leaves no key behind.
      let saved: Promise<void> | null = null;
      const save = () => {
        saved ??= keys
          .wrap(dataKey)
          .then((wrapped) => dataKeys.save({ storageKey: key, fileId: header.fileId, ...wrapped }));
        return saved;
      };
      let size = 0;
      const counter = byteLimit(putOptions.maxBytes ?? Number.POSITIVE_INFINITY, (n) => {
        size = n;
      });
      const hash = hashing();
      let failure: unknown;
      const encrypted = pipeline(
        source,
        counter,
        hash.stream,
        encryptingStream(dataKey, header, save),
        (error) => {
          failure ??= error ?? undefined;
        },
      );
      try {
        await inner.put(key, encrypted);
        // The stream asked for the key before its last chunk; a store that took no chunk at all still needs it.
        await save();
      } catch (error) {
        // Set by the stream's last chunk, if it came that far (TypeScript cannot see the closure assign it).
        const keeping = saved as Promise<void> | null;
        if (keeping)
          await keeping.then(
            () => dataKeys.forget(key, header.fileId),
            () => undefined,
          );
        // The store's own error, unless it only saw the encrypting stream cut off by the source's failure.
        const cutOff = (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
        throw cutOff && failure ? failure : error;
      }
      return { key, size, sha256: hash.digest() };
    },
    open(key, range) {
      checkedKey(key);
      const out = new PassThrough();
      streamInto(out, key, range).catch((error) => out.destroy(error));
      return out;
    },
    async size(key) {
      const form = await inspect(key);
      if (!form) return null;
      return form.encrypted ? form.plainBytes : form.storedBytes;
    },
    async remove(key) {
      // The data key first: a file whose removal fails is unreadable all the same.
      await dataKeys.forget(key);
      await inner.remove(key);
    },
    list: (prefix) => inner.list(prefix),
    removePartial: (before) => inner.removePartial(before),
    signedUrl: (key) => inner.signedUrl(key),
    verifySignature: (key, expires, signature, now) => inner.verifySignature(key, expires, signature, now),
    ping: () => inner.ping(),
  };
}

/** The configured store (S3 or the local folder), encrypted, its data keys in `db`. */
export function createStorage(config: ServerConfig, db: Db): EncryptedStorage {
  const inner = config.s3
    ? createS3Storage(config.s3, config.jwtSecret, config.publicUrl)
    : createLocalStorage(`${config.dataDir}/storage`, config.jwtSecret, config.publicUrl);
  return encryptedStorage(inner, configuredKeyProvider(config), databaseDataKeys(db));
}

/**
 * Encrypts in place the plain files under `prefix` (written before encryption): each is read, written again
 * encrypted under the same key (the local folder swaps it in by a rename; S3 replaces the object), and read
 * back to check that its SHA-256 is unchanged. Answers how many files were encrypted and how many already were.
 */
export async function encryptPlainFiles(
  storage: EncryptedStorage,
  prefix = '',
  progress?: (key: string) => void,
): Promise<{ encrypted: number; already: number }> {
  let encrypted = 0;
  let already = 0;
  for await (const { key } of storage.inner.list(prefix)) {
    const form = await storage.inspect(key);
    if (!form) continue;
    if (form.encrypted) {
      already += 1;
      continue;
    }
    const stored = await storage.put(key, storage.inner.open(key));
    const check = hashing();
    await new Promise<void>((resolve, reject) => {
      pipeline(storage.open(key), check.stream, new PassThrough().resume(), (error) =>
        error ? reject(error) : resolve(),
      );
    });
    if (check.digest() !== stored.sha256)
      throw new DecryptionError(`${key} does not read back as it was written; stopped`);
    encrypted += 1;
    progress?.(key);
  }
  return { encrypted, already };
}
