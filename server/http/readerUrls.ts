/**
 * Signed file addresses that name their reader. The studio shows document pages and plays recordings straight from
 * /storage, where no token comes with the request; so an address made during a staff user's request carries that
 * user's id and an HMAC binding it to the address's own signature. /storage then knows who read the file, and an
 * address handed on still names the one it was made for.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { currentRequest } from '../domain/audit';
import type { Storage } from '../storage/storage';

const mac = (secret: string, key: string, signature: string, reader: number) =>
  createHmac('sha256', `reader:${secret}`).update(`${key}\n${signature}\n${reader}`).digest('base64url');

/** `storage` whose signed addresses, made inside a staff user's request, add `reader` and `rsig`. */
export function readerBoundStorage(storage: Storage, secret: string): Storage {
  return {
    ...storage,
    signedUrl(key) {
      const url = storage.signedUrl(key);
      const reader = currentRequest()?.actorId;
      const signature = /[?&]signature=([^&]+)/.exec(url)?.[1];
      if (!reader || !signature) return url;
      return `${url}&reader=${reader}&rsig=${mac(secret, key, decodeURIComponent(signature), reader)}`;
    },
  };
}

/** The reader an address names, when its `rsig` checks out against the address's signature; else null. */
export function readerOf(
  secret: string,
  key: string,
  query: { signature: string; reader?: number; rsig?: string },
): number | null {
  if (query.reader === undefined || !query.rsig) return null;
  const expected = Buffer.from(mac(secret, key, query.signature, query.reader));
  const given = Buffer.from(query.rsig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? query.reader : null;
}
