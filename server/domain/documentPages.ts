/** Page files of an upload: recognised by their first bytes and streamed to storage, never held whole. */
import { Readable } from 'node:stream';
import { MAX_PAGE_BYTES, type PageContentType, sniffContentType } from '#contract/documentRules';
import { newKey, type Storage } from '../storage/storage';
import type { StoredPage } from './documentWrites';

const EXTENSIONS: Record<PageContentType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** Thrown for a page whose first bytes are not a JPEG, PNG, WebP or PDF. */
export class PageTypeError extends Error {
  constructor() {
    super('page type not accepted');
  }
}

/** Width and height of a PNG (IHDR) or a JPEG (first SOF marker within `head`), else null. */
export function imageSize(
  type: PageContentType,
  head: Buffer,
): { width: number | null; height: number | null } {
  if (type === 'image/png' && head.length >= 24)
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  if (type === 'image/jpeg') {
    let at = 2;
    while (at + 9 < head.length && head[at] === 0xff) {
      const marker = head[at + 1] as number;
      const length = head.readUInt16BE(at + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
      if (isFrame) return { width: head.readUInt16BE(at + 7), height: head.readUInt16BE(at + 5) };
      at += 2 + length;
    }
  }
  return { width: null, height: null };
}

/**
 * Streams one page to storage under `documents/`: reads only the first chunk(s) to recognise the kind,
 * then passes the rest through, hashing it (SHA-256). Rejects with PageTypeError (nothing stored) or the
 * storage's FileTooLargeError past `maxBytes` (the partial file is removed by the storage).
 */
export async function storePage(
  storage: Storage,
  source: Readable,
  maxBytes = MAX_PAGE_BYTES,
): Promise<StoredPage> {
  const iterator: AsyncIterator<Buffer> = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < 64) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  const contentType = sniffContentType(head);
  if (!contentType) {
    source.resume();
    throw new PageTypeError();
  }
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  );
  const key = newKey('documents', EXTENSIONS[contentType]);
  const { size, sha256 } = await storage.put(key, rest, { maxBytes });
  return { key, size, sha256, contentType, ...imageSize(contentType, head) };
}
