/**
 * The server the end-to-end tests run against: the built studio served by `vite preview`.
 * (Replaced by the reference server once it serves the studio.)
 */
import { spawn } from 'node:child_process';

const port = process.argv[2] ?? '4310';
const child = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
