/**
 * `npm run bench:encryption`: what encryption at rest costs, plain and encrypted side by side in one run, on a
 * storage folder in a temporary directory. Per store and run: the upload of a BENCH_ENCRYPTION_MB (64) file
 * (streamed in 1 MB pieces, hashed as the server hashes it), reading it whole, and BENCH_ENCRYPTION_SEEKS (200)
 * random 64 KB ranges (a player seeking). BENCH_ENCRYPTION_RUNS (3) runs each, alternating, so both see the
 * same disk cache and load; p50 of the runs at the end. The data keys are kept in memory here: in the server a
 * read adds one primary-key lookup of the database. Nothing is asserted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { memoryDataKeys } from '../server/storage/dataKeys';
import { encryptedStorage } from '../server/storage/encryptedStorage';
import { localKeyProvider } from '../server/storage/keyProvider';
import { createLocalStorage, type Storage } from '../server/storage/storage';
import { percentile } from './support';

const MEGABYTES = Number(process.env.BENCH_ENCRYPTION_MB ?? 64);
const RUNS = Number(process.env.BENCH_ENCRYPTION_RUNS ?? 3);
const SEEKS = Number(process.env.BENCH_ENCRYPTION_SEEKS ?? 200);
const SEEK_BYTES = 64 * 1024;
const BYTES = MEGABYTES * 1024 * 1024;
const PIECE = randomBytes(1024 * 1024);

/** `bytes` of data in 1 MB pieces (the same random piece, so making it costs nothing). */
function file(bytes: number): Readable {
  return Readable.from(
    (function* () {
      for (let left = bytes; left > 0; left -= PIECE.length)
        yield PIECE.subarray(0, Math.min(left, PIECE.length));
    })(),
  );
}

async function drain(stream: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes;
}

interface Figures {
  uploadMBs: number;
  readMBs: number;
  seekMs: number;
}

async function measure(storage: Storage, key: string): Promise<Figures> {
  const mb = BYTES / 1024 / 1024;
  let started = performance.now();
  await storage.put(key, file(BYTES));
  const uploadMBs = mb / ((performance.now() - started) / 1000);
  started = performance.now();
  if ((await drain(storage.open(key))) !== BYTES) throw new Error('short read');
  const readMBs = mb / ((performance.now() - started) / 1000);
  started = performance.now();
  for (let seek = 0; seek < SEEKS; seek += 1) {
    const start = Math.floor(Math.random() * (BYTES - SEEK_BYTES));
    await storage.size(key);
    await drain(storage.open(key, { start, end: start + SEEK_BYTES - 1 }));
  }
  const seekMs = (performance.now() - started) / SEEKS;
  await storage.remove(key);
  return { uploadMBs, readMBs, seekMs };
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'idv-bench-encryption-'));
  try {
    const folder = createLocalStorage(root, 'bench-signing-secret');
    const stores: [string, Storage][] = [
      ['plain', folder],
      ['encrypted', encryptedStorage(folder, localKeyProvider([randomBytes(32)]), memoryDataKeys())],
    ];
    console.log(`encryption at rest: a ${MEGABYTES} MB file, ${SEEKS} seeks of 64 KB, ${RUNS} runs`);
    console.log('run  store       upload MB/s  read MB/s  seek ms');
    const results = new Map<string, Figures[]>(stores.map(([name]) => [name, []]));
    for (let run = 1; run <= RUNS; run += 1) {
      for (const [name, storage] of stores) {
        const figures = await measure(storage, `bench/${name}-${run}.bin`);
        results.get(name)?.push(figures);
        console.log(
          `${String(run).padEnd(4)} ${name.padEnd(11)} ${figures.uploadMBs.toFixed(0).padStart(11)}  ${figures.readMBs.toFixed(0).padStart(9)}  ${figures.seekMs.toFixed(2).padStart(7)}`,
        );
      }
    }
    console.log('p50  store       upload MB/s  read MB/s  seek ms');
    for (const [name, figures] of results) {
      const p50 = (pick: (f: Figures) => number) =>
        percentile(
          figures.map(pick).sort((a, b) => a - b),
          50,
        );
      console.log(
        `     ${name.padEnd(11)} ${p50((f) => f.uploadMBs)
          .toFixed(0)
          .padStart(11)}  ${p50((f) => f.readMBs)
          .toFixed(0)
          .padStart(9)}  ${p50((f) => f.seekMs)
          .toFixed(2)
          .padStart(7)}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
