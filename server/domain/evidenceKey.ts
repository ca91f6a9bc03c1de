/**
 * The server's evidence signing key: Ed25519, from EVIDENCE_SIGNING_KEY, else generated once and
 * kept in `server_keys`, sealed with the secret box, so that every process and every restart signs with the
 * same key. The first process to insert wins; the others read its key.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { EvidencePublicKey } from '#contract/evidence';
import type { SecretBox } from '../auth/secrets';
import type { DbOrTx } from '../db/client';
import { serverKeys } from '../db/schema';

const KEY_NAME = 'evidence_signing_key';

export interface EvidenceSigner {
  /** The Ed25519 signature of `bytes`, base64. */
  sign(bytes: Uint8Array): Promise<string>;
  publicKey(): Promise<EvidencePublicKey>;
}

async function storedKey(db: DbOrTx, secrets: SecretBox): Promise<KeyObject> {
  const read = async () =>
    (await db.select({ sealed: serverKeys.sealed }).from(serverKeys).where(eq(serverKeys.name, KEY_NAME)))[0];
  let row = await read();
  if (!row) {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await db
      .insert(serverKeys)
      .values({ name: KEY_NAME, sealed: secrets.seal(pem) })
      .onConflictDoNothing();
    row = await read();
  }
  if (!row) throw new Error('the evidence signing key was not stored');
  return createPrivateKey(secrets.open(row.sealed));
}

export function createEvidenceSigner(options: {
  db: DbOrTx;
  secrets: SecretBox;
  /** EVIDENCE_SIGNING_KEY (config.evidence.signingKeyPem). */
  configuredPem: string | undefined;
}): EvidenceSigner {
  let loading: Promise<KeyObject> | undefined;
  const key = () => {
    loading ??= (
      options.configuredPem
        ? Promise.resolve(createPrivateKey(options.configuredPem))
        : storedKey(options.db, options.secrets)
    ).catch((error) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    async sign(bytes) {
      return sign(null, bytes, await key()).toString('base64');
    },
    async publicKey() {
      const publicKey = createPublicKey(await key());
      const der = publicKey.export({ format: 'der', type: 'spki' });
      return {
        algorithm: 'Ed25519',
        public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        fingerprint_sha256: createHash('sha256').update(der).digest('hex'),
      };
    },
  };
}
