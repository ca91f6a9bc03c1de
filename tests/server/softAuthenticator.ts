/**
 * A software WebAuthn authenticator for API tests: makes real attestations ("none"
 * format) and assertions, signed with a key held here, as a platform authenticator would: ES256 (P-256) by
 * default, or ML-DSA-44 (COSE -48, what Chromium's authenticator picks first from the server's list).
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter);
  return out;
}

export interface Ceremony {
  /** The origin the browser would put in clientDataJSON. */
  origin: string;
  /** User verification done (PIN, biometrics); the server requires it. */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  /** The user handle given at registration (what a discoverable credential returns). */
  private userHandle = '';

  constructor(readonly algorithm: 'ES256' | 'ML-DSA-44' = 'ES256') {
    const pair =
      algorithm === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ml-dsa-44');
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    if (this.algorithm === 'ML-DSA-44') {
      // An AKP key (kty 7) of ML-DSA-44 (alg -48) with its public key bytes (-1).
      return isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 7],
          [3, -48],
          [-1, Buffer.from(jwk.pub as string, 'base64url')],
        ]),
      );
    }
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
    return isoCBOR.encode(key);
  }

  /** Answers `navigator.credentials.create()` options (JSON) with a "none" attestation. */
  register(options: { challenge: string; rp: { id: string }; user: { id: string } }, ceremony: Ceremony) {
    this.userHandle = options.user.id;
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: ceremony.origin,
      crossOrigin: false,
    });
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const flags = FLAG_UP | FLAG_AT | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = Buffer.concat([
      sha256(options.rp.id),
      Buffer.from([flags]),
      counterBytes(this.counter),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      this.coseKey(),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get()` options (JSON); the counter goes up by one first. */
  assert(options: { challenge: string; rpId: string }, ceremony: Ceremony & { counter?: number }) {
    this.counter = ceremony.counter ?? this.counter + 1;
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.get',
      challenge: options.challenge,
      origin: ceremony.origin,
      crossOrigin: false,
    });
    const flags = FLAG_UP | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = Buffer.concat([sha256(options.rpId), Buffer.from([flags]), counterBytes(this.counter)]);
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = sign(this.algorithm === 'ES256' ? 'sha256' : null, signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
