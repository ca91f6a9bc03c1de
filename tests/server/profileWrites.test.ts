import { and, asc, desc, eq, lt } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_STATUSES, type ProfileStatus } from '#contract/common';
import type { ChecklistGroup, LogEntry, Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import type { StatusChangeResponse } from '#contract/profileWrites';
import { DAY_MS } from '#contract/time';
import {
  checklistGroups,
  checklistQuestions,
  companies,
  profileLogs,
  profiles,
  supportMessages,
} from '../../server/db/schema';
import { canTransition, STATUS_TRANSITIONS } from '../../server/domain/profileWrites';
import { installAccessControl } from '../../server/http/access';
import { installErrorHandling } from '../../server/http/errors';
import { createLocalSummariser, factsOf, topicsOf } from '../../server/integrations/summariser';
import { profileWriteRoutes, SUMMARY_FAILED } from '../../server/routes/profileWrites';
import { bearer, get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
const tokens = { admin: '', user: '', restricted: '', globex: '' };
let acmeId = 0;
let globexId = 0;
let globexProfileId = 0;
let startedAt = new Date();

beforeAll(async () => {
  t = await startTestApp();
  startedAt = new Date();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.restricted = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const db = t.app.ctx.db;
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  acmeId = acme?.id ?? 0;
  globexId = globex?.id ?? 0;
  const [gp] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, globex?.id ?? 0));
  globexProfileId = gp?.id ?? 0;
});
afterAll(() => t.close());

async function send<T = unknown>(method: 'PATCH' | 'POST', url: string, payload: unknown, token?: string) {
  const response = await t.app.inject({
    method,
    url: `/api/v2${url}`,
    payload: payload as object,
    headers: token ? bearer(token) : {},
  });
  return { status: response.statusCode, body: response.json() as T };
}

let serial = 0;
/** A fresh Acme profile (through the API), optionally put straight into a status. */
async function freshProfile(status?: ProfileStatus): Promise<Profile> {
  serial += 1;
  const { status: code, body } = await send<Profile>(
    'POST',
    '/profile',
    { id_card_number: `T-${Date.now()}-${serial}`, name: 'Test Person', gender: 'F' },
    tokens.admin,
  );
  expect(code).toBe(201);
  if (status) await t.app.ctx.db.update(profiles).set({ status }).where(eq(profiles.id, body.id));
  return body;
}

const changeStatus = (id: number, status: string, reject_reason?: string, token = tokens.user) =>
  send<StatusChangeResponse & { detail?: string }>(
    'PATCH',
    `/profile/${id}/status`,
    reject_reason === undefined ? { status } : { status, reject_reason },
    token,
  );

const logsOf = async (id: number) =>
  (await get<{ results: LogEntry[] }>(t.app, `/api/v2/profile/${id}/logs`, tokens.admin)).body.results;

const rowOf = async (id: number) => {
  const [row] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, id));
  if (!row) throw new Error(`no profile ${id}`);
  return row;
};

const REASON = 'Document appears forged';

describe('the transition table', () => {
  it('never allows a status to itself, nothing returns to Created, and Approved needs a review state', () => {
    for (const from of PROFILE_STATUSES) {
      expect(canTransition(from, from)).toBe(false);
      expect(canTransition(from, 'Created')).toBe(false);
    }
    const approvedFrom = PROFILE_STATUSES.filter((s) => canTransition(s, 'Approved'));
    expect(approvedFrom).toEqual([
      'Pending Review',
      'Pending Approval',
      'Temporarily Approved',
      'Temp. Approval Expired',
    ]);
    for (const open of ['Created', 'Incomplete', 'Pending Upload', 'Pending Review', 'Approved'] as const) {
      expect(STATUS_TRANSITIONS[open]).toEqual(
        expect.arrayContaining(['Rejected', 'Blacklisted', 'Inactive']),
      );
    }
    expect(STATUS_TRANSITIONS.Blacklisted).toEqual(['Pending Review']);
    expect(Object.keys(STATUS_TRANSITIONS)).toEqual([...PROFILE_STATUSES]);
  });
});

describe('PATCH /profile/{id}/status', () => {
  it('moves along an allowed path, updates the row and writes a log each time', async () => {
    const p = await freshProfile();
    const path: ProfileStatus[] = ['Pending Upload', 'Pending Review', 'Pending Approval', 'Approved'];
    for (const status of path) {
      const { status: code, body } = await changeStatus(p.id, status);
      expect(code).toBe(200);
      expect(body).toEqual({ result: true, status });
    }
    const row = await rowOf(p.id);
    expect(row.status).toBe('Approved');
    expect(row.lastStatusDate?.getTime()).toBeGreaterThanOrEqual(new Date(p.created_at).getTime());
    const logs = (await logsOf(p.id)).filter((l) => l.action === 'status_changed');
    expect(logs.map((l) => l.message)).toEqual([
      'Status changed from Pending Approval to Approved',
      'Status changed from Pending Review to Pending Approval',
      'Status changed from Pending Upload to Pending Review',
      'Status changed from Created to Pending Upload',
    ]);
    expect(logs[0]?.actor?.name).toBeTruthy();
    expect(logs[0]?.data).toEqual({ from: 'Pending Approval', to: 'Approved' });
  });

  it.each([
    ['Created', 'Approved'],
    ['Pending Upload', 'Temporarily Approved'],
    ['Rejected', 'Approved'],
    ['Blacklisted', 'Approved'],
    ['Inactive', 'Approved'],
    ['Approved', 'Created'],
    ['Pending Review', 'Pending Review'],
  ] as [ProfileStatus, ProfileStatus][])(
    'refuses %s → %s with result false and changes nothing',
    async (from, to) => {
      const p = await freshProfile(from);
      const before = await rowOf(p.id);
      const logCount = (await logsOf(p.id)).length;
      const { status, body } = await changeStatus(p.id, to);
      expect(status).toBe(200);
      expect(body).toEqual({ result: false, status: from, detail: 'Status change failed' });
      expect(await rowOf(p.id)).toEqual(before);
      expect(await logsOf(p.id)).toHaveLength(logCount);
    },
  );

  it.each([
    ['Temporarily Approved', 'Temp. Approval Expired'],
    ['Temp. Approval Expired', 'Approved'],
    ['Rejected', 'Pending Review'],
    ['Blacklisted', 'Pending Review'],
    ['Inactive', 'Incomplete'],
    ['Approved', 'Pending Review'],
  ] as [ProfileStatus, ProfileStatus][])('allows %s → %s', async (from, to) => {
    const p = await freshProfile(from);
    expect((await changeStatus(p.id, to)).body).toEqual({ result: true, status: to });
    expect((await rowOf(p.id)).status).toBe(to);
  });

  it('needs a reject reason of at least 10 characters for Rejected and Blacklisted', async () => {
    const p = await freshProfile('Pending Review');
    for (const reason of [undefined, '', '   short   ', '123456789']) {
      const { status, body } = await changeStatus(p.id, 'Rejected', reason);
      expect(status).toBe(400);
      expect(body.detail).toBe('Reject reason must be at least 10 characters');
    }
    expect((await changeStatus(p.id, 'Blacklisted', 'nope')).status).toBe(400);
    expect((await rowOf(p.id)).status).toBe('Pending Review');

    const { body } = await changeStatus(p.id, 'Rejected', `  ${REASON}  `);
    expect(body).toEqual({ result: true, status: 'Rejected' });
    expect((await rowOf(p.id)).rejectReason).toBe(REASON);
    const [log] = await logsOf(p.id);
    expect(log?.data).toEqual({ from: 'Pending Review', to: 'Rejected', reject_reason: REASON });
    // Reopening clears the reason.
    await changeStatus(p.id, 'Pending Review');
    expect((await rowOf(p.id)).rejectReason).toBeNull();
  });

  it('refuses Restricted User (403), another company (404), unknown statuses (400), no token (401)', async () => {
    const p = await freshProfile('Pending Review');
    const restricted = await changeStatus(p.id, 'Approved', undefined, tokens.restricted);
    expect(restricted).toEqual({
      status: 403,
      body: { detail: 'You do not have permission to perform this action' },
    });
    expect((await changeStatus(p.id, 'Approved', undefined, tokens.globex)).status).toBe(404);
    expect((await changeStatus(globexProfileId, 'Inactive')).status).toBe(404);
    // Refused before the body is read: a Restricted User learns nothing from validation.
    expect((await changeStatus(p.id, 'Done', undefined, tokens.restricted)).status).toBe(403);
    expect((await changeStatus(p.id, 'Done')).status).toBe(400);
    expect(
      (await send('PATCH', `/profile/${p.id}/status`, { status: 'Approved', extra: 1 }, tokens.user)).status,
    ).toBe(400);
    expect((await changeStatus(p.id, 'Approved', undefined, '')).status).toBe(401);
    expect((await rowOf(p.id)).status).toBe('Pending Review');
  });

  it('reaches the list count at once', async () => {
    const count = async () =>
      (await get<{ count: number }>(t.app, '/api/v2/profile?status=Inactive&limit=1', tokens.admin)).body
        .count;
    const before = await count();
    const p = await freshProfile('Approved');
    await changeStatus(p.id, 'Inactive');
    expect(await count()).toBe(before + 1);
  });
});

describe('POST /profile', () => {
  it('creates a Created, Unknown-risk studio profile with a log entry', async () => {
    const { status, body } = await send<Profile>(
      'POST',
      '/profile',
      { id_card_number: ' 12345678901 ', name: 'Ada Lovelace', gender: 'F' },
      tokens.user,
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      id_card_number: '12345678901',
      name: 'Ada Lovelace',
      gender: 'F',
      status: 'Created',
      risk_level: 'Unknown',
      source: 'studio',
      company: acmeId,
      address: { province: null, city: null, street: null },
    });
    expect((await get(t.app, `/api/v2/profile/${body.id}`, tokens.user)).status).toBe(200);
    const logs = await logsOf(body.id);
    expect(logs.map((l) => l.action)).toEqual(['profile_created']);
  });

  it('refuses a duplicate id card number in the same company but not in another', async () => {
    const payload = { id_card_number: 'DUP-0001', name: null, gender: null };
    expect((await send('POST', '/profile', payload, tokens.admin)).status).toBe(201);
    expect(await send('POST', '/profile', payload, tokens.user)).toEqual({
      status: 400,
      body: { detail: 'A profile with this id card number already exists' },
    });
    expect((await send('POST', '/profile', payload, tokens.globex)).status).toBe(201);
  });

  it('lets only one of two simultaneous creations with the same number through', async () => {
    const payload = { id_card_number: 'RACE-0001' };
    const answers = await Promise.all([
      send('POST', '/profile', payload, tokens.admin),
      send('POST', '/profile', payload, tokens.user),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
  });

  it('accepts a quick add and refuses missing or too long id card numbers', async () => {
    const quick = await send<Profile>(
      'POST',
      '/profile',
      { id_card_number: 'qa_Ab3De6Gh9Jk2', name: null, gender: null },
      tokens.user,
    );
    expect(quick.status).toBe(201);
    expect(quick.body).toMatchObject({ id_card_number: 'qa_Ab3De6Gh9Jk2', name: null, gender: null });
    for (const payload of [
      {},
      { id_card_number: '' },
      { id_card_number: '   ' },
      { id_card_number: 'x'.repeat(65) },
    ]) {
      const { status, body } = await send<{ detail: string }>('POST', '/profile', payload, tokens.user);
      expect(status).toBe(400);
      expect(body.detail).toContain('id_card_number');
    }
    expect((await send('POST', '/profile', { id_card_number: 'R-1' }, tokens.restricted)).status).toBe(403);
  });
});

describe('PATCH /profile/{id}', () => {
  const edit = (id: number, payload: unknown, token = tokens.user) =>
    send<Profile & { detail?: string }>('PATCH', `/profile/${id}`, payload, token);

  it('saves the given fields and logs their names', async () => {
    const p = await freshProfile();
    const { status, body } = await edit(p.id, {
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+90 555 123 45 67',
      nationality: 'TR',
      date_of_birth: '1990-12-09',
      address: { province: 'Istanbul', city: 'Kadikoy', street: 'Moda Cd. 1' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      date_of_birth: '1990-12-09',
      address: { province: 'Istanbul', city: 'Kadikoy', street: 'Moda Cd. 1' },
    });
    const [log] = await logsOf(p.id);
    expect(log?.action).toBe('profile_updated');
    expect(log?.data).toEqual({
      fields: ['name', 'email', 'phone', 'nationality', 'date_of_birth', 'address'],
    });

    // Sending the same values again changes nothing and logs nothing.
    const count = (await logsOf(p.id)).length;
    expect((await edit(p.id, { name: 'Grace Hopper', address: body.address })).status).toBe(200);
    expect(await logsOf(p.id)).toHaveLength(count);
    // Blank text clears a field.
    expect((await edit(p.id, { email: '' })).body.email).toBeNull();
  });

  it('needs every address part when the address changes', async () => {
    const p = await freshProfile();
    for (const address of [
      { province: 'Istanbul', city: 'Kadikoy', street: '' },
      { province: 'Istanbul', city: null, street: 'Moda' },
      { province: 'Istanbul' },
    ]) {
      expect(await edit(p.id, { name: 'Changed', address })).toEqual({
        status: 400,
        body: { detail: 'Please enter address details' },
      });
    }
    expect((await rowOf(p.id)).name).toBe('Test Person');
    // An empty address sent unchanged (a form without address) is not a change.
    const same = await edit(p.id, { name: 'Changed', address: { province: null, city: null, street: null } });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe('Changed');
  });

  it('checks e-mail, dates and unknown fields', async () => {
    const p = await freshProfile();
    const bad = await edit(p.id, { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('This is not a valid e-mail address.');
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    expect((await edit(p.id, { date_of_birth: tomorrow })).body.detail).toContain('can not be in the future');
    expect((await edit(p.id, { date_of_birth: '1990-02-30' })).status).toBe(400);
    expect((await edit(p.id, { date_of_birth: '09/12/1990' })).status).toBe(400);
    expect((await edit(p.id, { status: 'Approved' })).status).toBe(400);
    expect((await edit(p.id, { address: { province: 'a', city: 'b', street: 'c', zip: '1' } })).status).toBe(
      400,
    );
    expect((await edit(p.id, { phone: 'call me maybe' })).status).toBe(400);
    expect((await edit(p.id, { date_of_birth: null })).status).toBe(200);
  });

  it('refuses Restricted User and other companies', async () => {
    const p = await freshProfile();
    expect((await edit(p.id, { name: 'X' }, tokens.restricted)).status).toBe(403);
    expect((await edit(p.id, { name: 'X' }, tokens.globex)).status).toBe(404);
    expect((await rowOf(p.id)).name).toBe('Test Person');
  });
});

describe('notes', () => {
  it('adds notes and agent notes for every role, 10 to 200 characters after trimming', async () => {
    const p = await freshProfile();
    const note = await send<Note>(
      'POST',
      `/profile/${p.id}/note`,
      { note: '  Customer asked for an update.  ' },
      tokens.restricted,
    );
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ profile: p.id, kind: 'note', note: 'Customer asked for an update.' });
    expect(note.body.author?.id).toBeGreaterThan(0);
    const agent = await send<Note>(
      'POST',
      `/profile/${p.id}/agent_note`,
      { note: 'x'.repeat(200) },
      tokens.user,
    );
    expect(agent.status).toBe(201);
    expect(agent.body.kind).toBe('agent');
    const listed = await get<Note[]>(t.app, `/api/v2/profile/${p.id}/note`, tokens.admin);
    expect(listed.body.map((n) => n.id).sort()).toEqual([note.body.id, agent.body.id].sort());
    expect((await logsOf(p.id)).filter((l) => l.action === 'note_added')).toHaveLength(2);

    for (const text of ['too short', `   ${'y'.repeat(9)}   `, 'z'.repeat(201)]) {
      expect((await send('POST', `/profile/${p.id}/note`, { note: text }, tokens.user)).status).toBe(400);
    }
    expect((await send('POST', `/profile/${p.id}/note`, { note: 'y'.repeat(10) }, tokens.user)).status).toBe(
      201,
    );
    expect(
      (await send('POST', `/profile/${p.id}/note`, { note: 'A note from abroad.' }, tokens.globex)).status,
    ).toBe(404);
  });
});

describe('POST /profile/{id}/answer', () => {
  it('upserts one answer per question and refuses questions of another company', async () => {
    const p = await freshProfile();
    const db = t.app.ctx.db;
    const [question] = await db
      .select({ id: checklistQuestions.id })
      .from(checklistQuestions)
      .innerJoin(checklistGroups, eq(checklistGroups.id, checklistQuestions.groupId))
      .where(eq(checklistGroups.companyId, acmeId))
      .orderBy(asc(checklistQuestions.id));
    const [foreign] = await db
      .select({ id: checklistQuestions.id })
      .from(checklistQuestions)
      .innerJoin(checklistGroups, eq(checklistGroups.id, checklistQuestions.groupId))
      .where(eq(checklistGroups.companyId, globexId));
    const qid = question?.id ?? 0;
    const first = await send(
      'POST',
      `/profile/${p.id}/answer`,
      { question: qid, value: true, note: 'Looks right' },
      tokens.user,
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: qid, answer: true, note: 'Looks right' });
    const second = await send(
      'POST',
      `/profile/${p.id}/answer`,
      { question: qid, value: false },
      tokens.user,
    );
    expect(second.body).toMatchObject({ id: qid, answer: false, note: 'Looks right' });
    const cleared = await send(
      'POST',
      `/profile/${p.id}/answer`,
      { question: qid, value: false, note: null },
      tokens.user,
    );
    expect(cleared.body).toMatchObject({ answer: false, note: null });

    const groups = (await get<ChecklistGroup[]>(t.app, `/api/v2/profile/${p.id}/checklist`, tokens.user))
      .body;
    const answered = groups.flatMap((g) => g.questions).filter((q) => q.answer !== null);
    expect(answered).toEqual([expect.objectContaining({ id: qid, answer: false })]);

    expect(
      (await send('POST', `/profile/${p.id}/answer`, { question: foreign?.id, value: true }, tokens.user))
        .status,
    ).toBe(404);
    expect(
      (await send('POST', `/profile/${p.id}/answer`, { question: qid, value: 'yes' }, tokens.user)).status,
    ).toBe(400);
    expect(
      (
        await send(
          'POST',
          `/profile/${p.id}/answer`,
          { question: qid, value: true, note: 'n'.repeat(201) },
          tokens.user,
        )
      ).status,
    ).toBe(400);
    expect(
      (await send('POST', `/profile/${p.id}/answer`, { question: qid, value: true }, tokens.restricted))
        .status,
    ).toBe(403);
    expect(
      (await send('POST', `/profile/${globexProfileId}/answer`, { question: qid, value: true }, tokens.user))
        .status,
    ).toBe(404);
    expect((await logsOf(p.id)).filter((l) => l.action === 'checklist_answered')).toHaveLength(3);
  });
});

describe('POST /profile/{id}/generate_summary', () => {
  const ask = (id: number, question: string, token = tokens.user) =>
    send<{ summary: string; detail?: string }>(
      'POST',
      `/profile/${id}/generate_summary`,
      { question },
      token,
    );

  it('answers from the profile data: status, reason, documents, AML, notes', async () => {
    const p = await freshProfile('Pending Review');
    await changeStatus(p.id, 'Rejected', REASON);
    await send('POST', `/profile/${p.id}/note`, { note: 'Customer sent a blurry passport.' }, tokens.user);
    const why = await ask(p.id, 'Why was this customer rejected?');
    expect(why.status).toBe(200);
    expect(why.body.summary).toContain('Test Person is Rejected');
    expect(why.body.summary).toContain(REASON);
    expect(why.body.summary).toContain('No documents have been uploaded.');
    expect(why.body.summary).toContain('no AI model');
    const notes = await ask(p.id, 'What do the staff notes say?');
    expect(notes.body.summary.split('\n\n')[0]).toContain('Customer sent a blurry passport.');
  });

  it('describes the documents, checks and AML of a seeded profile', async () => {
    const db = t.app.ctx.db;
    // Seeded Acme profile 6 (index 6: Temporarily Approved, with documents and an AML sanctions hit).
    const [row] = await db
      .select()
      .from(profiles)
      .where(and(eq(profiles.companyId, acmeId), lt(profiles.createdAt, startedAt)))
      .orderBy(desc(profiles.createdAt))
      .offset(6)
      .limit(1);
    const id = row?.id ?? 0;
    const aml = await ask(id, 'Is there any AML sanctions hit?');
    expect(aml.status).toBe(200);
    const firstParagraph = aml.body.summary.split('\n\n')[0] ?? '';
    expect(firstParagraph).toMatch(/AML screening (found|is clear)/);
    const docs = await ask(id, 'Which documents were uploaded?');
    expect(docs.body.summary.split('\n\n')[0]).toMatch(/It has \d documents?: /);
    expect(docs.body.summary).toContain(row?.status ?? '?');
  });

  it('needs a question of at least 10 characters, the profile in the company', async () => {
    const p = await freshProfile();
    expect((await ask(p.id, '   short   ')).status).toBe(400);
    expect((await ask(p.id, 'What is the risk here?', tokens.globex)).status).toBe(404);
    expect((await ask(p.id, 'What is the risk here?', tokens.restricted)).status).toBe(200);
  });

  it('answers 502 when the summariser fails', async () => {
    const app: FastifyInstance = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandling(app);
    installAccessControl(app, t.app.ctx, ['/api/']);
    await app.register(
      profileWriteRoutes(t.app.ctx, {
        summariser: {
          name: 'broken',
          summarise: () => Promise.reject(new Error('model endpoint down')),
        },
      }),
      { prefix: '/api/v2' },
    );
    const p = await freshProfile();
    const response = await app.inject({
      method: 'POST',
      url: `/api/v2/profile/${p.id}/generate_summary`,
      payload: { question: 'What is the risk here?' },
      headers: bearer(tokens.user),
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ detail: SUMMARY_FAILED });
    await app.close();
  });

  it('local rules pick topics from the question words', async () => {
    expect(topicsOf('Is there a sanctions hit in the AML screening?')[0]).toBe('aml');
    expect(topicsOf('Which fraud alerts failed?')[0]).toBe('checks');
    expect(topicsOf('Hello there, anything?')).toEqual([]);
    const facts = {
      profile: {
        id: 1,
        name: 'Ada',
        idCardNumber: '1',
        status: 'Approved',
        riskLevel: 'Low',
        rejectReason: null,
        nationality: 'GB',
        dateOfBirth: null,
        email: null,
        phone: null,
        source: 'sdk',
        createdAt: new Date('2026-01-01T00:00:00Z'),
        lastStatusDate: null,
      },
      documents: [
        {
          id: 1,
          documentClass: 'PA',
          typeName: null,
          status: 'approved',
          archived: false,
          expiryDate: null,
          checks: { document: { result: 'passed' }, fraud: { result: 'failed' } },
          alerts: [{ name: 'Possible photo tampering', result: 'failed', overridden: false }],
        },
      ],
      aml: null,
      calls: [{ status: 3, startedAt: null }],
      logs: [],
      notes: [],
    };
    const texts = factsOf(facts).map((f) => f.text);
    expect(texts).toContain('It has 1 document: passport (approved).');
    expect(texts).toContain('Failed: fraud check of the passport.');
    expect(texts).toContain('Open alerts: Possible photo tampering.');
    expect(texts).toContain('There was 1 video call, the latest complete.');
    const summary = await createLocalSummariser().summarise(facts, 'Hello there, anything?');
    expect(summary).toContain('Ada is Approved.');
    expect(await createLocalSummariser().summarise(facts, 'Hello there, anything?')).toBe(summary);
  });
});

describe('POST /support/contact-us', () => {
  const outbox = async () =>
    (await get<{ subject: string; body: string }[]>(t.app, '/api/dev/outbox?to=support@idv-studio.local'))
      .body;

  it('stores and mails a message without a token', async () => {
    const { status, body } = await post<{ id: number }>(t.app, '/api/v2/support/contact-us', {
      email: 'visitor@example.com',
      message: 'I cannot log in to the studio.',
      page: '/login',
    });
    expect(status).toBe(201);
    const [row] = await t.app.ctx.db.select().from(supportMessages).where(eq(supportMessages.id, body.id));
    expect(row).toMatchObject({ email: 'visitor@example.com', page: '/login', userId: null });
    const [mail] = await outbox();
    expect(mail?.subject).toBe(`Help desk message #${body.id} from /login`);
    expect(mail?.body).toContain('I cannot log in to the studio.');
    expect(mail?.body).toContain('User: not signed in');
  });

  it('records the user with a token, and checks e-mail and message length', async () => {
    const { status, body } = await post<{ id: number }>(
      t.app,
      '/api/v2/support/contact-us',
      { email: 'agent@acme.test', message: 'The profile page is slow today.', page: '/profile/5' },
      tokens.user,
    );
    expect(status).toBe(201);
    const [row] = await t.app.ctx.db.select().from(supportMessages).where(eq(supportMessages.id, body.id));
    expect(row?.userId).toBeGreaterThan(0);
    expect((await outbox())[0]?.body).toContain('User: agent@acme.test');

    const short = await post<{ detail: string }>(
      t.app,
      '/api/v2/support/contact-us',
      {
        email: 'agent@acme.test',
        message: '  too short ',
        page: '/',
      },
      tokens.user,
    );
    expect(short.status).toBe(400);
    const badEmail = await post<{ detail: string }>(
      t.app,
      '/api/v2/support/contact-us',
      {
        email: 'agent@',
        message: 'A long enough message.',
        page: '/',
      },
      tokens.user,
    );
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.detail).toContain('This is not a valid e-mail address.');
    const forged = await post(
      t.app,
      '/api/v2/support/contact-us',
      {
        email: 'agent@acme.test',
        message: 'A long enough message.',
        page: '/',
      },
      'not-a-token',
    );
    expect(forged.status).toBe(401);
  });
});

describe('transactions', () => {
  it('every write path logs in the same transaction: a refused write leaves no log', async () => {
    const p = await freshProfile();
    const before = await t.app.ctx.db.select().from(profileLogs).where(eq(profileLogs.profileId, p.id));
    await send(
      'PATCH',
      `/profile/${p.id}`,
      { name: 'X', address: { province: 'a', city: '', street: 'c' } },
      tokens.user,
    );
    await changeStatus(p.id, 'Rejected', 'short');
    const after = await t.app.ctx.db.select().from(profileLogs).where(eq(profileLogs.profileId, p.id));
    expect(after).toHaveLength(before.length);
  });
});
