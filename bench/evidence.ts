/**
 * `npm run bench:evidence`: the time to build and send the evidence package of a call with a 40 MB
 * recording. Seeds the demo data into an in-memory PGlite with files in a temporary DATA_DIR, stores a
 * BENCH_EVIDENCE_MB (40) recording for a finished call of Acme's profile 3, starts the server on a free port
 * and downloads GET /api/v2/videocall/{id}/evidence BENCH_EVIDENCE_RUNS (5) times over HTTP, reading the
 * body as it streams. Prints, per run and as p50/p95: the time to the first byte, the total time, the
 * throughput, and how much this process's resident memory grew during the run (well under the recording's
 * size when the package streams). The first run includes the signing key's generation. Nothing is asserted.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { users, videoCalls } from '../server/db/schema';
import { percentile } from './support';

const MEGABYTES = Number(process.env.BENCH_EVIDENCE_MB ?? 40);
const RUNS = Number(process.env.BENCH_EVIDENCE_RUNS ?? 5);
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

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
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0' }),
    pgliteDir: 'memory' as const,
    studioDist: join(dataDir, 'no-studio'),
    mailConsole: false,
  };
  const app = await buildApp(config);
  try {
    const db = app.ctx.db;
    const [agent] = await db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    const stored = await app.ctx.storage.put(
      `recordings/1/bench-${randomUUID()}.webm`,
      recording(MEGABYTES * 1024 ** 2),
    );
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
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${address}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'agent@acme.test', password: 'User@2026' }),
    });
    const { access } = (await login.json()) as { access: string };
    console.log(`evidence package of a ${MEGABYTES} MB recording (${stored.size} bytes), ${RUNS} runs`);
    console.log('run  first byte ms  total ms  MB/s    package bytes  RSS growth MB');
    const firstBytes: number[] = [];
    const totals: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 20);
      const start = performance.now();
      const response = await fetch(`${address}/api/v2/videocall/${call?.id}/evidence`, {
        headers: { authorization: `Bearer ${access}` },
      });
      if (response.status !== 200 || !response.body) throw new Error(`evidence answered ${response.status}`);
      let firstByte = 0;
      let bytes = 0;
      for await (const chunk of response.body) {
        if (bytes === 0) firstByte = performance.now() - start;
        bytes += (chunk as Uint8Array).length;
      }
      const total = performance.now() - start;
      clearInterval(sampler);
      firstBytes.push(firstByte);
      totals.push(total);
      const growth = (rssPeak - rssBefore) / 1024 ** 2;
      console.log(
        `${String(run).padStart(3)}  ${firstByte.toFixed(0).padStart(12)}  ${total.toFixed(0).padStart(8)}  ` +
          `${(bytes / 1024 ** 2 / (total / 1000)).toFixed(1).padStart(5)}  ${String(bytes).padStart(15)}  ${growth.toFixed(1).padStart(13)}`,
      );
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    console.log(
      `first byte p50 ${percentile(sorted(firstBytes), 50).toFixed(0)} ms, p95 ${percentile(sorted(firstBytes), 95).toFixed(0)} ms; ` +
        `whole package p50 ${percentile(sorted(totals), 50).toFixed(0)} ms, p95 ${percentile(sorted(totals), 95).toFixed(0)} ms`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
