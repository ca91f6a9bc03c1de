/**
 * The servers the end-to-end tests run against, one per Playwright worker: `tsx scripts/e2e-servers.ts
 * <ready port> <port>…`. Each is the reference server on a data directory of its own, serving the built
 * studio, beside a payment service of its own. Builds the studio first when there is no build.
 *
 * The demo data is seeded once, into a template directory, and each server starts on a copy of it, all at
 * once: seeding and starting one server after another (Playwright starts its `webServer` entries in turn) kept
 * the run waiting about a minute before its first test. The ready port answers 200 once every server does:
 * it is the one address Playwright waits for.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox } from '../server/auth/secrets';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { seedDemo } from '../server/db/seed/demo';
import { ensureSecretFile } from '../server/secretFile';
import { createLocalStorage } from '../server/storage/storage';
import { spawnPaymentService } from './paymentService';

const [readyPort, ...ports] = process.argv.slice(2).map(Number);
if (!readyPort || ports.length === 0 || ports.some((port) => !port))
  throw new Error('usage: tsx scripts/e2e-servers.ts <ready port> <port>…');

// STUDIO_DIST lets parallel local runs build and serve their own copy of the studio.
const dist = process.env.STUDIO_DIST ?? 'dist';
if (!existsSync(join(dist, 'index.html')))
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });

/** The environment every server of the run shares. */
const serverEnv = {
  ...process.env,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // The suite signs in many times a minute from one address; the limits themselves are tested in tests/server.
  LOGIN_LIMIT_PER_ACCOUNT: '1000',
  LOGIN_LIMIT_PER_ADDRESS: '1000',
  // Every customer and agent of the run comes from loopback; the call and upload limits are tested in tests/server.
  CALLS_PER_ADDRESS_PER_HOUR: '1000',
  UPLOADS_PER_MINUTE: '1000',
  // One admin and one address serve every worker's reports, packages and passkey sign-ins; tested in tests/security.
  PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE: '1000',
  REPORTS_PER_USER_PER_MINUTE: '1000',
  REPORTS_PER_COMPANY_PER_MINUTE: '1000',
  EVIDENCE_PACKAGES_PER_USER_PER_MINUTE: '1000',
  EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE: '1000',
  // The webhook console test delivers to a receiver on loopback; the SSRF guard is tested in tests/server.
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_SCHEDULE: '1,1',
  PAYMENT_NOTIFY_RETRY: '1,1,2',
};

/**
 * A data directory seeded as a server seeds an empty one (the same migrations and demo data), with the
 * secret the seed encrypted with: a server started on a copy finds its data and does not seed again.
 */
async function seededTemplate(): Promise<string> {
  // E2E_TEMPLATE_DIR (playwright.config.ts): where specs that start a server of their own find it.
  let dataDir = process.env.E2E_TEMPLATE_DIR;
  if (dataDir) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  } else dataDir = mkdtempSync(join(tmpdir(), 'idv-e2e-template-'));
  const templateEnv = { ...serverEnv, DATA_DIR: dataDir, PORT: String(ports[0]) };
  // The copies' servers read the secret the seed sealed with, kept in the template.
  ensureSecretFile(templateEnv);
  const config = loadConfig(templateEnv);
  const database = await openDatabase(config);
  await seedDemo(database.db, {
    storage: createLocalStorage(`${config.dataDir}/storage`, config.jwtSecret, config.publicUrl),
    secrets: createSecretBox(config.jwtSecret),
    argon2: config.argon2,
  });
  await database.close();
  return dataDir;
}

const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let stopping = false;
/** Stops every server and payment service, then removes the data directories (the children's last writes done). */
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  const exited = children.map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

function startServer(template: string, port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
  dataDirs.push(dataDir);
  cpSync(template, dataDir, { recursive: true });
  // The payment service listens 1000 ports above the server, so parallel e2e servers do not collide.
  const env = {
    ...serverEnv,
    PORT: String(port),
    DATA_DIR: dataDir,
    PAYMENT_SERVICE_URL: `http://127.0.0.1:${port + 1000}`,
  };
  const server = spawn('node_modules/.bin/tsx', ['server/main.ts'], { stdio: 'inherit', env });
  children.push(server, spawnPaymentService(loadConfig(env), env));
  // A server that dies takes the run down with it, as a failed start did before.
  server.on('exit', (code) => {
    if (!stopping) {
      console.error(`e2e server on port ${port} exited (${code})`);
      void stop(1);
    }
  });
}

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/runtime-config.js`).then(
    (response) => response.ok,
    () => false,
  );

const started = Date.now();
const template = await seededTemplate();
dataDirs.push(template);
console.log(`e2e servers: demo data seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
for (const port of ports) startServer(template, port);
createServer((_request, response) => {
  void Promise.all(ports.map(answers)).then((all) => {
    response.writeHead(all.every(Boolean) ? 200 : 503).end();
  });
}).listen(readyPort, '127.0.0.1');
