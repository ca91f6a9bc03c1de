/**
 * The SMS gateway adapter (docs/decisions/0159-sms-gateway-twilio.md): the second-channel code of a guided call
 * goes to Twilio's Messages API (a local fake of it) after the `sms_outbox` row; a refusal or an outage of the
 * gateway leaves the caller's answer alone and is logged; the code reaches neither the row nor the log.
 */
import { tmpdir } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDENT_PROCEDURE, type IdentProcedureBody } from '#contract/identProcedure';
import { loadConfig } from '../../server/config';
import { profiles } from '../../server/db/schema';
import { createDbSmsOutbox } from '../../server/integrations/sms';
import { createTwilioSmsSender, type SmsGatewayError } from '../../server/integrations/twilioSms';
import { type FakeTwilio, startFakeTwilio } from '../support/fakeTwilio';
import {
  bearer,
  get,
  PASSWORDS,
  post,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-for-tests';
const FROM = '+15005550006';
const PHONE = '+90 555 010 2043';
const ENV = { DATA_DIR: tmpdir(), JWT_SECRET: 'test-secret-that-is-long-enough-0123456789' };

let fake: FakeTwilio;
let t: TestApp;
let agent = '';
let agentId = 0;
const profile = 1;
const logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeTwilio(SID, TOKEN);
  // Selected as in production: by the settings.
  const { twilio } = loadConfig({
    ...ENV,
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE: fake.url,
  });
  t = await startTestApp(
    { twilio, logLevel: 'info' },
    { logStream: { write: (line) => logLines.push(line) } },
  );
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
  await t.app.ctx.db.update(profiles).set({ phone: PHONE }).where(eq(profiles.id, profile));
  // The guided procedure's second-channel code goes by SMS.
  const body: IdentProcedureBody = structuredClone({ ...DEFAULT_IDENT_PROCEDURE, guided: true });
  body.steps = body.steps.map((s) =>
    s.kind === 'second_channel_code' ? { ...s, channel: 'sms' as const, max_tries: 3 } : s,
  );
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/ident_procedure',
    payload: body,
    headers: { ...bearer(admin), 'if-match': '*' },
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failWith = null;
});

/** The agent sends the code in a call answered now; answers the route's status and the call. */
async function sendCode() {
  const call = await talkingCall(t.app, agentId, profile);
  const sent = await post<{ channel: string; to: string }>(
    t.app,
    `/api/v2/videocall/${call.callId}/code`,
    {},
    agent,
  );
  return { ...call, sent };
}
const storedBodies = async () =>
  JSON.stringify(await t.app.ctx.db.execute(sql`select body from sms_outbox where "to" = ${PHONE}`));

describe('the Twilio SMS gateway', () => {
  it('delivers the code with the form fields and Basic credentials; the outbox row keeps it blanked', async () => {
    const before = fake.received.length;
    const { callId, customer, sent } = await sendCode();
    expect(sent).toMatchObject({ status: 200, body: { channel: 'sms', to: '•••43' } });
    await expect.poll(() => fake.received.length).toBe(before + 1);
    const request = fake.received[before];
    expect(request?.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request?.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(request?.form).toMatchObject({ To: PHONE, From: FROM });
    const code = /\b(\d{6})\b/.exec(request?.form.Body ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    // The customer types what reached their phone.
    const entered = await post<{ accepted: boolean }>(
      t.app,
      '/api/v2/videocall/code',
      { call_id: callId, code },
      customer,
    );
    expect(entered.body.accepted).toBe(true);
    // Listed like the mail outbox, without the code in the database.
    const listed = await get<{ to: string; body: string }[]>(
      t.app,
      `/api/dev/sms?to=${encodeURIComponent(PHONE)}`,
    );
    expect(listed.body[0]?.to).toBe(PHONE);
    expect(await storedBodies()).toContain('••••••');
    expect(await storedBodies()).not.toContain(code);
    expect(logLines.join('\n')).not.toContain(code);
  });

  for (const status of [400, 503]) {
    it(`a ${status} from the gateway leaves the caller's answer alone and is logged without the code`, async () => {
      fake.failWith = status;
      // A gateway that echoes the refused text: the log must still not carry the code.
      fake.failMessage = "The 'Body' {Body} is refused";
      const before = fake.received.length;
      const logged = logLines.length;
      const { sent } = await sendCode();
      expect(sent.status).toBe(200);
      await expect.poll(() => logLines.slice(logged).some((line) => line.includes('sms failed'))).toBe(true);
      const code = /\b(\d{6})\b/.exec(fake.received[before]?.form.Body ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const line = logLines.slice(logged).find((l) => l.includes('sms failed')) ?? '';
      expect(line).toContain(`SMS gateway answered ${status}: 21211 The 'Body'`);
      expect(line).not.toContain(code);
      expect(logLines.join('\n')).not.toContain(code);
      expect(await storedBodies()).not.toContain(code);
    });
  }

  it('an unreachable gateway goes to onError without the code, the message kept in the outbox', async () => {
    const errors: SmsGatewayError[] = [];
    const sender = createTwilioSmsSender(createDbSmsOutbox(t.app.ctx.db), {
      accountSid: SID,
      authToken: TOKEN,
      from: FROM,
      apiBase: 'http://127.0.0.1:9',
      onError: (error) => errors.push(error),
    });
    await sender.send({ to: '+90 555 010 2099', body: 'Your code: 654321', code: '654321' });
    await expect.poll(() => errors.length).toBe(1);
    expect(errors[0]?.message).toMatch(/^SMS gateway unreachable/);
    expect(errors[0]?.message).not.toContain('654321');
    const rows = await t.app.ctx.db.execute(sql`select body from sms_outbox where "to" = '+90 555 010 2099'`);
    expect(JSON.stringify(rows)).toContain('Your code: ••••••');
  });
});

describe('the Twilio settings', () => {
  it('need all three or none; a partial set or a malformed one stops the start', () => {
    expect(loadConfig(ENV).twilio).toBeUndefined();
    expect(() => loadConfig({ ...ENV, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN })).toThrow(
      'Twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM (missing: TWILIO_FROM)',
    );
    expect(() =>
      loadConfig({ ...ENV, TWILIO_ACCOUNT_SID: 'nope', TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: FROM }),
    ).toThrow('TWILIO_ACCOUNT_SID must be an account SID');
    expect(() =>
      loadConfig({ ...ENV, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '0555' }),
    ).toThrow('TWILIO_FROM must be a number in E.164');
    expect(() => loadConfig({ ...ENV, TWILIO_API_BASE: fake.url })).toThrow('TWILIO_API_BASE needs');
  });
});
