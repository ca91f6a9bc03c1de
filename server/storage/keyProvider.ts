/**
 * Key-encryption keys (KEKs): they wrap each file's random data key, and only the wrapped data key is kept
 * (docs/decisions/0214-files-encrypted-at-rest.md). A cloud KMS fits the same interface: `wrap` is its
 * Encrypt of the 32-byte data key under the current key, `unwrap` its Decrypt, the key id its key's ARN or name.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface WrappedKey {
  /** The key-encryption key that wrapped it. */
  keyId: string;
  wrapped: Buffer;
}

export interface KeyProvider {
  /** The key that wraps new data keys. */
  readonly currentKeyId: string;
  wrap(dataKey: Buffer): Promise<WrappedKey>;
  /** The data key; throws UnknownKeyError for a key id it does not hold, KeyUnwrapError for a wrong key. */
  unwrap(key: WrappedKey): Promise<Buffer>;
  /** Whether it can unwrap what `keyId` wrapped. */
  knows(keyId: string): boolean;
}

export class UnknownKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`The key-encryption key ${keyId} is not configured (STORAGE_KEK, STORAGE_KEK_FILE)`);
    this.name = 'UnknownKeyError';
  }
}

export class KeyUnwrapError extends Error {
  constructor(readonly keyId: string) {
    super(
      `A data key wrapped by ${keyId} does not unwrap: the key-encryption key is wrong or the key was changed`,
    );
    this.name = 'KeyUnwrapError';
  }
}

const KEK_BYTES = 32;
const WRAP_NONCE_BYTES = 12;

/** A local KEK's id: a keyed hash of it, so the id names the key without telling anything about it. */
export function localKeyId(kek: Buffer): string {
  return `local:${createHmac('sha256', kek).update('idv storage key id').digest('hex').slice(0, 16)}`;
}

/**
 * KEKs held by this process: the first wraps new data keys, every one unwraps. A data key is wrapped with
 * AES-256-GCM under a random nonce, the key id bound as additional data.
 */
export function localKeyProvider(keks: Buffer[]): KeyProvider {
  const [current] = keks;
  if (!current) throw new Error('No key-encryption key');
  const byId = new Map<string, Buffer>();
  for (const kek of keks) {
    if (kek.length !== KEK_BYTES) throw new Error(`A key-encryption key must be ${KEK_BYTES} bytes`);
    const id = localKeyId(kek);
    if (!byId.has(id)) byId.set(id, kek);
  }
  const currentKeyId = localKeyId(current);
  return {
    currentKeyId,
    async wrap(dataKey) {
      const nonce = randomBytes(WRAP_NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, nonce);
      cipher.setAAD(Buffer.from(currentKeyId));
      const sealed = Buffer.concat([cipher.update(dataKey), cipher.final()]);
      return { keyId: currentKeyId, wrapped: Buffer.concat([nonce, sealed, cipher.getAuthTag()]) };
    },
    async unwrap({ keyId, wrapped }) {
      const kek = byId.get(keyId);
      if (!kek) throw new UnknownKeyError(keyId);
      const decipher = createDecipheriv('aes-256-gcm', kek, wrapped.subarray(0, WRAP_NONCE_BYTES));
      decipher.setAAD(Buffer.from(keyId));
      decipher.setAuthTag(wrapped.subarray(wrapped.length - 16));
      try {
        return Buffer.concat([
          decipher.update(wrapped.subarray(WRAP_NONCE_BYTES, wrapped.length - 16)),
          decipher.final(),
        ]);
      } catch {
        throw new KeyUnwrapError(keyId);
      }
    },
    knows: (keyId) => byId.has(keyId),
  };
}

/** A new random KEK, as STORAGE_KEK takes it (base64). */
export function newKek(): string {
  return randomBytes(KEK_BYTES).toString('base64');
}

/** The KEKs of a list as STORAGE_KEK and STORAGE_KEK_FILE hold them: base64, separated by commas, spaces or lines. */
export function readKekList(text: string): Buffer[] {
  const entries = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, ''))
    .join(',')
    .split(/[\s,]+/)
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('holds no key');
  return entries.map((entry, position) => {
    const key = Buffer.from(entry, 'base64');
    if (!/^[A-Za-z0-9+/=_-]+$/.test(entry) || key.length !== KEK_BYTES)
      throw new Error(`key ${position + 1} is not the base64 of ${KEK_BYTES} bytes`);
    return key;
  });
}

/**
 * The KEK derived from the server secret: what wraps data keys when no KEK is configured, so one process (and
 * every process of a deployment, which shares JWT_SECRET) encrypts without setup. Always kept readable, so
 * files wrapped by it stay readable after a KEK is configured, until `npm run storage:rotate-key`.
 */
export function derivedKek(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'idv storage', 'key-encryption key v1', KEK_BYTES));
}

export interface KekConfig {
  /** STORAGE_KEK: base64 keys, the first current. */
  keys: string | undefined;
  /** STORAGE_KEK_FILE: the same list in a file. */
  file: string | undefined;
}

/** The configured KEKs (STORAGE_KEK or STORAGE_KEK_FILE), then the one derived from the server secret. */
export function configuredKeyProvider(config: { storageKek: KekConfig; jwtSecret: string }): KeyProvider {
  const { keys, file } = config.storageKek;
  if (keys !== undefined && file !== undefined)
    throw new Error('Set STORAGE_KEK or STORAGE_KEK_FILE, not both');
  const configured = keys !== undefined ? readKekList(keys) : file !== undefined ? kekFile(file) : [];
  return localKeyProvider([...configured, derivedKek(config.jwtSecret)]);
}

function kekFile(file: string): Buffer[] {
  try {
    return readKekList(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`STORAGE_KEK_FILE ${file}: ${(error as Error).message}`);
  }
}
