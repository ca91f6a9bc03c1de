import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HOUR_MS } from '#contract/time';

export interface StoredFile {
  key: string;
  size: number;
  /** SHA-256 of the stored bytes (hex), computed while streaming. */
  sha256: string;
}

/** Bytes `start` to `end` of a file, both included (an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file as a listing shows it. */
export interface ListedFile {
  key: string;
  modified: Date;
}

/** Files (document pages, call recordings, photos), always streamed, never held whole in memory. */
export interface Storage {
  /** Streams `source` to `key`; rejects (and keeps nothing) if it exceeds `maxBytes`. */
  put(key: string, source: Readable, options?: { maxBytes?: number }): Promise<StoredFile>;
  /** The file, or only `range` of it. */
  open(key: string, range?: ByteRange): Readable;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** The files under `prefix` (a folder such as `documents/`). */
  list(prefix: string): AsyncIterable<ListedFile>;
  /**
   * Removes what interrupted uploads left behind before `before` (local `.part` files, S3 multipart uploads
   * never completed); answers how many.
   */
  removePartial(before: Date): Promise<number>;
  /** A signed, time-limited address under /storage for `key`. */
  signedUrl(key: string): string;
  /** Checks a signature made by signedUrl. */
  verifySignature(key: string, expires: number, signature: string, now?: number): boolean;
  /** Whether the store answers (GET /readyz). */
  ping(): Promise<void>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File exceeds ${maxBytes} bytes`);
  }
}

/** A unique key under a folder, e.g. newKey('documents', 'png'). */
export function newKey(folder: string, extension: string): string {
  return `${folder}/${randomUUID()}.${extension}`;
}

/** The SHA-256 (hex) of the bytes going through, once the stream has ended. */
export function hashing(): { stream: Transform; digest: () => string } {
  const hash = createHash('sha256');
  let digest: string | undefined;
  return {
    stream: new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    }),
    digest: () => {
      digest ??= hash.digest('hex');
      return digest;
    },
  };
}

/** Counts the bytes going through; fails with FileTooLargeError past `limit`. */
export function byteLimit(limit: number, counted: (size: number) => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      counted(size);
      if (size > limit) done(new FileTooLargeError(limit));
      else done(null, chunk);
    },
  });
}

export const KEY_PATTERN = /^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9_.-]+)+$/;

/** `key` when it is a valid storage key (a folder and a name, no way out of the store); throws otherwise. */
export function checkedKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** Signed addresses under /storage (both stores: the server streams the file, after checking the signature). */
export function storageSigner(signingSecret: string, publicUrl = '') {
  const sign = (key: string, expires: number) =>
    createHmac('sha256', `storage:${signingSecret}`).update(`${key}\n${expires}`).digest('base64url');
  return {
    signedUrl(key: string) {
      // Valid until the end of the next hour: stable within an hour so browsers can cache the image.
      const expires = (Math.floor(Date.now() / HOUR_MS) + 2) * (HOUR_MS / 1000);
      return `${publicUrl}/storage/${key}?expires=${expires}&signature=${sign(key, expires)}`;
    },
    verifySignature(key: string, expires: number, signature: string, now = Date.now()) {
      if (!Number.isFinite(expires) || expires * 1000 < now) return false;
      const expected = Buffer.from(sign(key, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/** `publicUrl` prefixes signed addresses so the studio can use them from any origin. */
export function createLocalStorage(root: string, signingSecret: string, publicUrl = ''): Storage {
  const signer = storageSigner(signingSecret, publicUrl);

  function pathOf(key: string): string {
    const full = normalize(join(root, checkedKey(key)));
    if (!full.startsWith(normalize(root) + sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  return {
    async put(key, source, options = {}) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.part`;
      let size = 0;
      const counter = byteLimit(options.maxBytes ?? Number.POSITIVE_INFINITY, (n) => {
        size = n;
      });
      const hash = hashing();
      try {
        await pipeline(source, counter, hash.stream, createWriteStream(partial));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size, sha256: hash.digest() };
    },
    open: (key, range) => createReadStream(pathOf(key), range),
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },
    remove: (key) => rm(pathOf(key), { force: true }),
    async *list(prefix) {
      for (const file of await filesUnder(join(root, prefix))) {
        const key = relative(root, file).split(sep).join('/');
        if (file.endsWith('.part') || !KEY_PATTERN.test(key)) continue;
        yield { key, modified: (await stat(file)).mtime };
      }
    },
    async removePartial(before) {
      let removed = 0;
      for (const file of await filesUnder(root)) {
        if (!file.endsWith('.part')) continue;
        if ((await stat(file)).mtime >= before) continue;
        await rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
    signedUrl: signer.signedUrl,
    verifySignature: signer.verifySignature,
    async ping() {
      await mkdir(root, { recursive: true });
      await stat(root);
    },
  };
}

/** Every file under `folder` (recursively); none when it does not exist. */
async function filesUnder(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
