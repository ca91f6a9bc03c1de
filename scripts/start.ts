/**
 * `npm start`: builds the studio when its sources are newer than the last build, then starts the reference
 * server, which serves the studio and the API on one address and prints the demo logins.
 */
import { spawn } from 'node:child_process';
import { buildStudioIfStale } from './studioBuild';

buildStudioIfStale();

const server = spawn('npx', ['tsx', 'server/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
