import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import { type ServerConfig, STATS_EVERY_MS } from '../../server/config';
import { type Database, openDatabase, pgliteDatabase } from '../../server/db/client';
import { users, videoCalls } from '../../server/db/schema';
import { joinLinkOf } from '../../server/domain/videocalls/joinLinks';
import { answerCall, createCall } from '../../server/domain/videocalls/lifecycle';
import type { FaceMatcher } from '../../server/integrations/faceMatch';
import type { PaymentProvider } from '../../server/integrations/payment/provider';
import { giveBack, templateDatabase } from './templateDatabases';
import { SEED_KEYS, TEMPLATE_FILES, testConfig } from './testConfig';

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  /** The app's database: a copy of the seeded template when there is one. */
  database: Database;
  /** Stops the app and starts a new one on the same database, as a process restart would. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A copy of the migrated, seeded template database (tests/server/template.setup.ts), or undefined when
 * there is none (a run without the server project's global setup) or the overrides change the seed. Closed,
 * it goes back to this worker's template databases for the next app (tests/server/templateDatabases.ts).
 */
function fromTemplate(
  dataDir: string,
  overrides: Partial<ServerConfig>,
): (() => Promise<Database>) | undefined {
  const template = inject('serverTemplate');
  if (!template || SEED_KEYS.some((key) => key in overrides)) return undefined;
  return async () => {
    cpSync(join(template, TEMPLATE_FILES.storage), join(dataDir, 'storage'), { recursive: true });
    const client = await templateDatabase(join(template, TEMPLATE_FILES.database));
    // As server/db/client.ts opens PGlite (the migrations are in the template already).
    return { ...pgliteDatabase(client), close: async () => giveBack(client) };
  };
}

/** The database of a test app or world: a copy of the template when there is one, else migrated and seeded. */
export async function openTestDatabase(
  dataDir: string,
  config: ServerConfig,
  overrides: Partial<ServerConfig>,
): Promise<Database> {
  const open = fromTemplate(dataDir, overrides);
  return open ? open() : openDatabase(config);
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
  const config: ServerConfig = { ...testConfig(dataDir), ...overrides };
  const database = await openTestDatabase(dataDir, config, overrides);
  const testApp: TestApp = {
    app: await buildApp(config, { ...options, database }),
    config,
    database,
    async restart() {
      await testApp.app.close();
      testApp.app = await buildApp(config, { ...options, database });
    },
    async close() {
      await testApp.app.close();
      // buildApp leaves a database it was given open.
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** Call timers short enough for tests (a customer or agent who drops is gone after 100 ms). */
export const FAST_CALLS: ServerConfig['calls'] = {
  joinLinkTtlSeconds: 3600,
  customerGraceMs: 100,
  talkingCustomerGraceMs: 100,
  agentGraceMs: 100,
  unattachedCallMs: 2_000,
  maxRecordingBytes: 64 * 1024,
  statsEveryMs: STATS_EVERY_MS,
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

/**
 * A call of Acme's profile `profile` answered by `agentId`, as the desk would leave it (only that agent and
 * the call's customer may signal in its room): its id, room and the customer's join token.
 */
export async function talkingCall(app: FastifyInstance, agentId: number, profile = 1) {
  const created = await createCall(app.ctx.db, 1, profile);
  const answered = await answerCall(app.ctx.db, 1, created.id, agentId);
  if (!answered) throw new Error('the call was not answered');
  const customer = await app.ctx.tokens.signCustomer({ profile_id: profile, company_id: 1 }, 3600);
  // The token's own call, as POST /videocall makes it: customer routes accept no other link's call.
  await app.ctx.db
    .update(videoCalls)
    .set({ joinLink: joinLinkOf(customer) })
    .where(eq(videoCalls.id, created.id));
  return { callId: created.id, room: created.room_id, customer };
}

/** The id of a user by e-mail (the seed's users). */
export async function userId(app: FastifyInstance, email: string): Promise<number> {
  const [row] = await app.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

/** A small JPEG: the server checks the first bytes (FF D8 FF) and stores the rest as it is. */
export const TEST_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  Buffer.from('screenshot of the customer'),
  Buffer.from([0xff, 0xd9]),
]);

/** The agent takes a screenshot of a talking call for a step (POST /videocall/{id}/screenshots); its id. */
export async function takeScreenshot(
  app: FastifyInstance,
  token: string,
  callId: number,
  kind: string,
  body: Buffer = TEST_JPEG,
): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/screenshots?kind=${kind}`,
    headers: { ...bearer(token), 'content-type': 'image/jpeg' },
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`screenshot: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number }>().id;
}

/**
 * Agents of Acme made for a test (role User: may take calls): `agents` of them speaking no language in particular,
 * or one per entry speaking its languages. Their ids, in order.
 */
export async function makeAgents(
  app: FastifyInstance,
  prefix: string,
  agents: number | string[][],
): Promise<number[]> {
  const languages = typeof agents === 'number' ? Array.from({ length: agents }, (): string[] => []) : agents;
  const rows = await app.ctx.db
    .insert(users)
    .values(
      languages.map((spoken, i) => ({
        companyId: 1,
        email: `${prefix}${i}@acme.test`,
        firstName: 'Agent',
        lastName: `${prefix}${i}`,
        passwordHash: 'not-used',
        role: 'User' as const,
        languages: spoken,
      })),
    )
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}
