/**
 * `npm run bench:evidence`: the time to build and send the evidence package of a call with a 40 MB
 * recording. Seeds the demo data into an in-memory PGlite with files in a temporary DATA_DIR, stores a
 * BENCH_EVIDENCE_MB (40) recording for a finished call of Acme's profile 3, starts the server on a free port
 * and downloads GET /api/v2/videocall/{id}/evidence BENCH_EVIDENCE_RUNS (5) times over HTTP, reading the
 * body as it streams. Prints, per run and as p50/p95: the time to the first byte, the total time, the
 * throughput, and how much this process's resident memory grew during the run (well under the recording's
 * size when the package streams). The first run includes the signing key's generation. Nothing is asserted.
 *
 * Encryption at rest before and after, in one run: every run stores one recording encrypted (as the server
 * stores an upload: a data key per file, wrapped, kept in the database) and one plain (through the storage
 * under the encryption, as files written before it was on, which the server still serves), timing the store
 * (the storage part of a recording upload: the upload figure of `bench:calls`) and then the package of each.
 * Prints both sides' p50/p95 and the machine's load average.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { users, videoCalls } from '../server/db/schema';
import type { EncryptedStorage } from '../server/storage/encryptedStorage';
import { percentile } from './support';

const MEGABYTES = Number(process.env.BENCH_EVIDENCE_MB ?? 40);
const RUNS = Number(process.env.BENCH_EVIDENCE_RUNS ?? 5);
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
/** Encryption at rest on and off, measured in the same process, one after the other in every run. */
const SIDES = ['encrypted', 'plain'] as const;
type Side = (typeof SIDES)[number];

/** `bytes` of webm-looking data, made in 1 MB chunks (never held whole). */
function recording(bytes: number): Readable {
  return Readable.from(
    (function* () {
      let left = bytes;
      let first = true;
      while (left > 0) {
        const size = Math.min(left, 1024 * 1024);
        const chunk = randomBytes(size);
        if (first) WEBM_MAGIC.copy(chunk);
        first = false;
        left -= size;
        yield chunk;
      }
    })(),
  );
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-evidence-'));
  const config = {
    ...loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: '0',
      // Both sides download in the same minute: the per-user limit is not what is measured.
      EVIDENCE_PACKAGES_PER_USER_PER_MINUTE: '1000',
      EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE: '1000',
    }),
    pgliteDir: 'memory' as const,
    studioDist: join(dataDir, 'no-studio'),
    mailConsole: false,
  };
  const app = await buildApp(config);
  try {
    const db = app.ctx.db;
    const storage = app.ctx.storage;
    const plain = (storage as Partial<EncryptedStorage>).inner;
    if (!plain) throw new Error('the server storage is not encrypted: nothing to compare');
    const [agent] = await db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${address}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // An Admin: the demo agent may not download evidence packages.
      body: JSON.stringify({ username: 'admin@acme.test', password: 'Admin@2026' }),
    });
    const { access } = (await login.json()) as { access: string };
    const loadBefore = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `evidence package of a ${MEGABYTES} MB recording, ${RUNS} runs per side, encrypted at rest and plain, alternating`,
    );
    console.log(
      'run  side       store ms  store MB/s  first byte ms  total ms  MB/s    package bytes  RSS growth MB',
    );
    const figures = new Map<Side, { store: number[]; firstByte: number[]; total: number[] }>(
      SIDES.map((side) => [side, { store: [], firstByte: [], total: [] }]),
    );
    for (let run = 1; run <= RUNS; run++) {
      for (const side of SIDES) {
        // What an upload of the recording costs in storage: encrypted as the server stores it, or plain (as the
        // files written before encryption, which the server still reads).
        const put = side === 'encrypted' ? storage.put.bind(storage) : plain.put.bind(plain);
        const storeStart = performance.now();
        const stored = await put(`recordings/1/bench-${randomUUID()}.webm`, recording(MEGABYTES * 1024 ** 2));
        const storeMs = performance.now() - storeStart;
        const [call] = await db
          .insert(videoCalls)
          .values({
            companyId: 1,
            profileId: 3,
            agentId: agent?.id ?? null,
            roomId: randomUUID(),
            status: 3,
            callStartTime: new Date(Date.now() - 300_000),
            callEndTime: new Date(),
            recordingKey: stored.key,
            recordingSize: stored.size,
            recordingSha256: stored.sha256,
          })
          .returning({ id: videoCalls.id });
        const rssBefore = process.memoryUsage().rss;
        let rssPeak = rssBefore;
        const sampler = setInterval(() => {
          rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        }, 20);
        const start = performance.now();
        const response = await fetch(`${address}/api/v2/videocall/${call?.id}/evidence`, {
          headers: { authorization: `Bearer ${access}` },
        });
        if (response.status !== 200 || !response.body)
          throw new Error(`evidence answered ${response.status}`);
        let firstByte = 0;
        let bytes = 0;
        for await (const chunk of response.body) {
          if (bytes === 0) firstByte = performance.now() - start;
          bytes += (chunk as Uint8Array).length;
        }
        const total = performance.now() - start;
        clearInterval(sampler);
        await storage.remove(stored.key);
        const measured = figures.get(side);
        measured?.store.push(storeMs);
        measured?.firstByte.push(firstByte);
        measured?.total.push(total);
        const growth = (rssPeak - rssBefore) / 1024 ** 2;
        console.log(
          `${String(run).padStart(3)}  ${side.padEnd(9)}  ${storeMs.toFixed(0).padStart(8)}  ${(MEGABYTES / (storeMs / 1000)).toFixed(1).padStart(10)}  ` +
            `${firstByte.toFixed(0).padStart(13)}  ${total.toFixed(0).padStart(8)}  ` +
            `${(bytes / 1024 ** 2 / (total / 1000)).toFixed(1).padStart(5)}  ${String(bytes).padStart(15)}  ${growth.toFixed(1).padStart(13)}`,
        );
      }
    }
    const loadAfter = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const p = (values: number[], at: number) => percentile(sorted(values), at).toFixed(0);
    for (const [side, f] of figures)
      console.log(
        `${side}: store p50 ${p(f.store, 50)} ms (${(MEGABYTES / (Number(p(f.store, 50)) / 1000)).toFixed(1)} MB/s); ` +
          `first byte p50 ${p(f.firstByte, 50)} ms, p95 ${p(f.firstByte, 95)} ms; ` +
          `whole package p50 ${p(f.total, 50)} ms, p95 ${p(f.total, 95)} ms`,
      );
    console.log(
      `Machine: ${availableParallelism()} cores, load average before ${loadBefore}, after ${loadAfter}. ` +
        "The first run includes the signing key's generation.",
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
