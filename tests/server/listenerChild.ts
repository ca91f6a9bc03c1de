/**
 * A server process for listener.test.ts: `node --import tsx listenerChild.ts <deferred|plain> <folder>`.
 * Tells its port on IPC; on any message it writes `busy` in the folder and keeps its event loop busy until the
 * test has written `connected` there (so the test's connection waits in the listening socket's queue, not yet
 * taken), then closes its listener at once (`plain`) or with closeListener (`deferred`), and serves on.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { closeListener } from '../../server/http/listener';

const [mode, folder] = process.argv.slice(2) as [string, string];
const server = createServer((request, reply) => {
  request.resume();
  request.on('end', () => reply.writeHead(200, { connection: 'close', 'content-length': 6 }).end('served'));
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', () => {
  writeFileSync(join(folder, 'busy'), '');
  const giveUpAt = Date.now() + 30_000;
  while (!existsSync(join(folder, 'connected')) && Date.now() < giveUpAt) {
    // Busy on purpose: the event loop must not take the connection before the stop begins.
  }
  if (mode === 'plain') Server.prototype.close.call(server);
  else void closeListener(server);
});
