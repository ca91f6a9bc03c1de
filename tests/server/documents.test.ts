/** The document write paths: upload, review, archive, delete, overrides, alert override. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, desc, eq, isNull } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_DETAILS, fieldProblems, MAX_PAGE_BYTES, sniffContentType } from '#contract/documentRules';
import type { Document } from '#contract/documents';
import {
  companies,
  documentAlerts,
  documents,
  documentTypes,
  profileLogs,
  profiles,
} from '../../server/db/schema';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
const tokens = { admin: '', user: '', restricted: '', globex: '' };
let acmeProfileId = 0;
let otherAcmeProfileId = 0;
let globexProfileId = 0;
let globexDocumentId = 0;
let passportTypeId = 0;
let utilityTypeId = 0;

function png(width = 4, height = 3): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
}
function jpg(width = 5, height = 2): Buffer {
  return Buffer.from(jpeg.encode({ width, height, data: Buffer.alloc(width * height * 4, 128) }, 80).data);
}

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.restricted = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const db = t.app.ctx.db;
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  const acmeProfiles = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, acme?.id ?? 0))
    .limit(2);
  acmeProfileId = acmeProfiles[0]?.id ?? 0;
  otherAcmeProfileId = acmeProfiles[1]?.id ?? 0;
  const [gd] = await db
    .select({ id: documents.id, profileId: documents.profileId })
    .from(documents)
    .where(eq(documents.companyId, globex?.id ?? 0))
    .limit(1);
  globexDocumentId = gd?.id ?? 0;
  globexProfileId = gd?.profileId ?? 0;
  const types = await db.select().from(documentTypes);
  passportTypeId = types.find((type) => type.documentClass === 'PA')?.id ?? 0;
  utilityTypeId = types.find((type) => type.documentClass === 'UB')?.id ?? 0;
  expect([acmeProfileId, otherAcmeProfileId, globexDocumentId, passportTypeId, utilityTypeId]).not.toContain(
    0,
  );
});
afterAll(() => t.close());

type Method = 'PUT' | 'PATCH' | 'DELETE' | 'POST';
async function send<T = Document>(method: Method, url: string, payload?: unknown, token = tokens.user) {
  const response = await t.app.inject({
    method,
    url: `/api/v2${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(token),
  });
  return {
    status: response.statusCode,
    body: (response.body ? response.json() : null) as T & { detail: string },
  };
}

interface UploadOptions {
  profile?: number | string;
  type?: number | string;
  pages?: { bytes: Buffer; name: string; type: string }[];
  extra?: Record<string, string>;
  token?: string;
}
async function upload(options: UploadOptions = {}) {
  const form = new FormData();
  if (options.profile !== '') form.append('profile', String(options.profile ?? acmeProfileId));
  if (options.type !== '') form.append('type', String(options.type ?? passportTypeId));
  form.append('upload_source', 'studio');
  form.append('cropped', 'true');
  form.append('rotated', 'false');
  form.append('stream', 'false');
  for (const [key, value] of Object.entries(options.extra ?? {})) form.append(key, value);
  const pages = options.pages ?? [
    { bytes: png(), name: 'front.png', type: 'image/png' },
    { bytes: jpg(), name: 'back.jpg', type: 'image/jpeg' },
  ];
  for (const page of pages)
    form.append('pages', new Blob([new Uint8Array(page.bytes)], { type: page.type }), page.name);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/document',
    payload: form,
    headers: bearer(options.token ?? tokens.user),
  });
  return { status: response.statusCode, body: response.json() as Document & { detail: string } };
}

const storedFiles = () => {
  const folder = join(t.config.dataDir, 'storage', 'documents');
  return existsSync(folder) ? readdirSync(folder).length : 0;
};
const documentCount = async (profileId = acmeProfileId) =>
  (
    await t.app.ctx.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.profileId, profileId), isNull(documents.deletedAt)))
  ).length;
const lastLog = async (profileId = acmeProfileId) =>
  (
    await t.app.ctx.db
      .select()
      .from(profileLogs)
      .where(eq(profileLogs.profileId, profileId))
      .orderBy(desc(profileLogs.id))
      .limit(1)
  )[0];
const fresh = async () => {
  const { status, body } = await upload();
  expect(status).toBe(201);
  return body;
};
const stored = async (id: number) =>
  (await t.app.ctx.db.select().from(documents).where(eq(documents.id, id)))[0];

describe('POST /document', () => {
  it('stores a two-page upload, streams the pages to storage and logs it', async () => {
    const before = storedFiles();
    const { status, body } = await upload({
      extra: { device_data: JSON.stringify({ brand: 'Desktop', os: 'Linux', browser: 'Chromium' }) },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      profile: acmeProfileId,
      type: { id: passportTypeId },
      document_class: 'PA',
      upload_source: 'studio',
      status: 'pending_review',
      archived: false,
      device_data: { brand: 'Desktop', os: 'Linux', browser: 'Chromium', model: null },
    });
    expect(body.pages.map((p) => [p.page, p.content_type, p.width, p.height])).toEqual([
      [1, 'image/png', 4, 3],
      [2, 'image/jpeg', 5, 2],
    ]);
    expect(storedFiles()).toBe(before + 2);
    const row = await stored(body.id);
    expect(row).toMatchObject({ cropped: true, rotated: false, stream: false });
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(body.pages[0]?.url ?? '').pathname + new URL(body.pages[0]?.url ?? '').search,
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png())).toBe(true);
    expect(await lastLog()).toMatchObject({
      action: 'document_uploaded',
      data: { document_id: body.id, pages: 2 },
    });
  });

  it('accepts WebP and PDF by their first bytes, whatever type is declared', async () => {
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(20),
    ]);
    const pdf = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const { status, body } = await upload({
      pages: [
        { bytes: webp, name: 'a.bin', type: 'application/octet-stream' },
        { bytes: pdf, name: 'b.png', type: 'image/png' },
      ],
    });
    expect(status).toBe(201);
    expect(body.pages.map((p) => p.content_type)).toEqual(['image/webp', 'application/pdf']);
  });

  it('refuses bad uploads with a 4xx and keeps nothing', async () => {
    const files = storedFiles();
    const count = await documentCount();
    const text = { bytes: Buffer.from('not an image at all, just text'), name: 'x.png', type: 'image/png' };
    const cases: [UploadOptions, number, string | RegExp][] = [
      [{ pages: [{ bytes: png(), name: 'a.png', type: 'image/png' }, text] }, 400, DOCUMENT_DETAILS.pageType],
      [
        { pages: [{ bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' }] },
        400,
        DOCUMENT_DETAILS.pageType,
      ],
      [{ pages: [] }, 400, DOCUMENT_DETAILS.noPages],
      [{ type: 999_999 }, 400, DOCUMENT_DETAILS.unknownType],
      [{ profile: globexProfileId }, 400, DOCUMENT_DETAILS.unknownProfile],
      [{ profile: '' }, 400, /^body\.profile: /],
      [{ type: 'passport' }, 400, /^body\.type: /],
      [{ extra: { device_data: '{not json' } }, 400, 'body.device_data: not valid JSON'],
      [{ extra: { device_data: '{"colour":"red"}' } }, 400, /^body\.device_data: /],
      [{ extra: { surprise: 'x' } }, 400, /surprise/],
      [
        {
          pages: Array.from({ length: 11 }, (_, i) => ({
            bytes: png(),
            name: `${i}.png`,
            type: 'image/png',
          })),
        },
        413,
        DOCUMENT_DETAILS.tooManyPages,
      ],
    ];
    for (const [options, status, detail] of cases) {
      const answer = await upload(options);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (typeof detail === 'string') expect(answer.body.detail).toBe(detail);
      else expect(answer.body.detail).toMatch(detail);
    }
    expect(storedFiles()).toBe(files);
    expect(await documentCount()).toBe(count);
  });

  it('refuses a page over the size limit with 413 and keeps nothing', async () => {
    const files = storedFiles();
    const big = Buffer.concat([png(), Buffer.alloc(MAX_PAGE_BYTES)]);
    const answer = await upload({
      pages: [
        { bytes: png(), name: 'a.png', type: 'image/png' },
        { bytes: big, name: 'big.png', type: 'image/png' },
      ],
    });
    expect(answer.status).toBe(413);
    expect(answer.body.detail).toBe(DOCUMENT_DETAILS.pageTooLarge);
    expect(storedFiles()).toBe(files);
  });

  it('refuses a body that is not multipart', async () => {
    const { status, body } = await send('POST', '/document', {
      profile: acmeProfileId,
      type: passportTypeId,
    });
    expect(status).toBe(400);
    expect(body.detail).toBe('Send the document as multipart/form-data');
  });
});

describe('PUT /document/{id}/approve', () => {
  it('approves, and rejects only with a reason of at least 10 characters', async () => {
    const document = await fresh();
    const approved = await send('PUT', `/document/${document.id}/approve`, { approved: true });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: document.id, status: 'approved', review_reason: null });
    expect(await lastLog()).toMatchObject({ action: 'document_approved' });

    for (const reason of [undefined, null, '', '   short   ']) {
      const refused = await send('PUT', `/document/${document.id}/approve`, { approved: false, reason });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toBe(DOCUMENT_DETAILS.reasonTooShort);
    }
    expect((await stored(document.id))?.status).toBe('approved');

    const rejected = await send('PUT', `/document/${document.id}/approve`, {
      approved: false,
      reason: '  The photo is blurred.  ',
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', review_reason: 'The photo is blurred.' });
    expect(await stored(document.id)).toMatchObject({ reviewReason: 'The photo is blurred.' });
    expect(await lastLog()).toMatchObject({
      action: 'document_rejected',
      data: { document_id: document.id, reason: 'The photo is blurred.' },
    });
  });

  it('refuses a body with unknown or missing fields', async () => {
    const document = await fresh();
    expect((await send('PUT', `/document/${document.id}/approve`, { approved: 'yes' })).status).toBe(400);
    expect((await send('PUT', `/document/${document.id}/approve`, { approved: true, x: 1 })).status).toBe(
      400,
    );
    expect((await stored(document.id))?.status).toBe('pending_review');
  });
});

describe('PUT /document/{id}/archive', () => {
  it('archives and restores, and the lists follow', async () => {
    const document = await fresh();
    const archived = await send('PUT', `/document/${document.id}/archive`, {
      id: document.id,
      archived: true,
    });
    expect(archived.body.archived).toBe(true);
    expect(await lastLog()).toMatchObject({ action: 'document_archived' });
    const list = await get<Document[]>(
      t.app,
      `/api/v2/profile/${acmeProfileId}/documents?archived=true`,
      tokens.user,
    );
    expect(list.body.map((d) => d.id)).toContain(document.id);
    const restored = await send('PUT', `/document/${document.id}/archive`, {
      id: document.id,
      archived: false,
    });
    expect(restored.body.archived).toBe(false);
    expect(await lastLog()).toMatchObject({ action: 'document_restored' });
  });

  it('refuses an id that is not the address id', async () => {
    const document = await fresh();
    const answer = await send('PUT', `/document/${document.id}/archive`, {
      id: document.id + 1,
      archived: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(DOCUMENT_DETAILS.idMismatch);
    expect((await stored(document.id))?.archived).toBe(false);
  });
});

describe('DELETE /document/{id}', () => {
  it('deletes: the document leaves the lists and answers 404 afterwards', async () => {
    const document = await fresh();
    const answer = await send('DELETE', `/document/${document.id}`);
    expect(answer.status).toBe(204);
    expect(await lastLog()).toMatchObject({ action: 'document_deleted', data: { document_id: document.id } });
    const list = await get<Document[]>(t.app, `/api/v2/profile/${acmeProfileId}/documents`, tokens.user);
    expect(list.body.map((d) => d.id)).not.toContain(document.id);
    expect((await send('DELETE', `/document/${document.id}`)).status).toBe(404);
    expect((await send('PUT', `/document/${document.id}/approve`, { approved: true })).status).toBe(404);
  });
});

describe('PUT /document/{id}/documentcontent/override', () => {
  it('overrides fields, clears with null, and moves the expiry date', async () => {
    const document = await fresh();
    const answer = await send('PUT', `/document/${document.id}/documentcontent/override`, {
      fields: { FirstName: '  Ayşe ', IssueDate: '2020-01-31', ExpiryDate: '2030-01-31', BirthPlace: null },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.content).toMatchObject({
      FirstName: 'Ayşe',
      ExpiryDate: '2030-01-31',
      BirthPlace: null,
    });
    expect(answer.body.overridden_fields).toEqual(['FirstName', 'ExpiryDate', 'IssueDate', 'BirthPlace']);
    expect(answer.body.expiry_date).toBe('2030-01-31');
    expect(await lastLog()).toMatchObject({
      action: 'document_fields_overridden',
      data: { fields: ['FirstName', 'ExpiryDate', 'IssueDate', 'BirthPlace'] },
    });
  });

  it('refuses bad dates, unknown fields and empty bodies, changing nothing', async () => {
    const document = await fresh();
    await send('PUT', `/document/${document.id}/documentcontent/override`, {
      fields: { IssueDate: '2021-05-01' },
    });
    const before = await stored(document.id);
    const cases: [unknown, string | RegExp][] = [
      [{ fields: { BirthDate: '2001-02-30' } }, 'BirthDate: not a real date (YYYY-MM-DD)'],
      [{ fields: { ExpiryDate: '31.01.2030' } }, 'ExpiryDate: not a real date (YYYY-MM-DD)'],
      [{ fields: { BirthDate: '2999-01-01' } }, 'BirthDate: the date cannot be in the future'],
      [{ fields: { ExpiryDate: '2020-01-01' } }, 'ExpiryDate: the expiry date is before the issue date'],
      [{ fields: { FirstName: 'x'.repeat(201) } }, 'FirstName: at most 200 characters'],
      [{ fields: {} }, DOCUMENT_DETAILS.noFields],
      [{ fields: { Nickname: 'Ace' } }, /body\.fields/],
      [{ FirstName: 'Ace' }, /^body/],
    ];
    for (const [payload, detail] of cases) {
      const answer = await send('PUT', `/document/${document.id}/documentcontent/override`, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      if (typeof detail === 'string') expect(answer.body.detail).toBe(detail);
      else expect(answer.body.detail).toMatch(detail);
    }
    expect(await stored(document.id)).toEqual(before);
  });
});

describe('PATCH /document/{id}', () => {
  it('changes the type and the class with it; an unknown type is 400', async () => {
    const document = await fresh();
    const answer = await send('PATCH', `/document/${document.id}`, { document_type: utilityTypeId });
    expect(answer.body).toMatchObject({ type: { id: utilityTypeId }, document_class: 'UB' });
    expect(await lastLog()).toMatchObject({ action: 'document_type_changed' });
    const refused = await send('PATCH', `/document/${document.id}`, { document_type: 999_999 });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(DOCUMENT_DETAILS.unknownType);
    expect((await stored(document.id))?.documentClass).toBe('UB');
  });
});

describe('PUT /profile/{id}/rule/{ruleId}', () => {
  it('overrides an alert once, with a reason of at least 10 characters', async () => {
    const db = t.app.ctx.db;
    const [alert] = await db
      .select({ id: documentAlerts.id, profileId: documentAlerts.profileId })
      .from(documentAlerts)
      .innerJoin(documents, eq(documents.id, documentAlerts.documentId))
      .innerJoin(companies, eq(companies.id, documents.companyId))
      .where(and(eq(companies.name, 'Acme Bank'), eq(documentAlerts.overridden, false)))
      .limit(1);
    if (!alert) throw new Error('no alert in the demo data');
    const url = `/profile/${alert.profileId}/rule/${alert.id}`;
    const short = await send('PUT', url, { reason: ' too short ' });
    expect(short.status).toBe(400);
    expect(short.body.detail).toBe(DOCUMENT_DETAILS.overrideReasonTooShort);
    const otherProfile = alert.profileId === acmeProfileId ? otherAcmeProfileId : acmeProfileId;
    expect(
      (await send('PUT', `/profile/${otherProfile}/rule/${alert.id}`, { reason: 'Checked by phone.' }))
        .status,
    ).toBe(404);
    expect((await send('PUT', url, { reason: 'Checked by phone.' }, tokens.globex)).status).toBe(404);

    const done = await send<{ overridden: boolean; override_reason: string }>('PUT', url, {
      reason: 'Checked by phone with the customer.',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: alert.id,
      overridden: true,
      override_reason: 'Checked by phone with the customer.',
    });
    expect(await lastLog(alert.profileId)).toMatchObject({
      action: 'alert_overridden',
      data: { alert_id: alert.id },
    });
    const again = await send('PUT', url, { reason: 'Checked a second time.' });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe(DOCUMENT_DETAILS.alreadyOverridden);
  });
});

describe('other companies and permissions', () => {
  const writes = (id: number): [Method, string, unknown][] => [
    ['PUT', `/document/${id}/approve`, { approved: true }],
    ['PUT', `/document/${id}/archive`, { id, archived: true }],
    ['PUT', `/document/${id}/documentcontent/override`, { fields: { FirstName: 'Mallory' } }],
    ['PATCH', `/document/${id}`, { document_type: passportTypeId }],
    ['DELETE', `/document/${id}`, undefined],
  ];

  it("answers 404 for another company's document and changes nothing", async () => {
    const before = await stored(globexDocumentId);
    for (const [method, url, payload] of writes(globexDocumentId)) {
      const answer = await send(method, url, payload);
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.detail).toBe('Not found.');
    }
    expect(await stored(globexDocumentId)).toEqual(before);
  });

  it('forbids every write to a Restricted User (403) and to nobody signed in (401)', async () => {
    const document = await fresh();
    const before = await stored(document.id);
    const files = storedFiles();
    for (const [method, url, payload] of [
      ...writes(document.id),
      ['PUT', `/profile/${acmeProfileId}/rule/1`, { reason: 'Checked by phone.' }] as [
        Method,
        string,
        unknown,
      ],
    ]) {
      const answer = await send(method, url, payload, tokens.restricted);
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body.detail).toBe('You do not have permission to perform this action');
      const anonymous = await t.app.inject({
        method,
        url: `/api/v2${url}`,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(anonymous.statusCode).toBe(401);
    }
    const restrictedUpload = await upload({ token: tokens.restricted });
    expect(restrictedUpload.status).toBe(403);
    expect(restrictedUpload.body.detail).toBe('You do not have permission to perform this action');
    expect(await stored(document.id)).toEqual(before);
    expect(storedFiles()).toBe(files);
  });

  it('lets the Admin and the User role write', async () => {
    const document = await fresh();
    expect(
      (await send('PUT', `/document/${document.id}/approve`, { approved: true }, tokens.admin)).status,
    ).toBe(200);
  });
});

describe('document rules', () => {
  it('recognises files by their first bytes', () => {
    expect(sniffContentType(png())).toBe('image/png');
    expect(sniffContentType(jpg())).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('%PDF-1.4'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from('RIFF\0\0\0\0WEBP'))).toBe('image/webp');
    expect(sniffContentType(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffContentType(Buffer.from('GIF89a'))).toBeNull();
  });

  it('judges overridden dates against today', () => {
    expect(fieldProblems({ BirthDate: '2026-11-23' }, '2026-11-22')).toEqual({ BirthDate: 'futureDate' });
    expect(fieldProblems({ ExpiryDate: '2036-11-23' }, '2026-11-22')).toEqual({});
    expect(fieldProblems({ IssueDate: '2024-02-29', ExpiryDate: '2034-02-28' }, '2026-11-22')).toEqual({});
    expect(fieldProblems({ IssueDate: '2023-02-29' }, '2026-11-22')).toEqual({ IssueDate: 'invalidDate' });
    expect(fieldProblems({ BirthDate: '1899-12-31' }, '2026-11-22')).toEqual({ BirthDate: 'invalidDate' });
    expect(fieldProblems({ FirstName: '  ', BirthDate: '' }, '2026-11-22')).toEqual({});
  });
});
