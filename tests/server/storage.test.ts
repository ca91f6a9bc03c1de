import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/auth/secrets';
import { createLocalStorage, FileTooLargeError, newKey } from '../../server/storage/storage';

const root = mkdtempSync(join(tmpdir(), 'idv-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = createLocalStorage(root, 'secret-for-signing', 'http://files.test');

/** A stream of `chunks` chunks of 64 KiB, produced lazily. */
function chunked(chunks: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      this.push(sent++ < chunks ? Buffer.alloc(65_536, 97) : null);
    },
  });
}

describe('local storage', () => {
  it('streams a file to disk and back', async () => {
    const key = newKey('documents', 'bin');
    expect(await storage.put(key, chunked(16))).toEqual({
      key,
      size: 16 * 65_536,
      sha256: createHash('sha256')
        .update(Buffer.alloc(16 * 65_536, 97))
        .digest('hex'),
    });
    expect(await storage.size(key)).toBe(16 * 65_536);
    expect((await text(storage.open(key))).length).toBe(16 * 65_536);
    await storage.remove(key);
    expect(await storage.size(key)).toBeNull();
  });

  it('stops a file over the limit and keeps nothing', async () => {
    const key = newKey('recordings', 'webm');
    await expect(storage.put(key, chunked(10), { maxBytes: 100_000 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(await storage.size(key)).toBeNull();
  });

  it('reads a byte range, lists a folder and removes what interrupted uploads left', async () => {
    const key = newKey('documents', 'bin');
    await storage.put(key, Readable.from([Buffer.from('0123456789')]));
    expect(await text(storage.open(key, { start: 2, end: 5 }))).toBe('2345');
    const partial = join(root, 'documents', 'cut.bin.1234.part');
    writeFileSync(partial, 'half');
    const listed: string[] = [];
    for await (const file of storage.list('documents/')) listed.push(file.key);
    expect(listed).toContain(key);
    expect(listed.some((listedKey) => listedKey.endsWith('.part'))).toBe(false);
    // Only what is older than the given time goes.
    expect(await storage.removePartial(new Date(Date.now() - 60_000))).toBe(0);
    expect(existsSync(partial)).toBe(true);
    expect(await storage.removePartial(new Date(Date.now() + 1000))).toBe(1);
    expect(existsSync(partial)).toBe(false);
    expect(await storage.size(key)).toBe(10);
  });

  it('refuses keys that leave the root', async () => {
    await expect(storage.put('../escape.txt', Readable.from(['x']))).rejects.toThrow('Invalid storage key');
    expect(() => storage.open('documents/../../etc/passwd')).toThrow('Invalid storage key');
  });

  it('signs addresses and checks their signature and expiry', () => {
    const url = new URL(storage.signedUrl('samples/id-0.png'));
    expect(url.origin).toBe('http://files.test');
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    expect(storage.verifySignature('samples/id-0.png', expires, signature)).toBe(true);
    expect(storage.verifySignature('samples/id-1.png', expires, signature)).toBe(false);
    expect(storage.verifySignature('samples/id-0.png', expires + 1, signature)).toBe(false);
    expect(storage.verifySignature('samples/id-0.png', expires, signature, (expires + 1) * 1000)).toBe(false);
  });
});

describe('secret box', () => {
  it('encrypts at rest and detects tampering', () => {
    const box = createSecretBox('server-secret');
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => createSecretBox('other-secret').open(sealed)).toThrow();
  });
});
