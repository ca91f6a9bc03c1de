/**
 * A rolling restart under live calls, driven against a distributed deployment (scripts/cluster.ts): the
 * distributed test asserts on what it returns, `npm run bench:scale` prints it.
 *
 * Before the restarts: calls talking (each agent pinned to one process, its customer to another, both
 * exchanging signalling messages in the call's room as the browsers' WebRTC negotiation does), customers
 * waiting in the queue, an endpoint receiving webhooks. Then each process in turn is restarted the way an
 * orchestrator does it (SIGTERM, exit, start, /readyz, nginx sending to it again) while API requests keep coming through nginx and a
 * recording upload runs across the first restart. What a user saw is measured honestly without browsers: the
 * longest gap between signalling messages of a talking call (the video itself flows peer to peer and never
 * through the server), sockets' reconnect times, failed requests.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { api, type ClientSocket, connected, customerCall, login, socketOf } from './calls';

const PIN_COOKIE = 'idv_backend';
const pinTo = (name: string) => ({ cookie: `${PIN_COOKIE}=${name}` });
/** A small real webm (the server checks its first bytes and makes it seekable). */
const RECORDING = readFileSync(
  join(import.meta.dirname, '..', 'tests', 'server', 'fixtures', 'recording.webm'),
);
const SIGNAL_EVERY_MS = 100;
/** Where the restarts are (for the reasons of refused reconnections). */
let phase = 'before';

export interface RollingAgent {
  email: string;
  password: string;
}

export interface RollingOptions {
  /** nginx's address. */
  base: string;
  admin: { email: string; password: string };
  /** One agent per talking call, plus one for the recording's call (at least three). */
  agents: RollingAgent[];
  /** The pin names of the processes (a, b, …), restarted in this order. */
  processes: string[];
  /** Restarts process `name`: SIGTERM, its exit, a new start, /readyz. `stopping` resolves once SIGTERM is sent. */
  restart(name: string, stopping: () => void): Promise<void>;
  /** Profiles the calls use (one per call: talking calls, the recording's call, then the waiting ones). */
  profiles: number[];
  talking: number;
  waiting: number;
  log?: (line: string) => void;
}

export interface Spread {
  count: number;
  median: number;
  max: number;
}

export interface RollingFigures {
  talkingCalls: number[];
  waitingCalls: number[];
  /** call.ended / call.closed / call.cancelled heard by a party of a talking or waiting call (must be empty). */
  endsHeard: string[];
  /** Talking and waiting calls' state after the restarts (GET /videocall/{id}). */
  callsAfter: { id: number; status: number; call_end_time: string | null; end_reason: string | null }[];
  /** The queue (queue.sync) and each waiting customer's last queue.position, before and after. */
  queueBefore: number[];
  queueAfter: number[];
  positionsBefore: number[];
  positionsAfter: number[];
  requests: { total: number; failed: number; failures: string[] };
  /** The longest gap between two signalling messages one party of a talking call received (ms). */
  longestSignalGapMs: number;
  /** Whether both parties of every talking call heard signals again after the restarts. */
  signalsBack: boolean;
  /** Sockets' disconnect → connected again (ms), every socket that was dropped. */
  reconnect: Spread;
  /** Sockets that were dropped and never came back (must be 0). */
  notReconnected: number;
  /** Why reconnections were refused on the way (connect errors, a server's disconnect). */
  reconnectErrors: string[];
  upload: {
    status: number;
    sha256: string | null;
    storedSha256: string | null;
    downloadedSha256: string | null;
  };
  webhooks: { created: number; delivered: number; duplicates: number; missing: number };
}

const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
    max: Math.round(sorted.at(-1) ?? 0),
  };
};
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** A socket that reconnects on its own, with its drops and returns timed; `rejoin` runs on every return. */
function tracked(
  label: string,
  socket: ClientSocket,
  times: { dropped: Map<ClientSocket, number>; back: number[]; refused: string[] },
  rejoin?: () => void,
): ClientSocket {
  socket.on('disconnect', (reason) => {
    times.dropped.set(socket, Date.now());
    if (reason === 'io server disconnect')
      times.refused.push(`${label}: the server ended the socket ${phase}`);
  });
  socket.on('connect_error', (error) => times.refused.push(`${label}: ${error.message} ${phase}`));
  socket.on('connect', () => {
    const at = times.dropped.get(socket);
    if (at === undefined) return;
    times.dropped.delete(socket);
    times.back.push(Date.now() - at);
    rejoin?.();
  });
  return socket;
}

/** A webhook receiver on loopback counting deliveries per message id (`webhook-id`). */
async function webhookReceiver(): Promise<{
  url: string;
  counts: Map<string, number>;
  profiles: Set<number>;
  close(): Promise<void>;
}> {
  const counts = new Map<string, number>();
  const profiles = new Set<number>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      counts.set(id, (counts.get(id) ?? 0) + 1);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { profile_id?: number } };
        if (body.data?.profile_id) profiles.add(body.data.profile_id);
      } catch {
        // counted all the same
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    counts,
    profiles,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A recording upload through nginx, pinned to `pin`, whose body is sent in two halves: the first now, the rest
 * (slowly) once `rest` is called. Resolves with the status when the server has answered.
 */
function slowUpload(base: string, token: string, callId: number, pin: string) {
  const boundary = 'rolling-upload-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.webm"\r\n` +
        'Content-Type: video/webm\r\n\r\n',
    ),
    RECORDING,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL(`/api/v2/videocall/${callId}`, base);
  let answer: (status: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    answer = resolve;
  });
  const req = httpRequest(
    url,
    {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
        ...pinTo(pin),
      },
    },
    (res) => {
      res.resume();
      res.on('end', () => answer(res.statusCode ?? 0));
    },
  );
  req.on('error', () => answer(0));
  const half = Math.floor(body.length / 2);
  const started = new Promise<void>((resolve) => req.write(body.subarray(0, half), () => resolve()));
  return {
    started,
    done,
    async rest() {
      const parts = 8;
      const size = Math.ceil((body.length - half) / parts);
      for (let at = half; at < body.length; at += size) {
        await new Promise((r) => setTimeout(r, 100));
        req.write(body.subarray(at, Math.min(body.length, at + size)));
      }
      req.end();
    },
  };
}

export async function rollingRestart(options: RollingOptions): Promise<RollingFigures> {
  const { base } = options;
  const log = options.log ?? (() => undefined);
  const sockets: ClientSocket[] = [];
  const times = { dropped: new Map<ClientSocket, number>(), back: [] as number[], refused: [] as string[] };
  const endsHeard: string[] = [];
  const receiver = await webhookReceiver();
  const adminToken = await login(base, options.admin.email, options.admin.password);
  let endpointId: number | undefined;
  let load: Promise<void> | undefined;
  let loadRunning = true;
  const signalTimers: NodeJS.Timeout[] = [];
  try {
    const [a, b] = options.processes as [string, string];
    const other = (pin: string) => options.processes.find((p) => p !== pin) ?? pin;
    const profiles = [...options.profiles];
    const nextProfile = () => {
      const id = profiles.shift();
      if (id === undefined) throw new Error('not enough profiles');
      return id;
    };

    // Agents: signed in, Online, a staff socket each (pinned alternately), reconnecting on their own.
    const agents: { token: string; socket: ClientSocket; pin: string }[] = [];
    for (const [i, agent] of options.agents.entries()) {
      const pin = i % 2 ? b : a;
      const token = await login(base, agent.email, agent.password);
      await api(base, token, 'POST', '/api/v2/videocall/agent_status', { status: 'Online' });
      const { token: socketToken } = await api<{ token: string }>(
        base,
        token,
        'POST',
        '/api/v2/user/socket_token',
        { studio: true },
      );
      const socket = tracked(
        `agent ${i + 1}`,
        socketOf(base, { token: socketToken }, undefined, { headers: pinTo(pin), reconnect: true }),
        times,
      );
      sockets.push(socket);
      await connected(socket);
      agents.push({ token, socket, pin });
    }

    // Talking calls: agent on one process, customer on the other; both signal in the call's room every 100 ms.
    const talkingCalls: number[] = [];
    const lastHeard = new Map<string, number>();
    let longestSignalGapMs = 0;
    const hear = (key: string) => {
      const now = Date.now();
      const last = lastHeard.get(key);
      if (last !== undefined) longestSignalGapMs = Math.max(longestSignalGapMs, now - last);
      lastHeard.set(key, now);
    };
    for (let i = 0; i < options.talking; i++) {
      const agent = agents[i];
      if (!agent) throw new Error('an agent per talking call is needed');
      const call = await customerCall(base, adminToken, nextProfile());
      let room = '';
      const join = (socket: ClientSocket) => {
        if (room) socket.timeout(10_000).emit('signal.join', { room }, () => undefined);
      };
      const customer = tracked(
        `customer of ${call.callId}`,
        socketOf(base, { customer: call.token, call_id: call.callId }, undefined, {
          headers: pinTo(other(agent.pin)),
          reconnect: true,
        }),
        times,
        () => join(customer),
      );
      sockets.push(customer);
      customer.on('call.ended', () => endsHeard.push(`customer of ${call.callId}: call.ended`));
      await connected(customer);
      await until('the call rings', async () => {
        const reply = await agent.socket.timeout(10_000).emitWithAck('call.answer', { call_id: call.callId });
        if (reply.ok) room = reply.call.room_id;
        return reply.ok;
      });
      agent.socket.on('connect', () => join(agent.socket));
      agent.socket.on('call.ended', (e) => endsHeard.push(`agent of ${e.call_id}: call.ended`));
      agent.socket.on('call.closed', (e) => endsHeard.push(`agent of ${e.call_id}: call.closed`));
      for (const [who, socket] of [
        ['agent', agent.socket],
        ['customer', customer],
      ] as const) {
        const ack = await socket.timeout(10_000).emitWithAck('signal.join', { room });
        if (!ack.ok) throw new Error(`${who} could not join the call's room: ${ack.detail}`);
        socket.on('signal.message', () => hear(`${call.callId} ${who}`));
        let seq = 0;
        signalTimers.push(
          setInterval(() => {
            if (socket.connected)
              socket.emit('signal.send', { room, data: { type: 'ping', seq: seq++ } }, () => undefined);
          }, SIGNAL_EVERY_MS),
        );
      }
      talkingCalls.push(call.callId);
    }
    await until('signalling flows both ways', () => lastHeard.size === options.talking * 2);

    // The recording's call: answered, hung up, its status set; its upload runs across the first restart.
    const recorder = agents[options.talking];
    if (!recorder) throw new Error('an agent for the recording is needed');
    const recorded = await customerCall(base, adminToken, nextProfile());
    const recordedCustomer = socketOf(
      base,
      { customer: recorded.token, call_id: recorded.callId },
      undefined,
      {
        headers: pinTo(a),
      },
    );
    sockets.push(recordedCustomer);
    await connected(recordedCustomer);
    await until('the recorded call rings', async () => {
      const reply = await recorder.socket
        .timeout(10_000)
        .emitWithAck('call.answer', { call_id: recorded.callId });
      return reply.ok;
    });
    await recorder.socket.timeout(10_000).emitWithAck('call.hangup', { call_id: recorded.callId });
    await api(base, recorder.token, 'PUT', `/api/v2/videocall/${recorded.callId}`, { status: 3 });
    recordedCustomer.disconnect();

    // Customers waiting, alternately on each process, reconnecting as the customer page does.
    const waitingCalls: number[] = [];
    const positions = new Map<number, number>();
    for (let i = 0; i < options.waiting; i++) {
      const call = await customerCall(base, adminToken, nextProfile());
      const socket = tracked(
        `waiting ${call.callId}`,
        socketOf(
          base,
          { customer: call.token, call_id: call.callId },
          (s) => s.on('queue.position', (e) => positions.set(e.call_id, e.position)),
          { headers: pinTo(i % 2 ? b : a), reconnect: true },
        ),
        times,
      );
      socket.on('call.ended', () => endsHeard.push(`waiting ${call.callId}: call.ended`));
      sockets.push(socket);
      await connected(socket);
      waitingCalls.push(call.callId);
    }
    const watcher = agents[0] as (typeof agents)[number];
    watcher.socket.on('call.cancelled', (e) => {
      if (waitingCalls.includes(e.call_id)) endsHeard.push(`waiting ${e.call_id}: call.cancelled`);
    });
    const queueNow = async () =>
      (
        (await watcher.socket.timeout(10_000).emitWithAck('queue.sync')) as { calls: { call_id: number }[] }
      ).calls
        .map((c) => c.call_id)
        .filter((id) => waitingCalls.includes(id));
    const expectedPositions = waitingCalls.map((_, i) => i + 1).join();
    await until(
      'the queue holds the waiting customers in order',
      async () => {
        const queue = await queueNow();
        const told = waitingCalls.map((id) => positions.get(id)).join();
        return queue.join() === waitingCalls.join() && told === expectedPositions;
      },
      60_000,
    );
    const queueBefore = await queueNow();
    const positionsBefore = waitingCalls.map((id) => positions.get(id) ?? 0);

    // A webhook endpoint for the profiles the load creates.
    endpointId = (
      await api<{ id: number }>(base, adminToken, 'POST', '/api/v2/webhook_endpoint', {
        url: receiver.url,
        description: 'rolling restart',
        enabled_events: ['profile.created'],
      })
    ).id;

    // API load through nginx (round robin), one request after the other, until the restarts are over.
    const requests = { total: 0, failed: 0, failures: [] as string[] };
    const createdProfiles: number[] = [];
    load = (async () => {
      let n = 0;
      while (loadRunning) {
        n++;
        const create = n % 2 === 0;
        const what = create ? 'POST /profile' : 'GET /profile';
        requests.total++;
        try {
          const response = await fetch(`${base}/api/v2/profile${create ? '' : '?limit=5'}`, {
            method: create ? 'POST' : 'GET',
            headers: {
              authorization: `Bearer ${adminToken}`,
              ...(create ? { 'content-type': 'application/json' } : {}),
            },
            body: create ? JSON.stringify({ id_card_number: `ROLL-${Date.now()}-${n}` }) : undefined,
          });
          const text = await response.text();
          if (!response.ok) {
            requests.failed++;
            requests.failures.push(`${what}: ${response.status} ${text.slice(0, 120)}`);
          } else if (create) createdProfiles.push((JSON.parse(text) as { id: number }).id);
        } catch (error) {
          requests.failed++;
          requests.failures.push(`${what}: ${(error as Error).message}`);
        }
      }
    })();

    // The rolling restart: each process in turn; the upload spans the first one.
    const upload = slowUpload(base, recorder.token, recorded.callId, a);
    await upload.started;
    let rest: Promise<void> | undefined;
    for (const [i, name] of options.processes.entries()) {
      const started = Date.now();
      phase = `(${name} stopping)`;
      await options.restart(name, () => {
        phase = `(${name} signalled at ${new Date().toISOString()})`;
        if (i === 0) rest = upload.rest();
      });
      phase = `(${name} ready again)`;
      log(`process ${name} restarted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    await rest;
    const uploadStatus = await upload.done;
    // Every dropped socket is back, and every talking call signals again on both sides.
    await until(
      'every socket reconnected',
      () => times.dropped.size === 0 && sockets.every((s) => s.connected || s === recordedCustomer),
      60_000,
    ).catch((error: Error) => log(`${error.message}; refused: ${times.refused.join('; ')}`));
    const heardAt = Date.now();
    const signalsBack = await until('signalling flows again', () =>
      [...lastHeard.values()].every((t) => t > heardAt),
    ).then(
      () => true,
      () => false,
    );
    loadRunning = false;
    await load;
    for (const timer of signalTimers) clearInterval(timer);

    await until('the queue is told again', async () => {
      const told = waitingCalls.map((id) => positions.get(id)).join();
      return (await queueNow()).join() === waitingCalls.join() && told === expectedPositions;
    });
    const queueAfter = await queueNow();
    const positionsAfter = waitingCalls.map((id) => positions.get(id) ?? 0);

    const callsAfter = await Promise.all(
      [...talkingCalls, ...waitingCalls].map((id) =>
        api<{ status: number; call_end_time: string | null; end_reason: string | null }>(
          base,
          adminToken,
          'GET',
          `/api/v2/videocall/${id}`,
        ).then(({ status, call_end_time, end_reason }) => ({ id, status, call_end_time, end_reason })),
      ),
    );

    // The recording: stored once, its SHA-256 that of the bytes served back.
    const stored = await api<{ recording_sha256: string | null; recorded_file: string | null }>(
      base,
      adminToken,
      'GET',
      `/api/v2/videocall/${recorded.callId}`,
    );
    let downloadedSha256: string | null = null;
    if (stored.recorded_file) {
      const download = await fetch(stored.recorded_file);
      if (download.ok) downloadedSha256 = sha256(Buffer.from(await download.arrayBuffer()));
    }

    // Webhooks: every created profile delivered (at least once); none twice.
    await until(
      'every profile.created delivered',
      () => createdProfiles.every((id) => receiver.profiles.has(id)),
      60_000,
    ).catch(() => undefined);
    const deliveries = [...receiver.counts.values()];
    const figures: RollingFigures = {
      talkingCalls,
      waitingCalls,
      // A copy: the clean-up below hangs the talking calls up, and its own ends are not the restart's.
      endsHeard: [...endsHeard],
      callsAfter,
      queueBefore,
      queueAfter,
      positionsBefore,
      positionsAfter,
      requests,
      longestSignalGapMs,
      signalsBack,
      reconnect: spread(times.back),
      notReconnected: times.dropped.size,
      reconnectErrors: [...times.refused],
      upload: {
        status: uploadStatus,
        sha256: sha256(RECORDING),
        storedSha256: stored.recording_sha256,
        downloadedSha256,
      },
      webhooks: {
        created: createdProfiles.length,
        delivered: deliveries.reduce((sum, n) => sum + n, 0),
        duplicates: deliveries.filter((n) => n > 1).length,
        missing: createdProfiles.filter((id) => !receiver.profiles.has(id)).length,
      },
    };

    // Leave nothing behind: the talking calls hung up with a status, the agents Offline.
    for (const [i, callId] of talkingCalls.entries()) {
      const agent = agents[i] as (typeof agents)[number];
      // A call the run ended wrongly is closed already (the figures say so).
      await agent.socket
        .timeout(10_000)
        .emitWithAck('call.hangup', { call_id: callId })
        .catch(() => undefined);
      await api(base, agent.token, 'PUT', `/api/v2/videocall/${callId}`, { status: 3 }).catch(
        () => undefined,
      );
    }
    for (const agent of agents)
      await api(base, agent.token, 'POST', '/api/v2/videocall/agent_status', { status: 'Offline' });
    return figures;
  } finally {
    loadRunning = false;
    await load?.catch(() => undefined);
    for (const timer of signalTimers) clearInterval(timer);
    for (const socket of sockets) socket.disconnect();
    if (endpointId !== undefined)
      await api(base, adminToken, 'DELETE', `/api/v2/webhook_endpoint/${endpointId}`).catch(() => undefined);
    await receiver.close();
  }
}
