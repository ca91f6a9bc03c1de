/**
 * A distributed deployment on this machine (docs/operators/distributed.md): PostgreSQL and Redis from Debian's
 * packages, s3rver as the S3-compatible store, N server processes (server/main.ts) and nginx from Debian in
 * front (WebSocket upgrade, round robin). Used by the distributed test (tests/distributed) and by
 * `npm run bench:scale`. Everything lives in one temporary folder and stops with `stop()`.
 *
 * nginx routes by the cookie `idv_backend` (`a`, `b`, …): a client pinned to a process goes there while it
 * runs and to the others when it is down; without the cookie, round robin.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const asRoot = process.getuid?.() === 0;

export const BUCKET = 'idv';
export const S3_KEY = 'S3RVER';
export const METRICS_TOKEN = 'cluster-metrics-token';
export const PIN_COOKIE = 'idv_backend';
export const pinName = (index: number) => String.fromCharCode('a'.charCodeAt(0) + index);

/** Why a distributed deployment cannot start here (empty: it can). */
export function missingTools(): string[] {
  const missing: string[] = [];
  if (!existsSync(join(PG_BIN, 'initdb'))) missing.push(`PostgreSQL (${PG_BIN}/initdb)`);
  if (!existsSync(REDIS)) missing.push(`Redis (${REDIS})`);
  if (!existsSync(NGINX)) missing.push(`nginx (${NGINX})`);
  return missing;
}

export interface ServerProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
}

export interface RunningCluster {
  /** nginx's address: what browsers and clients use. */
  url: string;
  servers: ServerProcess[];
  databaseUrl: string;
  redisUrl: string;
  s3Endpoint: string;
  dir: string;
  stop(): Promise<void>;
  /**
   * The rolling restart of one process, as an orchestrator does it: SIGTERM, wait for its exit (its graceful
   * stop), start it again on the same port, wait for /readyz and until nginx sends it requests again.
   */
  restartServer(index: number, onSignal?: () => void): Promise<ServerProcess>;
}

/** What starting one server process of a cluster needs (kept in the cluster's folder for other processes). */
export interface ServerSpec {
  dir: string;
  basePort: number;
  url: string;
  databaseUrl: string;
  redisUrl: string;
  s3Endpoint: string;
  studioDist: string;
  env: Record<string, string>;
}

const SPEC_FILE = 'servers.json';
const PIDS_FILE = 'server-pids';

/** The cluster's server spec, read from its folder (a test's worker restarting a process the setup started). */
export function clusterSpec(dir: string): ServerSpec {
  return JSON.parse(readFileSync(join(dir, SPEC_FILE), 'utf8')) as ServerSpec;
}

/** Ends every server process ever started for the cluster in `dir` that still runs. */
function killStartedProcesses(dir: string): void {
  if (!existsSync(join(dir, PIDS_FILE))) return;
  for (const line of readFileSync(join(dir, PIDS_FILE), 'utf8').split('\n')) {
    const pid = Number(line);
    if (!pid) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Whether the process runs (it need not be a child of this one). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts server process `index` (its port is basePort + 10 + index); resolves once /readyz answers 200. */
export function startServerProcess(spec: ServerSpec, index: number): ServerProcess {
  const port = spec.basePort + 10 + index;
  const dataDir = join(spec.dir, `server-${pinName(index)}`);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      // Not NODE_ENV=production: the run reads e-mailed codes through the dev endpoints, which production
      // never serves; every process listens on loopback behind nginx on loopback.
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: spec.databaseUrl,
      REDIS_URL: spec.redisUrl,
      // nginx on loopback names the client in X-Forwarded-For (the IP allow-list sees the browser's address).
      TRUST_PROXY: '127.0.0.1',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: spec.s3Endpoint,
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      JWT_SECRET: 'cluster-secret-that-is-long-enough-0123456789',
      PUBLIC_URL: spec.url,
      SECOND_REGION_URL: spec.url,
      STUDIO_DIST: spec.studioDist,
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DEV_ENDPOINTS: '1',
      LOGIN_LIMIT_PER_ACCOUNT: '100000',
      LOGIN_LIMIT_PER_ADDRESS: '100000',
      // Every customer and agent of the run comes from loopback; the call and upload limits are tested in tests/server.
      CALLS_PER_ADDRESS_PER_HOUR: '100000',
      UPLOADS_PER_MINUTE: '100000',
      SHUTDOWN_GRACE_MS: '5000',
      ...spec.env,
    },
  });
  if (child.pid) appendFileSync(join(spec.dir, PIDS_FILE), `${child.pid}\n`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name: pinName(index), port, url: `http://127.0.0.1:${port}`, child, exited };
}

/** Waits until the server answers /readyz with 200 (or fails when it exits first). */
export function serverReady(server: ServerProcess, timeoutMs = 180_000): Promise<void> {
  return Promise.race([
    waitFor(`server ${server.name} (${server.port})`, ready(server.url), timeoutMs),
    server.exited.then((code) => {
      throw new Error(`server ${server.name} exited (${code}) while starting`);
    }),
  ]);
}

/**
 * SIGTERM to the running process `pid` of slot `index`, its exit awaited (polled: it need not be a child of
 * this process), then the slot started again and awaited ready, and taken back by nginx (the next process may
 * be stopped then). `onSignal` runs right after SIGTERM is sent.
 */
export async function restartServerProcess(
  spec: ServerSpec,
  index: number,
  old: { child?: ChildProcess; pid?: number },
  onSignal?: () => void,
): Promise<ServerProcess> {
  const pid = old.child?.pid ?? old.pid;
  if (pid && isRunning(pid)) {
    process.kill(pid, 'SIGTERM');
    onSignal?.();
    await waitFor(`server ${pinName(index)} to exit`, async () => !isRunning(pid), 60_000);
  }
  const next = startServerProcess(spec, index);
  await serverReady(next);
  await balancerSends(spec.url, next);
  return next;
}

/**
 * Waits until nginx sends its round-robin traffic to `server` again. nginx learns that a process it marked
 * failed (`max_fails`) is back only by trying it once `fail_timeout` has passed: stopping the next process
 * before that leaves nginx no process it believes alive, and it answers 502 ("no live upstreams").
 */
export function balancerSends(url: string, server: ServerProcess, timeoutMs = 30_000): Promise<void> {
  const address = `127.0.0.1:${server.port}`;
  return waitFor(
    `nginx to send to server ${server.name} again`,
    async () => {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      return response.headers.get('x-upstream') === address;
    },
    timeoutMs,
  );
}

function pg(tool: string, args: string[]): void {
  const binary = join(PG_BIN, tool);
  const options = { stdio: 'ignore' as const, timeout: 60_000 };
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], options);
  else execFileSync(binary, args, options);
}

/**
 * A scratch PostgreSQL cluster in `pgDir` (created here) on 127.0.0.1:`port`, no fsync (its data is thrown
 * away), as the package's account when root: PostgreSQL refuses to run as root. `stop()` stops it at once.
 */
export function startPostgres(pgDir: string, port: number): { databaseUrl: string; stop(): void } {
  mkdirSync(pgDir);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(pgDir, uid, gid);
  }
  pg('initdb', ['-D', join(pgDir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pg('pg_ctl', [
    '-D',
    join(pgDir, 'data'),
    '-o',
    `-p ${port} -k ${pgDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-l',
    join(pgDir, 'log'),
    '-w',
    'start',
  ]);
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg('pg_ctl', ['-D', join(pgDir, 'data'), '-m', 'immediate', '-w', 'stop']),
  };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

const ready = (url: string) => async () => (await fetch(`${url}/readyz`)).status === 200;

function nginxConfig(dir: string, port: number, servers: number[]): string {
  const line = (p: number, extra = '') => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s${extra};`;
  // A pinned client tries its own process first and the others when that one refuses, every time: with
  // failures counted per upstream block, a pin would otherwise keep its process marked failed on its own
  // (apart from the pool's) and answer 502 while both processes run.
  const pinned = (p: number, extra = '') => `    server 127.0.0.1:${p} max_fails=0${extra};`;
  const pins = servers.map(
    (p, i) =>
      `  upstream pin_${pinName(i)} {\n${pinned(p)}\n${servers
        .filter((o) => o !== p)
        .map((o) => pinned(o, ' backup'))
        .join('\n')}\n  }`,
  );
  return `${asRoot ? 'user root;\n' : ''}worker_processes 1;
error_log ${dir}/nginx-error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 4096; }
http {
  # Only what a user could have noticed: an error status, or a request nginx passed to a second
  # process (a retry); with the upstream statuses, for a rolling restart's reader.
  log_format notable '$msec $request_method $uri $status upstream=[$upstream_addr] '
                     'upstream_status=[$upstream_status] connect=[$upstream_connect_time]';
  map "$status $upstream_addr" $notable { "~^[123]\\d\\d [^,]*$" 0; default 1; }
  access_log ${dir}/nginx-notable.log notable if=$notable;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  client_max_body_size 310m;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream pool {
${servers.map((p) => line(p)).join('\n')}
    keepalive 64;
    # Shorter than the servers' own (72 s) and than half their stop's grace: nginx closes an idle connection
    # before a stopping process would have to (a request sent on it at that instant would be reset).
    keepalive_timeout 2s;
  }
${pins.join('\n')}
  map $cookie_${PIN_COOKIE} $backend {
${servers.map((_, i) => `    ${pinName(i)} pin_${pinName(i)};`).join('\n')}
    default pool;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://$backend;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_502 http_503;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts the whole deployment on ports `basePort` (nginx), +1 PostgreSQL, +2 Redis, +3 s3rver and
 * +10, +11, … the server processes (all on 127.0.0.1).
 */
export async function startCluster(options: {
  basePort: number;
  servers: number;
  studioDist?: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
  /** Runs once PostgreSQL, Redis and the store are up, before the server processes start (a bigger seed). */
  prepare?: (services: { databaseUrl: string; redisUrl: string; s3Endpoint: string }) => Promise<void>;
}): Promise<RunningCluster> {
  const log = options.log ?? (() => undefined);
  const missing = missingTools();
  if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'idv-cluster-'));
  // PostgreSQL's account (when root) must pass through to its own folder inside.
  if (asRoot) chmodSync(dir, 0o711);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve(cleanup()).catch(() => undefined);
  };
  try {
    const [nginxPort, pgPort, redisPort, s3Port] = [0, 1, 2, 3].map((n) => options.basePort + n) as [
      number,
      number,
      number,
      number,
    ];
    const url = `http://127.0.0.1:${nginxPort}`;

    const postgres = startPostgres(join(dir, 'pg'), pgPort);
    cleanups.push(postgres.stop);
    const { databaseUrl } = postgres;
    log(`PostgreSQL on ${pgPort}`);

    // Redis, in the foreground of its own child process, nothing saved.
    const redis = spawn(
      REDIS,
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    cleanups.push(() => {
      redis.kill('SIGKILL');
    });
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    log(`Redis on ${redisPort}`);

    // s3rver in this process, its files in the temporary folder.
    const s3 = new S3rver({
      port: s3Port,
      address: '127.0.0.1',
      directory: join(dir, 's3'),
      silent: true,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    await s3.run();
    cleanups.push(() => s3.close());
    const s3Endpoint = `http://127.0.0.1:${s3Port}`;
    log(`s3rver on ${s3Port}`);

    await options.prepare?.({ databaseUrl, redisUrl, s3Endpoint });

    // The server processes, started together (the first migrates and seeds; the others wait: client.ts).
    const spec: ServerSpec = {
      dir,
      basePort: options.basePort,
      url,
      databaseUrl,
      redisUrl,
      s3Endpoint,
      studioDist: options.studioDist ?? 'dist',
      env: options.env ?? {},
    };
    writeFileSync(join(dir, SPEC_FILE), JSON.stringify(spec));
    const servers: ServerProcess[] = [];
    const startServer = (index: number) => startServerProcess(spec, index);
    for (let i = 0; i < options.servers; i++) servers.push(startServer(i));
    cleanups.push(async () => {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      // Processes started again elsewhere (a rolling restart in a test's worker) are ended too.
      killStartedProcesses(dir);
    });
    await Promise.all(servers.map((s) => serverReady(s)));
    log(`${servers.length} server processes on ${servers.map((s) => s.port).join(', ')}`);

    // nginx in the foreground, its configuration, pid and logs in the temporary folder.
    const conf = join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      nginxConfig(
        dir,
        nginxPort,
        servers.map((s) => s.port),
      ),
    );
    const nginx = spawn(
      NGINX,
      ['-c', conf, '-p', dir, '-e', join(dir, 'nginx-error.log'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const nginxExited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
    cleanups.push(async () => {
      nginx.kill('SIGQUIT');
      await nginxExited;
    });
    await waitFor('nginx', async () => (await fetch(`${url}/healthz`)).ok, 15_000);
    log(`nginx on ${nginxPort}`);

    return {
      url,
      servers,
      databaseUrl,
      redisUrl,
      s3Endpoint,
      dir,
      stop,
      async restartServer(index, onSignal) {
        const old = servers[index];
        if (!old) throw new Error(`no server ${index}`);
        const next = await restartServerProcess(spec, index, old, onSignal);
        servers[index] = next;
        return next;
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
