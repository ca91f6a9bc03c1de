import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type ServerConfig } from '../../server/config';
import type { FaceMatcher } from '../../server/integrations/faceMatch';
import type { PaymentProvider } from '../../server/integrations/payment/provider';

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  close(): Promise<void>;
}

/** A seeded app on an in-memory PGlite and a temporary data folder, with cheap password hashing. */
export async function startTestApp(
  overrides: Partial<ServerConfig> = {},
  options: {
    faceMatcher?: FaceMatcher;
    logStream?: { write(line: string): void };
    paymentProvider?: PaymentProvider;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-test-'));
  const config: ServerConfig = {
    ...loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'silent',
    }),
    pgliteDir: 'memory',
    argon2: { memoryCost: 1024, timeCost: 1 },
    studioDist: join(dataDir, 'no-studio'),
    mailConsole: false,
    ...overrides,
  };
  const app = await buildApp(config, options);
  return {
    app,
    config,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Call timers short enough for tests (a customer or agent who drops is gone after 100 ms). */
export const FAST_CALLS: ServerConfig['calls'] = {
  joinLinkTtlSeconds: 3600,
  customerGraceMs: 100,
  agentGraceMs: 100,
  unattachedCallMs: 2_000,
  maxRecordingBytes: 64 * 1024,
};

export const PASSWORDS = { admin: 'Admin@2026', user: 'User@2026', api: 'Api@2026' } as const;

export async function login(
  app: FastifyInstance,
  username: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  return app.inject({ method: 'POST', url: '/api/v1/login/', payload: { username, password, ...extra } });
}

/** Logs in and returns the access token (fails the test otherwise). */
export async function tokenFor(
  app: FastifyInstance,
  username: string,
  password: string,
  server?: string,
): Promise<string> {
  const response = await login(app, username, password, server ? { server } : {});
  const body = response.json() as { access?: string };
  if (response.statusCode !== 200 || !body.access) {
    throw new Error(`login of ${username} failed: ${response.statusCode} ${response.body}`);
  }
  return body.access;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** GET with a token; returns status and parsed body. */
export async function get<T = unknown>(app: FastifyInstance, url: string, token?: string) {
  const response = await app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  return { status: response.statusCode, body: response.json() as T };
}

/** POST with JSON (and a token); returns status and parsed body. */
export async function post<T = unknown>(app: FastifyInstance, url: string, payload: unknown, token?: string) {
  const response = await app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? bearer(token) : {},
  });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
}

/** The newest one-time code mailed to `email`, read from the dev outbox listing. */
export async function mailedCode(app: FastifyInstance, email: string): Promise<string> {
  const { body } = await get<{ body: string }[]>(app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(body[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}
