/**
 * Erasure within retention: "Erase this person" removes at once what no duty keeps and the evidence already past
 * its retention, keeps the recent identification evidence until its day (shown with reason and date), and the
 * erasure job removes that on its day, safely when two runs race. Afterwards nothing of the person is found by the
 * search, the API, any text column of the database or the storage folder, the statistics are as they were, and
 * `profile.erased` is queued. A held profile is refused, naming the hold.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Erasure } from '#contract/privacy';
import { DAY_MS } from '#contract/time';
import {
  auditLog,
  documentPages,
  documents,
  documentTypes,
  reviewCaseEvents,
  reviewCases,
  reviewPendingDecisions,
  transactions,
  videoCalls,
  videoCallWhispers,
  webhookMessages,
} from '../../server/db/schema';
import { recordAudit } from '../../server/domain/audit';
import { rowsOf } from '../../server/domain/callReport';
import { runDueErasures } from '../../server/domain/erasure';
import { uploadDocument, uploadRecording } from './evidenceUploads';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

/** Text found nowhere else: every piece of the person carries it, so a search for it finds what is left. */
const MARK = 'Qwzxerasable';
const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from(`${MARK} voice`)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(MARK)]);
const REASON = 'Customer asked by e-mail on 2026-12-01';

let t: TestApp;
const tokens = { agent: '', admin: '' };
let agent = 0;
let retentionDays = 0;

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
  ]);
  agent = await userId(t.app, 'agent@acme.test');
  retentionDays = (
    await get<{ evidence_retention_days: number }>(t.app, '/api/v2/evidence/retention', tokens.admin)
  ).body.evidence_retention_days;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object, token = tokens.admin) =>
  t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), payload });
const erase = (profile: number, token = tokens.admin) =>
  send('POST', `/profile/${profile}/erasure`, { reason: REASON }, token);

/**
 * A person with everything: contact details (edited, so the audit log holds old values), a note, a transaction, a
 * review case escalated with a note and a decision waiting for a second reviewer with notes, a document uploaded
 * now and one uploaded past the retention, a call now (recording, screenshot, a supervisor's whisper) and a call
 * that ended past the retention (recording).
 */
async function person() {
  const created = await send('POST', '/profile', { id_card_number: `${MARK}-ID`, name: `${MARK} First` });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: number }>().id;
  const edited = await send('PATCH', `/profile/${id}`, {
    name: `${MARK} Person`,
    email: `${MARK.toLowerCase()}@example.test`,
    phone: '+90 555 000 11 22',
    address: { province: `${MARK} Province`, city: 'Ankara', street: `${MARK} Street 1` },
  });
  expect(edited.statusCode, edited.body).toBe(200);
  expect((await send('POST', `/profile/${id}/note`, { note: `${MARK} asked for erasure` })).statusCode).toBe(
    201,
  );
  await t.app.ctx.db.insert(transactions).values({
    profileId: id,
    occurredAt: new Date(),
    kind: 'transfer_in',
    amountMinor: 1000,
    currency: 'EUR',
    counterparty: `${MARK} Counterparty`,
    status: 'completed',
  });
  await reviewNotes(id);
  const [type] = await t.app.ctx.db.select().from(documentTypes).limit(1);
  const recentDoc = await uploadDocument(t.app, tokens.agent, {
    profile: id,
    type: type?.id ?? 1,
    page: PNG,
  });
  const oldDoc = await uploadDocument(t.app, tokens.agent, { profile: id, type: type?.id ?? 1, page: PNG });
  const past = new Date(Date.now() - (retentionDays + 10) * DAY_MS);
  await t.app.ctx.db.update(documents).set({ createdAt: past }).where(eq(documents.id, oldDoc));
  const recent = (await talkingCall(t.app, agent, id)).callId;
  await takeScreenshot(t.app, tokens.agent, recent, 'face_screenshot');
  await uploadRecording(t.app, tokens.agent, recent, RECORDING);
  await t.app.ctx.db
    .update(videoCalls)
    .set({
      consentAt: new Date(),
      consentText: `I, ${MARK}, agree`,
      consentIp: '192.0.2.9',
      callEndTime: new Date(),
    })
    .where(eq(videoCalls.id, recent));
  await whisper(recent, `${MARK} looks away from the camera`);
  const old = (await talkingCall(t.app, agent, id)).callId;
  await uploadRecording(t.app, tokens.agent, old, RECORDING);
  await t.app.ctx.db
    .update(videoCalls)
    .set({ callStartTime: new Date(past.getTime() - 60_000), callEndTime: past })
    .where(eq(videoCalls.id, old));
  return { id, recentDoc, oldDoc, recent, old };
}

/** The reviewers' notes on the person's case: an escalation's, and a four-eyes decision's and its checker's. */
async function reviewNotes(profile: number) {
  const status = await send('PATCH', `/profile/${profile}/status`, { status: 'Pending Review' });
  expect(status.statusCode, status.body).toBe(200);
  const [row] = await t.app.ctx.db.select().from(reviewCases).where(eq(reviewCases.profileId, profile));
  if (!row) throw new Error('no review case opened');
  const url = `/review/cases/${row.id}`;
  expect((await send('POST', `${url}/assign`, {}, tokens.agent)).statusCode).toBe(200);
  const escalated = await send(
    'POST',
    `${url}/decision`,
    {
      decision: 'escalate',
      reason_code: 'possible_fraud',
      note: `${MARK} shares a device with another profile`,
    },
    tokens.agent,
  );
  expect(escalated.statusCode, escalated.body).toBe(200);
  await t.app.ctx.db.insert(reviewPendingDecisions).values({
    caseId: row.id,
    companyId: 1,
    makerId: agent,
    decision: 'reject',
    note: `${MARK} used a forged passport`,
    outcome: 'returned',
    resolveNote: `${MARK}'s passport looks genuine`,
    resolvedAt: new Date(),
  });
}

/** A supervisor's whisper on the call, stored and audited as the watch stores it. */
async function whisper(callId: number, text: string) {
  const [row] = await t.app.ctx.db
    .insert(videoCallWhispers)
    .values({ callId, authorId: agent, authorName: 'Supervisor', text })
    .returning();
  await recordAudit(t.app.ctx.db, {
    companyId: 1,
    actorId: agent,
    object: 'videocall',
    objectId: callId,
    action: 'call_whisper_sent',
    after: { whisper: row?.id, text },
  });
}

/** Every stored key under the storage folder. */
function storedKeys(): string[] {
  const root = join(t.config.dataDir, 'storage');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

/** Every text or JSON column of every table, with the rows holding `needle`. */
async function foundInDatabase(needle: string): Promise<string[]> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await t.app.ctx.db.execute(sql`
      select table_name, column_name from information_schema.columns
       where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying')`),
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const result = await t.app.ctx.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table_name)}
           where ${sql.identifier(column_name)}::text ilike ${`%${needle}%`}`,
    );
    if ((rowsOf<{ n: number }>(result)[0]?.n ?? 0) > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

const statistics = async () =>
  rowsOf(
    await t.app.ctx.db.execute(
      sql`select 'calls' as t, company_id, day::text, agent_id, status::text as key, calls as n from call_rollups
          union all select source, company_id, day::text, null, key, n from dashboard_rollups order by 1, 2, 3, 4, 5`,
    ),
  );

describe('erasing a person', () => {
  it('refuses a held profile with 409 naming the hold, audited, and changes nothing', async () => {
    const created = await send('POST', '/profile', { id_card_number: 'HELD-1', name: 'Held Person' });
    const id = created.json<{ id: number }>().id;
    const hold = 'Court order 2026/44 keeps this file';
    expect((await send('PUT', `/profile/${id}/legal_hold`, { hold: true, reason: hold })).statusCode).toBe(
      200,
    );
    const refused = await erase(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ detail: string }>().detail).toContain(hold);
    const [audit] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'legal_hold_refused'), eq(auditLog.objectId, String(id))));
    expect(audit?.after).toMatchObject({ refused: 'profile_erasure_requested' });
    expect((await get<Erasure>(t.app, `/api/v2/profile/${id}/erasure`, tokens.admin)).body.status).toBe(
      'none',
    );
    expect((await get<{ name: string }>(t.app, `/api/v2/profile/${id}`, tokens.admin)).body.name).toBe(
      'Held Person',
    );
  });

  it('is for Admins, with a reason', async () => {
    expect((await erase(1, tokens.agent)).statusCode).toBe(403);
    expect((await send('POST', '/profile/1/erasure', { reason: 'short' })).statusCode).toBe(400);
    expect((await erase(999_999)).statusCode).toBe(404);
  });

  it('erases at once what no duty keeps, schedules the rest, and the job finishes it on its day', async () => {
    const p = await person();
    const keysBefore = storedKeys();
    const [oldDocPage] = await t.app.ctx.db
      .select({ key: documentPages.storageKey })
      .from(documentPages)
      .where(eq(documentPages.documentId, p.oldDoc));
    const [oldCall] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, p.old));
    const [recentCall] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, p.recent));
    const before = await statistics();

    const response = await erase(p.id);
    expect(response.statusCode, response.body).toBe(200);
    const scheduled = response.json<Erasure>();
    expect(scheduled).toMatchObject({ status: 'scheduled', reason: REASON, completed_at: null });
    expect(scheduled.retained.map((item) => [item.object, item.id, item.reason]).sort()).toEqual(
      [
        ['document', p.recentDoc, 'identification_evidence'],
        ['videocall', p.recent, 'identification_evidence'],
      ].sort(),
    );
    const until = Date.parse(scheduled.retained[0]?.until ?? '');
    expect(Math.abs(until - (Date.now() + retentionDays * DAY_MS))).toBeLessThan(DAY_MS);
    // Gone now: contact details, note, transaction, the old call's recording and the old document's page.
    const profile = (await get<Record<string, unknown>>(t.app, `/api/v2/profile/${p.id}`, tokens.admin)).body;
    expect(profile).toMatchObject({ email: null, phone: null });
    expect(profile.name).toBe(`${MARK} Person`);
    expect((await get<unknown[]>(t.app, `/api/v2/profile/${p.id}/note`, tokens.admin)).body).toEqual([]);
    expect(storedKeys()).not.toContain(oldCall?.recordingKey);
    expect(storedKeys()).not.toContain(oldDocPage?.key);
    expect(storedKeys()).toContain(recentCall?.recordingKey);
    expect((await erase(p.id)).statusCode).toBe(409);
    // The reviewers' notes went with the profile's notes; the whisper stays with the kept call until its day.
    const foundNow = await foundInDatabase(MARK);
    expect(foundNow.filter((column) => column.startsWith('review_'))).toEqual([]);
    expect(foundNow).toContain('video_call_whispers.text');
    const [caseNow] = await t.app.ctx.db.select().from(reviewCases).where(eq(reviewCases.profileId, p.id));
    expect(caseNow?.state).toBe('escalated');
    const steps = await t.app.ctx.db
      .select({ data: reviewCaseEvents.data })
      .from(reviewCaseEvents)
      .where(and(eq(reviewCaseEvents.caseId, caseNow?.id ?? 0), eq(reviewCaseEvents.kind, 'escalated')));
    expect(steps.map((step) => step.data)).toEqual([
      expect.objectContaining({ reason_code: 'possible_fraud', note: '[erased]' }),
    ]);

    // Not yet due: the job keeps it.
    expect(await runDueErasures(t.app.ctx.db, t.app.ctx.storage)).toBe(0);
    // On its day, two processes' runs at once: each item goes once.
    const day = new Date(Date.now() + (retentionDays + 1) * DAY_MS);
    const runs = await Promise.all([
      runDueErasures(t.app.ctx.db, t.app.ctx.storage, day),
      runDueErasures(t.app.ctx.db, t.app.ctx.storage, day),
    ]);
    expect(runs[0] + runs[1]).toBe(2);
    const erased = (await get<Erasure>(t.app, `/api/v2/profile/${p.id}/erasure`, tokens.admin)).body;
    expect(erased).toMatchObject({ status: 'erased', retained: [] });
    const completions = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'profile_erased'), eq(auditLog.objectId, String(p.id))));
    expect(completions).toHaveLength(1);
    const hooks = await t.app.ctx.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.eventType, 'profile.erased'));
    // (The demo seed has deliveries of every event type; this person's is one.)
    expect(hooks.filter((hook) => JSON.parse(hook.body).data.profile_id === p.id)).toHaveLength(1);

    // Nothing of the person: search, API, database, storage. The statistics are what they were.
    const search = await get<{ results: unknown[] }>(t.app, `/api/v2/profile?search=${MARK}`, tokens.admin);
    expect(search.body.results).toEqual([]);
    expect(JSON.stringify((await get(t.app, `/api/v2/profile/${p.id}`, tokens.admin)).body)).not.toContain(
      MARK,
    );
    // The name, the e-mail, the notes, the reviewers' notes and the whisper all carry the mark (found in any case).
    expect(await foundInDatabase(MARK)).toEqual([]);
    const whispers = await t.app.ctx.db
      .select({ text: videoCallWhispers.text, author: videoCallWhispers.authorName })
      .from(videoCallWhispers)
      .where(eq(videoCallWhispers.callId, p.recent));
    expect(whispers).toEqual([{ text: '[erased]', author: 'Supervisor' }]);
    const removed = keysBefore.filter((key) => !storedKeys().includes(key));
    expect(storedKeys()).not.toContain(recentCall?.recordingKey);
    expect(removed.length).toBeGreaterThanOrEqual(5);
    expect(await statistics()).toEqual(before);
    // Three searches of every text column of the database: room for a loaded machine.
  }, 180_000);
});
