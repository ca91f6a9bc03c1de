/**
 * Counted tries under bursts: every try is claimed by the statement that checks it
 * (docs/decisions/0196-tries-claimed-atomically.md), so however many requests arrive at once, no more tries are
 * checked than the limit allows. Each property fires a burst of concurrent requests through the HTTP API (random
 * size, the right answer at a random place) on a fresh call or code, then counts what was accepted and stored.
 *
 * The app runs on PGlite in its own thread, as the server does: its queries are slow enough that concurrent
 * requests interleave between them (on the in-process PGlite of the other tests they hardly do, and a
 * check-then-write race went unseen). The call's code and serial number run on a real PostgreSQL too, where the
 * requests run on several connections at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_GUIDE_LIMITS,
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedureBody,
} from '#contract/identProcedure';
import { createLimiters, createLoginGuard } from '../../server/auth/attemptLimiter';
import { totpCode } from '../../server/auth/totp';
import { documents, oneTimeCodes, profiles, users, videoCallSteps } from '../../server/db/schema';
import { DEMO_MFA_SECRET } from '../../server/db/seed/demo';
import {
  bearer,
  get,
  login,
  mailedCode,
  PASSWORDS,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres } from '../server/throwawayPostgres';

const PHONE = '+90 555 010 7733';
const SERIAL = 'B77-001 234';
/** Small runs: each fires a burst of requests on a loaded machine. */
const RUNS = { numRuns: 8 };

type Entry = { accepted: boolean; tries_left: number; detail?: string };
type Answer = { status: number; body: Entry };

/** A world: a guided company whose customer (profile) has a phone and a document with a serial number. */
interface TryWorld {
  t: TestApp;
  agent: string;
  agentId: number;
  admin: string;
  profile: number;
}

async function tryWorld(t: TestApp): Promise<TryWorld> {
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  const agentId = await userId(t.app, 'agent@acme.test');
  const db = t.app.ctx.db;
  const [doc] = await db
    .select({ id: documents.id, profileId: documents.profileId })
    .from(documents)
    .where(eq(documents.companyId, 1))
    .limit(1);
  if (!doc) throw new Error('Acme has no document');
  await db.update(profiles).set({ phone: PHONE }).where(eq(profiles.id, doc.profileId));
  const content = (
    await db.select({ content: documents.content }).from(documents).where(eq(documents.id, doc.id))
  )[0]?.content;
  await db
    .update(documents)
    .set({ content: { ...content, DocumentNumber: SERIAL } })
    .where(eq(documents.id, doc.id));
  return { t, agent, agentId, admin, profile: doc.profileId };
}

/** The procedure with the code step sent by SMS and `maxTries` tries. */
async function saveProcedure(w: TryWorld, maxTries: number) {
  const body: IdentProcedureBody = structuredClone({ ...DEFAULT_IDENT_PROCEDURE, guided: true });
  body.steps = body.steps.map((s) =>
    s.kind === 'second_channel_code' ? { ...s, channel: 'sms', max_tries: maxTries } : s,
  );
  const saved = await w.t.app.inject({
    method: 'PUT',
    url: '/api/v2/ident_procedure',
    payload: body,
    headers: { ...bearer(w.admin), 'if-match': '*' },
  });
  expect(saved.statusCode).toBe(200);
}

const customerPost = async (w: TryWorld, url: string, customer: string, payload: object): Promise<Answer> => {
  const response = await w.t.app.inject({ method: 'POST', url, payload, headers: bearer(customer) });
  return { status: response.statusCode, body: response.json<Entry>() };
};
const enterCode = (w: TryWorld, customer: string, callId: number, code: string) =>
  customerPost(w, '/api/v2/videocall/code', customer, { call_id: callId, code });
const enterSerial = (w: TryWorld, customer: string, callId: number, serial: string) =>
  customerPost(w, '/api/v2/videocall/serial_number', customer, { call_id: callId, serial_number: serial });
const sendCode = (w: TryWorld, callId: number) =>
  w.t.app.inject({ method: 'POST', url: `/api/v2/videocall/${callId}/code`, headers: bearer(w.agent) });

async function textedCode(w: TryWorld): Promise<string> {
  const { body } = await get<{ body: string }[]>(w.t.app, `/api/dev/sms?to=${encodeURIComponent(PHONE)}`);
  const code = /\b(\d{6})\b/.exec(body[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no code texted');
  return code;
}

/** Six digits other than `right`, from a seed. */
const wrongCode = (right: string, seed: number) => {
  const code = String(seed % 1_000_000).padStart(6, '0');
  return code === right ? String((seed + 1) % 1_000_000).padStart(6, '0') : code;
};

/** `wrong` with `right` put at `at` (at most the end). */
const withRightAt = <T>(wrong: T[], right: T, at: number) => [
  ...wrong.slice(0, at),
  right,
  ...wrong.slice(at),
];

async function serverSteps(w: TryWorld, callId: number, kind: string) {
  return w.t.app.ctx.db
    .select({ result: videoCallSteps.result })
    .from(videoCallSteps)
    .where(
      and(eq(videoCallSteps.callId, callId), eq(videoCallSteps.kind, kind), isNull(videoCallSteps.createdBy)),
    );
}

/**
 * The second-channel code: a burst of wrong codes with the right one among them. At most `max_tries` tries are
 * checked (answered 200), at most one is accepted, and it is accepted exactly when fewer wrong ones got there
 * first; the right code afterwards is refused; the step has one result at most, passed or failed.
 */
function callCodeBursts(w: () => TryWorld, runs = RUNS) {
  return fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.nat(), { minLength: 0, maxLength: 25 }),
      fc.nat(),
      async (maxTries, seeds, place) => {
        const world = w();
        await saveProcedure(world, maxTries);
        const { callId, customer } = await talkingCall(world.t.app, world.agentId, world.profile);
        expect((await sendCode(world, callId)).statusCode).toBe(200);
        const right = await textedCode(world);
        const wrong = seeds.map((seed) => wrongCode(right, seed));
        const at = place % (wrong.length + 1);
        const burst = withRightAt(wrong, right, at);
        const answers = await Promise.all(burst.map((code) => enterCode(world, customer, callId, code)));

        for (const a of answers) expect([200, 409]).toContain(a.status);
        const checked = answers.filter((a) => a.status === 200);
        const accepted = checked.filter((a) => a.body.accepted);
        const wrongChecked = checked.length - accepted.length;
        expect(checked.length).toBeLessThanOrEqual(maxTries);
        expect(accepted.length).toBeLessThanOrEqual(1);
        expect(wrongChecked).toBeLessThanOrEqual(maxTries);
        // The right code is refused only when every try went to a wrong one before it.
        expect(accepted.length === 1).toBe(wrongChecked < maxTries);
        if (wrong.length < maxTries) expect(accepted).toHaveLength(1);
        // Each checked try was told a different number of tries left (they queued, none saw a stale count).
        const left = checked.filter((a) => !a.body.accepted).map((a) => a.body.tries_left);
        expect(new Set(left).size).toBe(left.length);

        expect((await enterCode(world, customer, callId, right)).status).toBe(409);
        const [stored] = await world.t.app.ctx.db
          .select({ attempts: oneTimeCodes.attempts })
          .from(oneTimeCodes)
          .where(eq(oneTimeCodes.email, `call:${callId}`));
        expect(stored?.attempts).toBe(wrongChecked);
        const results = (await serverSteps(world, callId, 'second_channel_code')).map((s) => s.result);
        expect(results).toEqual(accepted.length === 1 ? ['passed'] : ['failed']);
      },
    ),
    runs,
  );
}

/**
 * The serial number: a burst of entries, right and wrong. At most CALL_GUIDE_LIMITS.serialTries are stored
 * and answered 200 (each with its own tries left), the rest 409, and one more entry afterwards is refused.
 */
function serialBursts(w: () => TryWorld, runs = RUNS) {
  const limit = CALL_GUIDE_LIMITS.serialTries;
  return fc.assert(
    fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 31 }), async (rights) => {
      const world = w();
      const { callId, customer } = await talkingCall(world.t.app, world.agentId, world.profile);
      const answers = await Promise.all(
        rights.map((right, i) => enterSerial(world, customer, callId, right ? SERIAL : `X${i}`)),
      );
      for (const a of answers) expect([200, 409]).toContain(a.status);
      const stored = answers.filter((a) => a.status === 200);
      expect(stored).toHaveLength(Math.min(rights.length, limit));
      expect(new Set(stored.map((a) => a.body.tries_left)).size).toBe(stored.length);
      expect((await enterSerial(world, customer, callId, SERIAL)).status).toBe(
        rights.length >= limit ? 409 : 200,
      );
      expect(await serverSteps(world, callId, 'serial_number')).toHaveLength(
        Math.min(rights.length + 1, limit),
      );
    }),
    runs,
  );
}

let t: TestApp;
let world: TryWorld;
const pgliteDir = mkdtempSync(join(tmpdir(), 'idv-tries-'));

beforeAll(async () => {
  t = await startTestApp({
    pgliteDir,
    loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 },
  });
  world = await tryWorld(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
  rmSync(pgliteDir, { recursive: true, force: true });
});

describe('bursts of tries on a guided call', () => {
  it('the second-channel code checks at most its tries, accepts at most once, and records one result', async () => {
    await callCodeBursts(() => world);
  });

  it('the serial number stores at most its entries', async () => {
    await serialBursts(() => world);
  });

  it('the code sends of a call stop at their limit', async () => {
    await saveProcedure(world, 3);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10 }), async (sends) => {
        const { callId } = await talkingCall(t.app, world.agentId, world.profile);
        const answers = await Promise.all(Array.from({ length: sends }, () => sendCode(world, callId)));
        const sent = answers.filter((a) => a.statusCode === 200).length;
        expect(sent).toBe(Math.min(sends, CALL_GUIDE_LIMITS.codeSends));
        for (const a of answers) expect([200, 409]).toContain(a.statusCode);
        const [codes] = await t.app.ctx.db
          .select({ n: count() })
          .from(oneTimeCodes)
          .where(eq(oneTimeCodes.email, `call:${callId}`));
        expect(codes?.n).toBe(sent);
        // Only the newest code can be typed: the others were replaced.
        const [live] = await t.app.ctx.db
          .select({ n: count() })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.email, `call:${callId}`), isNull(oneTimeCodes.usedAt)));
        expect(live?.n).toBe(1);
      }),
      RUNS,
    );
  });
});

describe('bursts of tries on e-mailed and sign-in codes', () => {
  it('an e-mail verification code checks at most its wrong tries and is used once', async () => {
    const { maxAttempts } = t.config.oneTimeCodes;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 0, maxLength: 12 }),
        fc.nat(),
        async (seeds, place) => {
          run += 1;
          const email = `burst-${run}-${seeds.length}-${place}@example.test`;
          // Each run from an address of its own: the per-address limits are not what is tested here.
          const remoteAddress = `198.51.100.${run}`;
          const sent = await t.app.inject({
            method: 'POST',
            url: '/api/v2/user/email_otp/send',
            payload: { email },
            remoteAddress,
          });
          expect(sent.statusCode).toBe(200);
          const right = await mailedCode(t.app, email);
          const burst = withRightAt(
            seeds.map((seed) => wrongCode(right, seed)),
            right,
            place % (seeds.length + 1),
          );
          const answers = await Promise.all(
            burst.map((otp) =>
              t.app.inject({
                method: 'POST',
                url: '/api/v2/user/email_otp/submit',
                payload: { email, otp },
                remoteAddress,
              }),
            ),
          );
          for (const a of answers) expect([200, 400, 429]).toContain(a.statusCode);
          const verified = answers.filter((a) => a.statusCode === 200).length;
          expect(verified).toBeLessThanOrEqual(1);
          const [stored] = await t.app.ctx.db
            .select({ attempts: oneTimeCodes.attempts, usedAt: oneTimeCodes.usedAt })
            .from(oneTimeCodes)
            .where(eq(oneTimeCodes.email, email));
          expect(stored?.attempts).toBeLessThanOrEqual(maxAttempts);
          expect(stored?.usedAt !== null).toBe(verified === 1);
          // Fewer wrong codes than the tries, all let through by the per-address guard: the right one counts.
          if (seeds.length < maxAttempts) expect(verified).toBe(1);
          const again = await t.app.inject({
            method: 'POST',
            url: '/api/v2/user/email_otp/submit',
            payload: { email, otp: right },
            remoteAddress,
          });
          expect([400, 429]).toContain(again.statusCode);
        },
      ),
      RUNS,
    );
  });

  it('a TOTP code signs in once however many sign-ins race with it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), async (racing) => {
        // A fresh start each run: no time step used yet, so the current code signs in once.
        await t.app.ctx.db.update(users).set({ mfaLastStep: null }).where(eq(users.email, 'mfa@acme.test'));
        const code = totpCode(DEMO_MFA_SECRET);
        const answers = await Promise.all(
          Array.from({ length: racing }, () => login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: code })),
        );
        for (const a of answers) expect([200, 400]).toContain(a.statusCode);
        expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      }),
      { numRuns: 5 },
    );
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)('bursts of tries on a real PostgreSQL', () => {
  let pgApp: TestApp | undefined;
  let pgWorld: TryWorld;
  let stop = () => {};

  beforeAll(async () => {
    const server = await startThrowawayPostgres();
    stop = server.stop;
    pgApp = await startTestApp({ databaseUrl: server.databaseUrl });
    pgWorld = await tryWorld(pgApp);
  }, 180_000);
  afterAll(async () => {
    await pgApp?.close();
    stop();
  });

  it('the second-channel code checks at most its tries, accepts at most once, and records one result', async () => {
    await callCodeBursts(() => pgWorld, { numRuns: 5 });
  });

  it('the serial number stores at most its entries', async () => {
    await serialBursts(() => pgWorld, { numRuns: 5 });
  });
});

describe('bursts of sign-in tries', () => {
  it('check no more passwords of one account from one address than the limit lets through', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 2, max: 30 }),
        async (perAccount, burst) => {
          const guard = createLoginGuard(createLimiters(undefined), {
            perAccount,
            perAddress: 1_000,
            timeWindowMs: 60_000,
          });
          const attempts = await Promise.all(
            Array.from({ length: burst }, () => guard.begin('burst@acme.test', '203.0.113.9')),
          );
          const checked = attempts.filter((attempt) => attempt.allowed);
          await Promise.all(checked.map((attempt) => attempt.allowed && attempt.settle('failure')));
          // `perAccount` tries in a row, then one try per wait: never the whole burst at once.
          expect(checked.length).toBeLessThanOrEqual(Math.min(burst, perAccount + 1));
          for (const attempt of attempts)
            if (!attempt.allowed) expect(attempt.retryAfterSeconds).toBeGreaterThan(0);
        },
      ),
      RUNS,
    );
  });
});
