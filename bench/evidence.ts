/**
 * `npm run bench:evidence`: the time to upload a call's recording and to build and send its evidence package,
 * with encryption at rest and without, in one run. Seeds the demo data into an in-memory PGlite with files in a
 * temporary DATA_DIR and starts the server on a free port. Every run, for each side in turn:
 *
 * - upload: the agent's PATCH /api/v2/videocall/{id} of a BENCH_EVIDENCE_MB (40) webm over HTTP, as the studio
 *   sends it after a call (multipart; the server streams it to storage, indexes it and writes the seekable
 *   copy). The recording is a real one: the test fixture's clusters repeated with their timestamps moved on,
 *   so the server reads and rewrites a long recording as it would one from MediaRecorder.
 * - package: GET /api/v2/videocall/{id}/evidence as an Admin, reading the body as it streams: the time to the
 *   first byte, the total time, the throughput, and how much this process's resident memory grew (well under
 *   the recording's size when the package streams).
 *
 * "encrypted" is the server as deployed (a data key per file, wrapped, kept in the database); "plain" is the
 * same server with the storage under the encryption put in its place for the upload, as files were written
 * before encryption (the server still serves them, so the package is read the same way). BENCH_EVIDENCE_RUNS (5)
 * runs, alternating the sides; prints each run, both sides' p50/p95 and the machine's load average. The first
 * run includes the signing key's generation. Nothing is asserted.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { users, videoCalls } from '../server/db/schema';
import type { EncryptedStorage } from '../server/storage/encryptedStorage';
import { longRecording } from '../tests/support/recordings';
import { percentile } from './support';

const MEGABYTES = Number(process.env.BENCH_EVIDENCE_MB ?? 40);
const RUNS = Number(process.env.BENCH_EVIDENCE_RUNS ?? 5);
/** Encryption at rest on and off, measured in the same process, one after the other in every run. */
const SIDES = ['encrypted', 'plain'] as const;
type Side = (typeof SIDES)[number];
/** An access token of `username` (the demo password of its role). */
async function signIn(address: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${address}/api/v1/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`${username} could not sign in: ${response.status}`);
  return ((await response.json()) as { access: string }).access;
}

/** Reads a response's body as it streams: when its first byte came, and how many came. */
async function drained(response: Response, start: number): Promise<{ firstByte: number; bytes: number }> {
  let firstByte = 0;
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    if (bytes === 0) firstByte = performance.now() - start;
    bytes += (chunk as Uint8Array).length;
  }
  return { firstByte, bytes };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-evidence-'));
  const config = {
    ...loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: '0',
      // Both sides upload and download in the same minute: the per-user limits are not what is measured.
      EVIDENCE_PACKAGES_PER_USER_PER_MINUTE: '1000',
      EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE: '1000',
      UPLOADS_PER_MINUTE: '1000',
    }),
    pgliteDir: 'memory' as const,
    studioDist: join(dataDir, 'no-studio'),
    mailConsole: false,
  };
  const app = await buildApp(config);
  try {
    const db = app.ctx.db;
    const encrypted = app.ctx.storage;
    const plain = (encrypted as Partial<EncryptedStorage>).inner;
    if (!plain) throw new Error('the server storage is not encrypted: nothing to compare');
    const [agent] = await db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    if (!agent) throw new Error('the demo agent is missing');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agentToken = await signIn(address, 'agent@acme.test', 'User@2026');
    // An Admin: the demo agent may not download evidence packages.
    const adminToken = await signIn(address, 'admin@acme.test', 'Admin@2026');
    // Buffer.concat's memory is an ArrayBuffer of its own, never shared.
    const webm = longRecording(MEGABYTES * 1024 ** 2) as Uint8Array<ArrayBuffer>;
    const recording = new Blob([webm], { type: 'video/webm' });
    const megabytes = recording.size / 1024 ** 2;
    const loadBefore = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `a ${megabytes.toFixed(1)} MB recording uploaded, then its evidence package downloaded; ${RUNS} runs per ` +
        'side, encrypted at rest and plain, alternating',
    );
    console.log(
      'run  side       upload ms  upload MB/s  first byte ms  total ms  MB/s    package bytes  RSS growth MB',
    );
    const figures = new Map<Side, { upload: number[]; firstByte: number[]; total: number[] }>(
      SIDES.map((side) => [side, { upload: [], firstByte: [], total: [] }]),
    );
    for (let run = 1; run <= RUNS; run++) {
      for (const side of SIDES) {
        const [call] = await db
          .insert(videoCalls)
          .values({
            companyId: 1,
            profileId: 3,
            agentId: agent.id,
            roomId: randomUUID(),
            status: 3,
            callStartTime: new Date(Date.now() - 300_000),
            callEndTime: new Date(),
          })
          .returning({ id: videoCalls.id });
        if (!call) throw new Error('no call inserted');

        // The upload as the studio sends it; only the storage under the route differs between the sides.
        app.ctx.storage = side === 'encrypted' ? encrypted : plain;
        const form = new FormData();
        form.append('file', recording, 'call.webm');
        const uploadStart = performance.now();
        const uploaded = await fetch(`${address}/api/v2/videocall/${call.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${agentToken}` },
          body: form,
        });
        await uploaded.arrayBuffer();
        const uploadMs = performance.now() - uploadStart;
        app.ctx.storage = encrypted;
        if (uploaded.status !== 200) throw new Error(`the upload answered ${uploaded.status}`);
        const [stored] = await db.select().from(videoCalls).where(eq(videoCalls.id, call.id));
        if (!stored?.recordingKey) throw new Error('the upload stored no recording');

        const rssBefore = process.memoryUsage().rss;
        let rssPeak = rssBefore;
        const sampler = setInterval(() => {
          rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        }, 20);
        const start = performance.now();
        const response = await fetch(`${address}/api/v2/videocall/${call.id}/evidence`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        if (response.status !== 200) throw new Error(`evidence answered ${response.status}`);
        const { firstByte, bytes } = await drained(response, start);
        const total = performance.now() - start;
        clearInterval(sampler);
        await encrypted.remove(stored.recordingKey);
        const measured = figures.get(side);
        measured?.upload.push(uploadMs);
        measured?.firstByte.push(firstByte);
        measured?.total.push(total);
        const growth = (rssPeak - rssBefore) / 1024 ** 2;
        console.log(
          `${String(run).padStart(3)}  ${side.padEnd(9)}  ${uploadMs.toFixed(0).padStart(9)}  ${(megabytes / (uploadMs / 1000)).toFixed(1).padStart(11)}  ` +
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
        `${side}: upload p50 ${p(f.upload, 50)} ms, p95 ${p(f.upload, 95)} ms ` +
          `(${(megabytes / (Number(p(f.upload, 50)) / 1000)).toFixed(1)} MB/s); ` +
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

if (import.meta.url === `file://${process.argv[1]}`) await main();
