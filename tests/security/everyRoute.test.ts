/**
 * No route goes around four-eyes or a legal hold. Every write route of the OpenAPI document that touches a
 * profile, a call, a document or evidence is listed below with what it may do, and every one is fired, by an
 * Admin (who may do the most), at a High-risk profile under a legal hold whose evidence is in place: a call with
 * its recording and a screenshot, and a document. After each request the evidence is as it was (files included)
 * and the profile is not Approved. Routes that would delete or change evidence must answer 409. A route added
 * later fails the first test until it is listed here, and so walked.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '#contract/time';
import {
  documentPages,
  documents,
  documentTypes,
  profiles,
  videoCallScreenshots,
  videoCalls,
} from '../../server/db/schema';
import { runEvidenceRetention } from '../../server/domain/evidenceRetention';
import { uploadDocument, uploadRecording } from '../server/evidenceUploads';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  TEST_JPEG,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

/** Write routes whose path names one of these touch a profile, a call, a document or evidence. */
const IN_SCOPE = /\/(profile|videocall|document|evidence|review|aml|entity|entities|transaction)/;
const WRITES = ['post', 'put', 'patch', 'delete'] as const;

/** The ids a route's path and body are filled with. */
interface Ids {
  profile: number;
  call: number;
  document: number;
  screenshot: number;
  reviewCase: number;
  documentType: number;
  queue: number;
  admin: number;
}

/**
 * What each route may do to the held, High-risk profile, and the request that tries it:
 * - `evidence`: deletes or changes evidence; under the hold it must answer 409;
 * - `status`: may change the profile's status; four-eyes must keep it from Approved;
 * - `other`: neither (a note, a decision on a document, a new upload): it runs, and the evidence and status
 *   are checked all the same.
 * `body` is what a caller who means it would send; a route without one gets an empty object.
 */
type Entry = {
  does: 'evidence' | 'status' | 'other';
  body?: (ids: Ids) => unknown;
  /** A request that is not JSON (an upload): its content type, body and query. */
  raw?: (ids: Ids) => { type: string; payload: Buffer; query?: string };
};
const NOTE = 'Checked against the held file';
const ROUTES: Record<string, Entry> = {
  'POST /api/v2/profile': {
    does: 'other',
    body: () => ({ id_card_number: `ROUTES-${randomUUID().slice(0, 8)}` }),
  },
  'PATCH /api/v2/profile/{id}': { does: 'other', body: () => ({ name: 'Renamed While Held' }) },
  'PATCH /api/v2/profile/{id}/status': { does: 'status', body: () => ({ status: 'Approved' }) },
  'POST /api/v2/profile/{id}/note': { does: 'other', body: () => ({ note: NOTE }) },
  'POST /api/v2/profile/{id}/agent_note': { does: 'other', body: () => ({ note: NOTE }) },
  'POST /api/v2/profile/{id}/answer': { does: 'other', body: () => ({ question: 1, value: true }) },
  'POST /api/v2/profile/{id}/generate_summary': { does: 'other', body: () => ({ question: 'Who is this?' }) },
  'POST /api/v2/document': {
    does: 'other',
    raw: (ids) =>
      multipart({ profile: ids.profile, type: ids.documentType }, 'pages', 'page.png', 'image/png', PNG),
  },
  'PUT /api/v2/document/{id}/approve': { does: 'other', body: () => ({ approved: true }) },
  'PUT /api/v2/document/{id}/archive': {
    does: 'evidence',
    body: (ids) => ({ id: ids.document, archived: true }),
  },
  'PATCH /api/v2/document/{id}': {
    does: 'evidence',
    body: (ids) => ({ document_type: ids.documentType + 1 }),
  },
  'DELETE /api/v2/document/{id}': { does: 'evidence' },
  'PUT /api/v2/document/{id}/documentcontent/override': {
    does: 'evidence',
    body: () => ({ fields: { FirstName: 'Someone Else' } }),
  },
  'PUT /api/v2/profile/{id}/rule/{ruleId}': { does: 'other', body: () => ({ reason: NOTE }) },
  'PATCH /api/v2/profile/{id}/aml/approve': { does: 'status', body: () => ({}) },
  'POST /api/v2/videocall': { does: 'other', body: (ids) => ({ profile: ids.profile }) },
  'POST /api/v2/videocall/{id}/answers': { does: 'other', body: () => ({ question: 1, value: 'yes' }) },
  'POST /api/v2/profile/url': { does: 'other', body: (ids) => ({ profile: ids.profile }) },
  'PUT /api/v2/videocall/{id}': {
    does: 'other',
    body: () => ({ status: 3, outcome_reason: 'identity_confirmed' }),
  },
  // A second recording for the held call must not take the place of the first.
  'PATCH /api/v2/videocall/{id}': {
    does: 'other',
    raw: () =>
      multipart({}, 'file', 'call.webm', 'video/webm', Buffer.concat([RECORDING, Buffer.alloc(64, 9)])),
  },
  'DELETE /api/v2/videocall/{id}': { does: 'evidence' },
  'POST /api/v2/videocall/{id}/close': { does: 'other', body: () => ({ status: 4, reason: NOTE }) },
  'POST /api/v2/videocall/{id}/notes': { does: 'other', body: () => ({ note: NOTE }) },
  // Watching a call and whispering to its agent add to the call's record; they change no evidence.
  'POST /api/v2/videocall/{id}/watch': { does: 'other' },
  'DELETE /api/v2/videocall/{id}/watch': { does: 'other' },
  'POST /api/v2/videocall/{id}/whispers': {
    does: 'other',
    body: () => ({ text: 'Ask for the back of the ID' }),
  },
  'POST /api/v2/videocall/agent_status': { does: 'other', body: () => ({ status: 'Online' }) },
  'POST /api/v2/videocall/{id}/steps': {
    does: 'other',
    body: () => ({ kind: 'liveness', result: 'failed', offset_ms: 1000 }),
  },
  'POST /api/v2/videocall/{id}/screenshots': {
    does: 'other',
    raw: () => ({ type: 'image/jpeg', payload: TEST_JPEG, query: 'kind=face_screenshot' }),
  },
  'PUT /api/v2/videocall/{id}/current_step': { does: 'other', body: () => ({ kind: 'liveness' }) },
  'POST /api/v2/videocall/{id}/code': { does: 'other' },
  'POST /api/v2/videocall/serial_number': {
    does: 'other',
    body: (ids) => ({ call_id: ids.call, serial_number: 'A1' }),
  },
  'POST /api/v2/videocall/code': { does: 'other', body: (ids) => ({ call_id: ids.call, code: '000000' }) },
  // The shortest retention there is; the retention job then runs years ahead (below).
  'PUT /api/v2/evidence/retention': { does: 'other', body: () => ({ evidence_retention_days: 365 }) },
  // Set again with the same reason: lifting it is the one thing that ends the hold, and only an Admin may.
  'PUT /api/v2/profile/{id}/legal_hold': { does: 'other', body: () => ({ hold: true, reason: REASON }) },
  'POST /api/v2/profile/{id}/erasure': {
    does: 'evidence',
    body: () => ({ reason: 'The customer asked to be erased' }),
  },
  'POST /api/v2/profile/{id}/access_log': { does: 'other', body: () => ({ format: 'pdf', report: 'basic' }) },
  'POST /api/v2/videocall/{id}/quality': { does: 'other', body: () => ({ samples: [] }) },
  'POST /api/v2/videocall/{id}/quality/customer': { does: 'other', body: () => ({ samples: [] }) },
  'POST /api/v2/review/cases/{id}/assign': { does: 'other', body: () => ({}) },
  'POST /api/v2/review/cases/{id}/unassign': { does: 'other' },
  'POST /api/v2/review/cases/{id}/move': { does: 'other', body: (ids) => ({ queue: ids.queue }) },
  'POST /api/v2/review/cases/{id}/decision': {
    does: 'status',
    body: () => ({ decision: 'approve', note: NOTE }),
  },
  // The maker confirming their own approval.
  'POST /api/v2/review/cases/{id}/confirm': { does: 'status', body: () => ({ note: NOTE }) },
  'POST /api/v2/review/cases/{id}/return': { does: 'other', body: () => ({ note: NOTE }) },
  'POST /api/v2/review/cases/{id}/snooze': {
    does: 'other',
    body: () => ({ until: new Date(Date.now() + HOUR_MS).toISOString() }),
  },
  'POST /api/v2/review/cases/{id}/await_customer': { does: 'other', body: () => ({ note: NOTE }) },
  'POST /api/v2/review/cases/{id}/resume': { does: 'other' },
  'POST /api/v2/review/next': { does: 'other' },
  'PUT /api/v2/review/queues/{id}': { does: 'other', body: () => ({ sla_hours: 24 }) },
  // The company's rules as they are: turning a rule off is the Admin's configuration, audited, not a way
  // around it for one decision.
  'PUT /api/v2/review/rules': {
    does: 'other',
    body: () => ({
      approve_high_risk: true,
      approve_after_failed_step: true,
      override_aml_hit: true,
      every_approval: false,
    }),
  },
  'PUT /api/v2/review/reason_codes': { does: 'other', body: () => ({ codes: [] }) },
  'PUT /api/v2/review/reviewers/{id}': { does: 'other', body: () => ({ capacity: 5 }) },
};

/** A multipart/form-data request of some fields and one file. */
function multipart(
  fields: Record<string, string | number>,
  name: string,
  filename: string,
  type: string,
  file: Buffer,
) {
  const boundary = `routes-${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
  );
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([
      Buffer.from(parts.join('')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4096, 3)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
const REASON = 'Regulator inquiry 44/2026 keeps this file';

let t: TestApp;
const tokens = { admin: '', agent: '' };
let ids: Ids;
let operations: [method: string, path: string][] = [];

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  const agentId = await userId(t.app, 'agent@acme.test');
  const db = t.app.ctx.db;

  const { paths } = (
    await get<{ paths: Record<string, Record<string, unknown>> }>(t.app, '/api/v2/openapi.json')
  ).body;
  operations = Object.entries(paths).flatMap(([path, methods]) =>
    WRITES.filter((method) => method in methods && IN_SCOPE.test(path)).map(
      (method) => [method, path] as [string, string],
    ),
  );

  // A High-risk profile waiting for review (its case open), with a call that has a screenshot and a recording,
  // and a document.
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/profile',
    headers: bearer(tokens.admin),
    payload: { id_card_number: `ROUTES-${randomUUID().slice(0, 8)}`, name: 'Every Route' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const profile = created.json<{ id: number }>().id;
  await db.update(profiles).set({ riskLevel: 'High' }).where(eq(profiles.id, profile));
  const review = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/profile/${profile}/status`,
    headers: bearer(tokens.admin),
    payload: { status: 'Pending Review' },
  });
  expect(review.json()).toMatchObject({ result: true });
  const { callId } = await talkingCall(t.app, agentId, profile);
  const screenshot = await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot');
  await db.update(videoCalls).set({ status: 3, callEndTime: new Date() }).where(eq(videoCalls.id, callId));
  await uploadRecording(t.app, tokens.agent, callId, RECORDING);
  const [type] = await db.select().from(documentTypes).where(eq(documentTypes.documentClass, 'ID'));
  const document = await uploadDocument(t.app, tokens.agent, { profile, type: type?.id ?? 0, page: PNG });
  const cases = (
    await get<{ results: { id: number; profile_id: number }[] }>(
      t.app,
      `/api/v2/review/cases?profile=${profile}`,
      tokens.admin,
    )
  ).body.results;
  ids = {
    profile,
    call: callId,
    document,
    screenshot,
    reviewCase: cases.find((c) => c.profile_id === profile)?.id ?? 0,
    documentType: type?.id ?? 0,
    queue: (await get<{ id: number }[]>(t.app, '/api/v2/review/queues', tokens.admin)).body.at(-1)?.id ?? 0,
    admin: await userId(t.app, 'admin@acme.test'),
  };
  const hold = await t.app.inject({
    method: 'PUT',
    url: `/api/v2/profile/${profile}/legal_hold`,
    headers: bearer(tokens.admin),
    payload: { hold: true, reason: REASON },
  });
  expect(hold.statusCode, hold.body).toBe(200);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** The held profile's evidence as it stands: its rows' evidence columns and whether each file is stored. */
async function evidence() {
  const db = t.app.ctx.db;
  const calls = await db
    .select({
      id: videoCalls.id,
      key: videoCalls.recordingKey,
      sha256: videoCalls.recordingSha256,
      size: videoCalls.recordingSize,
      deleted: videoCalls.evidenceDeletedAt,
    })
    .from(videoCalls)
    .where(eq(videoCalls.id, ids.call));
  const shots = await db
    .select({
      id: videoCallScreenshots.id,
      key: videoCallScreenshots.storageKey,
      sha256: videoCallScreenshots.sha256,
    })
    .from(videoCallScreenshots)
    .where(eq(videoCallScreenshots.id, ids.screenshot));
  const docs = await db
    .select({
      id: documents.id,
      archived: documents.archived,
      deleted: documents.deletedAt,
      type: documents.documentTypeId,
      content: documents.content,
      overrides: documents.contentOverrides,
    })
    .from(documents)
    .where(eq(documents.id, ids.document));
  const pages = await db
    .select({ id: documentPages.id, key: documentPages.storageKey, sha256: documentPages.sha256 })
    .from(documentPages)
    .where(eq(documentPages.documentId, ids.document));
  const keys = [...calls, ...shots, ...pages].map((row) => row.key).filter((key): key is string => !!key);
  const stored = await Promise.all(keys.map(async (key) => [key, await t.app.ctx.storage.size(key)]));
  return { calls, shots, docs, pages, stored };
}

const statusOf = async () =>
  (
    await t.app.ctx.db.select({ status: profiles.status }).from(profiles).where(eq(profiles.id, ids.profile))
  )[0]?.status;

/** A route's path with its parameters filled from `ids`, by the name of the segment before each. */
function filled(path: string): string {
  const bySegment: Record<string, number> = {
    profile: ids.profile,
    entity: ids.profile,
    videocall: ids.call,
    document: ids.document,
    screenshots: ids.screenshot,
    cases: ids.reviewCase,
    queues: ids.queue,
    reviewers: ids.admin,
    rule: 1,
  };
  return path.replace(/\/([a-z_]+)\/\{(\w+)\}/g, (_, segment: string, param: string) => {
    const value = bySegment[segment];
    if (value === undefined) throw new Error(`no id for {${param}} after /${segment} in ${path}`);
    return `/${segment}/${value}`;
  });
}

describe('every write route that touches a profile, a call, a document or evidence', () => {
  it('is listed with what it may do, and every listed route is still in the API', () => {
    const listed = new Set(Object.keys(ROUTES));
    const found = operations.map(([method, path]) => `${method.toUpperCase()} ${path}`);
    expect(found.length).toBeGreaterThan(20);
    expect(
      found.filter((key) => !listed.has(key)),
      'routes to list in ROUTES, with what they may do',
    ).toEqual([]);
    expect(
      [...listed].filter((key) => !found.includes(key)),
      'listed routes no longer in the API',
    ).toEqual([]);
  });

  it('leaves a held profile’s evidence as it was and approves no one alone, whoever sends what', async () => {
    const before = await evidence();
    expect(before.calls[0]?.key).toBeTruthy();
    expect(before.shots[0]?.key).toBeTruthy();
    expect(before.pages.length).toBeGreaterThan(0);
    expect(before.stored.every(([, size]) => size !== null)).toBe(true);
    for (const [key, entry] of Object.entries(ROUTES)) {
      const [method, path] = key.split(' ') as [string, string];
      const raw = entry.raw?.(ids);
      const response = await t.app.inject({
        method: method as 'POST',
        url: `${filled(path)}${raw?.query ? `?${raw.query}` : ''}`,
        headers: { ...bearer(tokens.admin), ...(raw ? { 'content-type': raw.type } : {}) },
        ...(raw
          ? { payload: raw.payload }
          : method === 'DELETE'
            ? {}
            : { payload: (entry.body?.(ids) ?? {}) as object }),
      });
      if (entry.does === 'evidence') {
        expect(response.statusCode, `${key}: ${response.body}`).toBe(409);
        expect(response.json().detail, key).toContain(REASON);
      }
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(500);
      expect(await evidence(), key).toEqual(before);
      expect(await statusOf(), key).not.toBe('Approved');
    }
    // The retention job, years after the shortest retention ran out, keeps what the hold keeps.
    await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage, new Date(Date.now() + 20 * 365 * DAY_MS));
    expect(await evidence()).toEqual(before);
  });
});
