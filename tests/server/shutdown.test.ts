/**
 * Stopping the server process: Ctrl-C at the terminal does not wait for the idle keep-alive connections a
 * browser holds open (SIGTERM's drain behind a balancer is tests/distributed/rollingRestart.spec.ts).
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MainProcess, startMainProcess } from './mainProcess';

/** A GET on `agent`'s kept-alive connection: status and the connection header of the answer. */
function get(agent: Agent, url: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('stopping the server', () => {
  let server: MainProcess;
  // A grace period far beyond the test's time-out: a server that waited for the idle connection (until the
  // keep-alive time-out of 72 s closes it) would fail the test.
  beforeAll(async () => {
    server = await startMainProcess({ SHUTDOWN_GRACE_MS: '600000' });
  }, 120_000);
  afterAll(() => server?.stop());

  it('Ctrl-C stops at once though a browser keeps an idle connection open', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = await get(agent, `${server.url}/healthz`);
      expect(answer).toEqual({ status: 200, connection: 'keep-alive' });
      const closed = new Promise<void>((resolve) => {
        const [socket] = Object.values(agent.freeSockets).flat();
        expect(socket, 'the connection is kept for the next request').toBeDefined();
        socket?.once('close', () => resolve());
      });

      expect(await server.stop('SIGINT')).toBe(0);
      await closed;
      expect(server.output.some((line) => line.startsWith('Stopped in'))).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 45_000);
});
