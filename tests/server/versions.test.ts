/**
 * No lost update between reviewers: every profile and document write carries the version the
 * reviewer saw (If-Match); a stale one is refused with 409 `{ detail, current }` and changes nothing; of two
 * concurrent writes with the same version exactly one wins.
 */
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '#contract/documents';
import type { Profile } from '#contract/profiles';
import { BAD_IF_MATCH, etagOf, VERSION_CONFLICT, versionOfIfMatch } from '#contract/versioning';
import {
  checklistGroups,
  checklistQuestions,
  companies,
  documentAlerts,
  documents,
  profileLogs,
  profiles,
} from '../../server/db/schema';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
/** Two reviewers of the same company, and one of another company. */
const tokens = { a: '', b: '', globex: '' };
let acmeId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.a = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.b = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const [acme] = await t.app.ctx.db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  acmeId = acme?.id ?? 0;
  expect(acmeId).toBeGreaterThan(0);
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';
async function send<T = unknown>(
  method: Method,
  url: string,
  token: string,
  { payload, ifMatch }: { payload?: unknown; ifMatch?: string } = {},
) {
  const response = await t.app.inject({
    method,
    url: `/api/v2${url}`,
    headers: { ...bearer(token), ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return {
    status: response.statusCode,
    etag: response.headers.etag,
    body: (response.body ? response.json() : null) as T,
  };
}

/** An Acme profile in Pending Review with at least one document that has an alert not yet overridden. */
async function reviewProfile(): Promise<{ profile: number; document: number; alert: number }> {
  const db = t.app.ctx.db;
  const rows = await db
    .select({ profile: profiles.id, document: documents.id, alert: documentAlerts.id })
    .from(documentAlerts)
    .innerJoin(documents, eq(documents.id, documentAlerts.documentId))
    .innerJoin(profiles, eq(profiles.id, documents.profileId))
    .where(and(eq(profiles.companyId, acmeId), eq(documentAlerts.overridden, false)))
    .limit(40);
  const used = new Set(picked);
  const row = rows.find((r) => !used.has(r.profile));
  if (!row) throw new Error('no profile with an alert in the demo data');
  picked.push(row.profile);
  // A known status to start from, whatever the demo gave it.
  await db.update(profiles).set({ status: 'Pending Review' }).where(eq(profiles.id, row.profile));
  return row;
}
const picked: number[] = [];

const logCount = async (profileId: number) =>
  (await t.app.ctx.db.select({ n: count() }).from(profileLogs).where(eq(profileLogs.profileId, profileId)))[0]
    ?.n ?? 0;

describe('If-Match parsing', () => {
  it('reads strong, weak and bare versions; * and nothing mean no check; others are refused', () => {
    expect(versionOfIfMatch('"3"')).toBe(3);
    expect(versionOfIfMatch('W/"12"')).toBe(12);
    expect(versionOfIfMatch('7')).toBe(7);
    expect(versionOfIfMatch('*')).toBeUndefined();
    expect(versionOfIfMatch(undefined)).toBeUndefined();
    expect(versionOfIfMatch('"abc"')).toBeNull();
    expect(versionOfIfMatch('"0"')).toBeNull();
    expect(etagOf(4)).toBe('"4"');
  });
});

describe('profiles', () => {
  it('GET answers the version in the body and as ETag', async () => {
    const { profile } = await reviewProfile();
    const got = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    expect(got.status).toBe(200);
    expect(got.body.version).toBeGreaterThanOrEqual(1);
    expect(got.etag).toBe(etagOf(got.body.version));
  });

  it('the second reviewer writing with a stale version gets 409 with the current profile and changes nothing', async () => {
    const { profile } = await reviewProfile();
    const seen = await send<Profile>('GET', `/profile/${profile}`, tokens.b);
    // Reviewer A changes the status first.
    const first = await send<{ result: boolean }>('PATCH', `/profile/${profile}/status`, tokens.a, {
      payload: { status: 'Pending Approval' },
      ifMatch: seen.etag as string,
    });
    expect(first.body.result).toBe(true);
    const logsBefore = await logCount(profile);
    // Reviewer B still holds the old version: the edit and the status change are refused.
    const edit = await send<{ detail: string; current: Profile }>('PATCH', `/profile/${profile}`, tokens.b, {
      payload: { name: 'Someone Else' },
      ifMatch: seen.etag as string,
    });
    expect(edit.status).toBe(409);
    expect(edit.body.detail).toBe(VERSION_CONFLICT);
    expect(edit.body.current.status).toBe('Pending Approval');
    expect(edit.body.current.version).toBe(seen.body.version + 1);
    const status = await send<{ detail: string; current: Profile }>(
      'PATCH',
      `/profile/${profile}/status`,
      tokens.b,
      {
        payload: { status: 'Rejected', reject_reason: 'Documents look forged' },
        ifMatch: seen.etag as string,
      },
    );
    expect(status.status).toBe(409);
    expect(status.body.current.status).toBe('Pending Approval');
    // Nothing changed: same name, status, version and no new log entry.
    const after = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    expect(after.body.name).toBe(seen.body.name);
    expect(after.body.status).toBe('Pending Approval');
    expect(after.body.version).toBe(seen.body.version + 1);
    expect(await logCount(profile)).toBe(logsBefore);
    // Re-applied with the version of the conflict, it passes.
    const again = await send<Profile>('PATCH', `/profile/${profile}`, tokens.b, {
      payload: { name: 'Someone Else' },
      ifMatch: etagOf(edit.body.current.version),
    });
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Someone Else');
    expect(again.etag).toBe(etagOf(edit.body.current.version + 1));
  });

  it('of two concurrent writes with the same version exactly one wins', async () => {
    const { profile } = await reviewProfile();
    const seen = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    const answers = await Promise.all([
      send('PATCH', `/profile/${profile}`, tokens.a, {
        payload: { phone: '+90 555 000 0001' },
        ifMatch: seen.etag as string,
      }),
      send('PATCH', `/profile/${profile}`, tokens.b, {
        payload: { phone: '+90 555 000 0002' },
        ifMatch: seen.etag as string,
      }),
      send('PATCH', `/profile/${profile}/status`, tokens.b, {
        payload: { status: 'Incomplete' },
        ifMatch: seen.etag as string,
      }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const after = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    expect(after.body.version).toBe(seen.body.version + 1);
  });

  it('a write without If-Match is applied (API clients) and still moves the version', async () => {
    const { profile } = await reviewProfile();
    const seen = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    const plain = await send<Profile>('PATCH', `/profile/${profile}`, tokens.a, {
      payload: { nationality: 'Testland' },
    });
    expect(plain.status).toBe(200);
    expect(plain.body.version).toBe(seen.body.version + 1);
    const star = await send<Profile>('PATCH', `/profile/${profile}`, tokens.a, {
      payload: { nationality: 'Otherland' },
      ifMatch: '*',
    });
    expect(star.body.version).toBe(seen.body.version + 2);
  });

  it('an unreadable If-Match is a 400 and changes nothing', async () => {
    const { profile } = await reviewProfile();
    const seen = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    const bad = await send<{ detail: string }>('PATCH', `/profile/${profile}`, tokens.a, {
      payload: { name: 'Bad Header' },
      ifMatch: 'yesterday',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(BAD_IF_MATCH);
    expect((await send<Profile>('GET', `/profile/${profile}`, tokens.a)).body.version).toBe(
      seen.body.version,
    );
  });

  it('a check list answer bumps the profile version and a stale one is refused', async () => {
    const { profile } = await reviewProfile();
    const [question] = await t.app.ctx.db
      .select({ id: checklistQuestions.id })
      .from(checklistQuestions)
      .innerJoin(checklistGroups, eq(checklistGroups.id, checklistQuestions.groupId))
      .where(eq(checklistGroups.companyId, acmeId))
      .limit(1);
    const seen = await send<Profile>('GET', `/profile/${profile}`, tokens.a);
    const answer = await send('POST', `/profile/${profile}/answer`, tokens.a, {
      payload: { question: question?.id, value: true },
      ifMatch: seen.etag as string,
    });
    expect(answer.status).toBe(200);
    const stale = await send('POST', `/profile/${profile}/answer`, tokens.b, {
      payload: { question: question?.id, value: false },
      ifMatch: seen.etag as string,
    });
    expect(stale.status).toBe(409);
  });

  it("another company's profile stays unknown (404), whatever version is sent", async () => {
    const { profile } = await reviewProfile();
    const other = await send('PATCH', `/profile/${profile}`, tokens.globex, {
      payload: { name: 'X' },
      ifMatch: '"1"',
    });
    expect(other.status).toBe(404);
  });
});

describe('documents', () => {
  it('a stale approve, reject, archive, type, fields or delete gets 409 with the current document and changes nothing', async () => {
    const { document } = await reviewProfile();
    const docs = t.app.ctx.db;
    const [row] = await docs.select().from(documents).where(eq(documents.id, document));
    const seen = etagOf(row?.version ?? 0);
    const first = await send<Document>('PUT', `/document/${document}/approve`, tokens.a, {
      payload: { approved: true },
      ifMatch: seen,
    });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe((row?.version ?? 0) + 1);
    expect(first.etag).toBe(etagOf(first.body.version));
    const attempts = [
      send<{ detail: string; current: Document }>('PUT', `/document/${document}/approve`, tokens.b, {
        payload: { approved: false, reason: 'The photo is blurred' },
        ifMatch: seen,
      }),
      send<{ detail: string; current: Document }>('PUT', `/document/${document}/archive`, tokens.b, {
        payload: { id: document, archived: true },
        ifMatch: seen,
      }),
      send<{ detail: string; current: Document }>(
        'PUT',
        `/document/${document}/documentcontent/override`,
        tokens.b,
        {
          payload: { fields: { FirstName: 'Changed' } },
          ifMatch: seen,
        },
      ),
      send<{ detail: string; current: Document }>('DELETE', `/document/${document}`, tokens.b, {
        ifMatch: seen,
      }),
    ];
    for (const attempt of await Promise.all(attempts)) {
      expect(attempt.status).toBe(409);
      expect(attempt.body.detail).toBe(VERSION_CONFLICT);
      expect(attempt.body.current.status).toBe('approved');
      expect(attempt.body.current.version).toBe(first.body.version);
    }
    const [after] = await docs.select().from(documents).where(eq(documents.id, document));
    expect(after).toMatchObject({
      status: 'approved',
      archived: false,
      deletedAt: null,
      version: first.body.version,
    });
  });

  it('of two concurrent reviews with the same version exactly one wins', async () => {
    const { document } = await reviewProfile();
    const [row] = await t.app.ctx.db.select().from(documents).where(eq(documents.id, document));
    const seen = etagOf(row?.version ?? 0);
    const answers = await Promise.all([
      send('PUT', `/document/${document}/approve`, tokens.a, { payload: { approved: true }, ifMatch: seen }),
      send('PUT', `/document/${document}/approve`, tokens.b, {
        payload: { approved: false, reason: 'Expired passport page' },
        ifMatch: seen,
      }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it("an alert override checks and bumps its document's version", async () => {
    const { profile, document, alert } = await reviewProfile();
    const [row] = await t.app.ctx.db.select().from(documents).where(eq(documents.id, document));
    const version = row?.version ?? 0;
    await send('PATCH', `/document/${document}`, tokens.a, {
      payload: { document_type: row?.documentTypeId },
    });
    // The same type changes nothing: the version stays.
    const stale = await send<{ current: Document }>('PUT', `/profile/${profile}/rule/${alert}`, tokens.b, {
      payload: { reason: 'Checked by hand against the original' },
      ifMatch: etagOf(version + 5),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current.id).toBe(document);
    const ok = await send('PUT', `/profile/${profile}/rule/${alert}`, tokens.b, {
      payload: { reason: 'Checked by hand against the original' },
      ifMatch: etagOf(version),
    });
    expect(ok.status).toBe(200);
    const [overridden] = await t.app.ctx.db
      .select({ id: documentAlerts.id })
      .from(documentAlerts)
      .where(and(eq(documentAlerts.id, alert), isNotNull(documentAlerts.overriddenAt)));
    expect(overridden?.id).toBe(alert);
    const [after] = await t.app.ctx.db.select().from(documents).where(eq(documents.id, document));
    expect(after?.version).toBe(version + 1);
  });
});
