import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { seededTemplate, port as suitePort } from '../../playwright.config';

/** How long a stopping server may drain before it is killed: longer than its own grace period (SHUTDOWN_GRACE_MS). */
const STOP_MS = 30_000;

/**
 * A server of one spec's own, on a copy of the run's seeded data: for what the run's shared servers cannot be
 * given (killed and started again, started with other settings). `offset` above this worker's server keeps it
 * clear of the ports the run's servers and their payment services use.
 */
export class OwnServer {
  readonly port: number;
  readonly url: string;
  // The run's seeded data: the server finds its demo data and does not seed again.
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'idv-own-server-'));
  private child: ChildProcess | null = null;

  constructor(
    offset: number,
    private readonly env: Record<string, string> = {},
  ) {
    this.port = suitePort + offset;
    this.url = `http://127.0.0.1:${this.port}`;
    cpSync(seededTemplate, this.dataDir, { recursive: true });
  }

  async start() {
    this.child = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        LOGIN_LIMIT_PER_ACCOUNT: '1000',
        LOGIN_LIMIT_PER_ADDRESS: '1000',
        // Every customer and agent of the run comes from loopback; the call and upload limits are tested in tests/server.
        CALLS_PER_ADDRESS_PER_HOUR: '1000',
        UPLOADS_PER_MINUTE: '1000',
        ...this.env,
      },
    });
    await expect
      .poll(
        () =>
          fetch(`${this.url}/runtime-config.js`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 120_000 },
      )
      .toBe(200);
  }

  /** A crash: the whole process group at once, no goodbye to anyone. The data stays for a start again. */
  kill() {
    if (this.child?.pid) process.kill(-this.child.pid, 'SIGKILL');
    this.child = null;
  }

  /**
   * Stops the server as an operator would (SIGTERM: it drains, answering what still reaches it), waits until its
   * processes are gone, and removes its data. A server started next on the same port must not meet this one still
   * draining: its readiness poll, on a connection kept alive from before, would be answered by the old process.
   */
  async stop() {
    const pid = this.child?.pid;
    this.child = null;
    if (pid) {
      process.kill(-pid, 'SIGTERM');
      const gone = () => {
        try {
          process.kill(-pid, 0);
          return false;
        } catch {
          return true;
        }
      };
      const deadline = Date.now() + STOP_MS;
      while (!gone() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!gone()) process.kill(-pid, 'SIGKILL');
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Kills the server and removes its data. */
  remove() {
    this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
