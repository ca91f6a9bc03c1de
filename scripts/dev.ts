/**
 * `npm run dev`: the reference server (API, socket.io, demo data) and Vite with hot reload in front of it.
 * Open the address Vite prints; it forwards /api, /storage, /socket.io and /runtime-config.js to the server.
 */
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8080';
const children = [
  // Development: the server also allows loopback origins (Vite's own address) for CORS and sockets.
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env, PORT: port },
  }),
  spawn('npx', ['vite'], {
    stdio: 'inherit',
    env: { ...process.env, STUDIO_SERVER_URL: `http://127.0.0.1:${port}` },
  }),
];
const stop = (signal: NodeJS.Signals) => {
  for (const child of children) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  });
