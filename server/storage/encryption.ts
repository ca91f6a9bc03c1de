/**
 * Files at rest as AES-256-GCM in fixed-size chunks (docs/decisions/0214-files-encrypted-at-rest.md):
 *
 *   header (36 bytes): "IDVENC" | version 1 | 0 | chunk size (uint32 BE) | file id (16) | nonce prefix (7) | 0
 *   chunk i:           ciphertext of `chunk size` plain bytes (fewer in the final chunk) | GCM tag (16)
 *
 * Each chunk's nonce is the file's random prefix, the chunk's index and a final-chunk flag (the STREAM
 * construction Tink's streaming AEAD uses); the additional data is the whole header, the index and the flag
 * again. So a chunk cannot be moved, swapped with another file's, or made the last one: a file cut at a chunk
 * boundary fails like a changed byte does. An empty file is one final chunk of no plain bytes. Because every
 * chunk stands alone, a byte range is served by decrypting only the chunks it touches.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import type { ByteRange } from './storage';

export const MAGIC = Buffer.from('IDVENC', 'latin1');
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 36;
export const TAG_BYTES = 16;
/** 64 KiB: a seek reads at most one chunk more than it needs, and the tags add 0.02 %. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;
const NONCE_PREFIX_BYTES = 7;
const FILE_ID_BYTES = 16;
/** The index is a uint32 in the nonce: 2^32 chunks of 64 KiB is 256 TiB, far past any recording. */
const MAX_CHUNKS = 2 ** 32;

/** What the header of an encrypted file says. */
export interface FileHeader {
  chunkBytes: number;
  /** Names the file's data key (with the storage key): hex. */
  fileId: string;
  noncePrefix: Buffer;
  /** The 36 bytes as stored: the additional data of every chunk. */
  bytes: Buffer;
}

/** A stored file that fails authentication: a wrong key, a changed, moved or cut chunk. */
export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

/** A fresh header (random file id and nonce prefix) for a new file. */
export function newHeader(chunkBytes = DEFAULT_CHUNK_BYTES): FileHeader {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > 2 ** 24)
    throw new Error(`Invalid chunk size ${chunkBytes}`);
  const bytes = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(bytes, 0);
  bytes.writeUInt8(FORMAT_VERSION, 6);
  bytes.writeUInt32BE(chunkBytes, 8);
  const fileId = randomBytes(FILE_ID_BYTES);
  fileId.copy(bytes, 12);
  const noncePrefix = randomBytes(NONCE_PREFIX_BYTES);
  noncePrefix.copy(bytes, 12 + FILE_ID_BYTES);
  return { chunkBytes, fileId: fileId.toString('hex'), noncePrefix, bytes };
}

/** Whether `bytes` start like an encrypted file (a plain file from before encryption does not). */
export function isEncrypted(bytes: Buffer): boolean {
  return bytes.length >= MAGIC.length && bytes.subarray(0, MAGIC.length).equals(MAGIC);
}

/** The header at the start of `bytes`; throws for a header this version cannot read. */
export function parseHeader(bytes: Buffer): FileHeader {
  if (bytes.length < HEADER_BYTES || !isEncrypted(bytes)) throw new DecryptionError('Not an encrypted file');
  const version = bytes.readUInt8(6);
  if (version !== FORMAT_VERSION) throw new DecryptionError(`Unknown encrypted file format ${version}`);
  const chunkBytes = bytes.readUInt32BE(8);
  if (chunkBytes < 1 || chunkBytes > 2 ** 24) throw new DecryptionError(`Invalid chunk size ${chunkBytes}`);
  const header = Buffer.from(bytes.subarray(0, HEADER_BYTES));
  return {
    chunkBytes,
    fileId: header.subarray(12, 12 + FILE_ID_BYTES).toString('hex'),
    noncePrefix: header.subarray(12 + FILE_ID_BYTES, 12 + FILE_ID_BYTES + NONCE_PREFIX_BYTES),
    bytes: header,
  };
}

function nonceAndAad(header: FileHeader, index: number, final: boolean) {
  if (index >= MAX_CHUNKS) throw new Error('File too large for its chunk size');
  const tail = Buffer.alloc(5);
  tail.writeUInt32BE(index, 0);
  tail.writeUInt8(final ? 1 : 0, 4);
  return { nonce: Buffer.concat([header.noncePrefix, tail]), aad: Buffer.concat([header.bytes, tail]) };
}

/** Chunk `index` of a file as its ciphertext and its tag (two buffers, so nothing is copied to join them). */
function sealParts(key: Buffer, header: FileHeader, index: number, final: boolean, plain: Buffer): Buffer[] {
  const { nonce, aad } = nonceAndAad(header, index, final);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad);
  const sealed = cipher.update(plain);
  // GCM's final() adds no bytes; it computes the tag.
  cipher.final();
  return [sealed, cipher.getAuthTag()];
}

/** Chunk `index` of a file: its ciphertext followed by its tag. */
export function sealChunk(key: Buffer, header: FileHeader, index: number, final: boolean, plain: Buffer) {
  return Buffer.concat(sealParts(key, header, index, final, plain));
}

/** The plain bytes of chunk `index`; throws DecryptionError when it does not authenticate. */
export function openChunk(key: Buffer, header: FileHeader, index: number, final: boolean, sealed: Buffer) {
  if (sealed.length < TAG_BYTES) throw new DecryptionError(`Chunk ${index} is cut short`);
  const { nonce, aad } = nonceAndAad(header, index, final);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    const plain = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
    decipher.final();
    return plain;
  } catch {
    throw new DecryptionError(
      `Chunk ${index}${final ? ' (final)' : ''} failed authentication: wrong key, or the file was changed or cut`,
    );
  }
}

/** The stored size of a file of `plainBytes` bytes. */
export function encryptedSize(plainBytes: number, chunkBytes = DEFAULT_CHUNK_BYTES): number {
  const chunks = Math.max(1, Math.ceil(plainBytes / chunkBytes));
  return HEADER_BYTES + plainBytes + chunks * TAG_BYTES;
}

/** The plain size of a stored file of `storedBytes` bytes, and its chunk count; throws when no file has it. */
export function plainLayout(storedBytes: number, chunkBytes: number): { plainBytes: number; chunks: number } {
  const body = storedBytes - HEADER_BYTES;
  const sealedChunk = chunkBytes + TAG_BYTES;
  const chunks = Math.ceil(body / sealedChunk);
  const last = body - (chunks - 1) * sealedChunk;
  if (body < TAG_BYTES || last < TAG_BYTES) throw new DecryptionError('The encrypted file is cut short');
  return { plainBytes: body - chunks * TAG_BYTES, chunks };
}

/**
 * Which stored bytes hold plain `range` of a file laid out as `layout`: the chunks from `first` on, whose
 * stored bytes are `stored` (both ends included); `skip` plain bytes of the first chunk come before the range.
 */
export function chunksOf(range: ByteRange, chunkBytes: number, layout: { chunks: number }) {
  const first = Math.floor(range.start / chunkBytes);
  const last = Math.floor(range.end / chunkBytes);
  const sealedChunk = chunkBytes + TAG_BYTES;
  return {
    first,
    last,
    /** Whether the range's last chunk is the file's final one. */
    reachesEnd: last === layout.chunks - 1,
    skip: range.start - first * chunkBytes,
    stored: { start: HEADER_BYTES + first * sealedChunk, end: HEADER_BYTES + (last + 1) * sealedChunk - 1 },
  };
}

/**
 * Encrypts the plain bytes going through: the header first, then each chunk as soon as it is full. The final
 * chunk waits for `beforeEnd` (the data key being kept), so the stream cannot end before it has.
 */
export function encryptingStream(
  key: Buffer,
  header: FileHeader,
  beforeEnd?: () => Promise<unknown>,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  let started = false;
  const take = (bytes: number) => {
    const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    const chunk = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
    return chunk;
  };
  const start = (stream: Transform) => {
    if (started) return;
    started = true;
    stream.push(header.bytes);
  };
  return new Transform({
    transform(data: Buffer, _encoding, done) {
      try {
        start(this);
        pending.push(data);
        pendingBytes += data.length;
        // A full chunk is sealed as not final only once a byte after it has come: the last full chunk may be final.
        while (pendingBytes > header.chunkBytes) {
          for (const part of sealParts(key, header, index, false, take(header.chunkBytes))) this.push(part);
          index += 1;
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      Promise.resolve(beforeEnd?.())
        .then(() => {
          start(this);
          for (const part of sealParts(key, header, index, true, take(pendingBytes))) this.push(part);
          done();
        })
        .catch((error: Error) => done(error));
    },
  });
}

/**
 * Decrypts stored chunks from chunk `first` on (the bytes after the header when `first` is 0) and passes on
 * `length` plain bytes after skipping `skip`. With `reachesEnd`, the last chunk read must be the file's final
 * one (so a cut file fails); otherwise every chunk read must be a middle one.
 */
export function decryptingStream(
  key: Buffer,
  header: FileHeader,
  options: { first?: number; skip?: number; length?: number; reachesEnd: boolean },
): Transform {
  const sealedChunk = header.chunkBytes + TAG_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = options.first ?? 0;
  let skip = options.skip ?? 0;
  let left = options.length ?? Number.POSITIVE_INFINITY;
  let chunksRead = 0;
  const emit = (stream: Transform, plain: Buffer) => {
    chunksRead += 1;
    const from = Math.min(skip, plain.length);
    skip -= from;
    const part = plain.subarray(from, from + Math.min(plain.length - from, left));
    left -= part.length;
    if (part.length > 0) stream.push(part);
  };
  const next = (bytes: number) => {
    const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending = all.length > bytes ? [all.subarray(bytes)] : [];
    pendingBytes = Math.max(0, all.length - bytes);
    return all.subarray(0, bytes);
  };
  return new Transform({
    transform(data: Buffer, _encoding, done) {
      try {
        pending.push(data);
        pendingBytes += data.length;
        // The last whole chunk waits: only the end of the stream tells whether it is the final one.
        while (pendingBytes > sealedChunk) {
          emit(this, openChunk(key, header, index, false, next(sealedChunk)));
          index += 1;
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        if (pendingBytes === 0 && chunksRead === 0)
          throw new DecryptionError('The encrypted file has no chunks');
        if (pendingBytes > 0)
          emit(this, openChunk(key, header, index, options.reachesEnd, next(pendingBytes)));
        else if (options.reachesEnd) throw new DecryptionError('The encrypted file is cut short');
        if (Number.isFinite(left) && left > 0) throw new DecryptionError('The encrypted file is cut short');
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
