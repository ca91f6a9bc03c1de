/**
 * Mentions and the bell under attack: a mention never reaches another company's user (not by local
 * part, not by whole address) and is never stored or mailed for them; a user sees and marks only their own
 * notifications (another user's or company's id answers 404 and changes nothing); extreme ids and queries are
 * a 400 with a detail, never a 500.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note } from '#contract/notes';
import type { NotificationPage } from '#contract/notifications';
import { notes, notifications, profiles } from '../../server/db/schema';
import { recentMail } from '../../server/integrations/mail';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', globex: '' };
const ids = { agent: 0, globexAdmin: 0, globexShared: 0 };
let globexProfile = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.globexAdmin = await userId(t.app, 'admin@globex.test');
  const [globex] = await t.app.ctx.db
    .select({ id: profiles.id, company: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.companyId, 2))
    .limit(1);
  globexProfile = globex?.id ?? 0;
}, 180_000);
afterAll(async () => {
  await t.close();
});

const db = () => t.app.ctx.db;
const notifiedBy = async (noteId: number) =>
  db().select({ user: notifications.userId }).from(notifications).where(eq(notifications.noteId, noteId));

describe('mentions stay in the company', () => {
  it('another company’s user is plain text: not by whole address, not by a local part only they have', async () => {
    const note = await post<Note>(
      t.app,
      '/api/v2/profile/1/note',
      { note: 'Ping @admin@globex.test and @gül, also @agent' },
      tokens.admin,
    );
    expect(note.status).toBe(201);
    expect(note.body.note).toBe('Ping @admin@globex.test and @gül, also @agent');
    expect(await notifiedBy(note.body.id)).toEqual([{ user: ids.agent }]);
    const globexBell = await get<NotificationPage>(t.app, '/api/v2/notifications', tokens.globex);
    expect(globexBell.body.results.map((n) => n.note.id)).not.toContain(note.body.id);
  });

  it('@admin from Acme means Acme’s admin, never Globex’s, and Globex’s away admin gets no e-mail', async () => {
    const before = (await recentMail(db(), 'admin@globex.test')).length;
    const note = await post<Note>(
      t.app,
      '/api/v2/profile/1/note',
      { note: 'Question for @admin here' },
      tokens.agent,
    );
    const told = await notifiedBy(note.body.id);
    expect(told.map((r) => r.user)).not.toContain(ids.globexAdmin);
    expect(told).toHaveLength(1);
    expect((await recentMail(db(), 'admin@globex.test')).length).toBe(before);
  });

  it('a colleague list never shows another company’s users', async () => {
    const { body } = await get<Array<{ id: number }>>(
      t.app,
      '/api/v2/notifications/colleagues',
      tokens.admin,
    );
    expect(body.map((c) => c.id)).not.toContain(ids.globexAdmin);
  });
});

describe('only your own notifications', () => {
  let agentNotification = 0;
  beforeAll(async () => {
    const note = await post<Note>(
      t.app,
      '/api/v2/profile/1/note',
      { note: 'Private for @agent only' },
      tokens.admin,
    );
    const [row] = await db()
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.noteId, note.body.id));
    agentNotification = row?.id ?? 0;
  });

  it('another user of the same company: not listed, and marking it read answers 404 and changes nothing', async () => {
    const list = await get<NotificationPage>(t.app, '/api/v2/notifications?limit=200', tokens.admin);
    expect(list.body.results.map((n) => n.id)).not.toContain(agentNotification);
    const read = await post<{ detail: string }>(
      t.app,
      `/api/v2/notifications/${agentNotification}/read`,
      {},
      tokens.admin,
    );
    expect(read.status).toBe(404);
    expect(read.body.detail).toBe('Notification not found');
    const [row] = await db().select().from(notifications).where(eq(notifications.id, agentNotification));
    expect(row?.readAt).toBeNull();
  });

  it('another company’s user: 404, and “mark all read” touches only the caller’s', async () => {
    expect(
      (await post(t.app, `/api/v2/notifications/${agentNotification}/read`, {}, tokens.globex)).status,
    ).toBe(404);
    expect((await post(t.app, '/api/v2/notifications/read_all', {}, tokens.globex)).status).toBe(200);
    expect((await post(t.app, '/api/v2/notifications/read_all', {}, tokens.admin)).status).toBe(200);
    const [row] = await db().select().from(notifications).where(eq(notifications.id, agentNotification));
    expect(row?.readAt).toBeNull();
  });

  it('a mention on another company’s profile cannot be made: the note is refused before anything is stored', async () => {
    const count = (await db().select().from(notes).where(eq(notes.profileId, globexProfile))).length;
    const refused = await post(
      t.app,
      `/api/v2/profile/${globexProfile}/note`,
      { note: 'Sneaky @agent note' },
      tokens.admin,
    );
    expect(refused.status).toBe(404);
    expect((await db().select().from(notes).where(eq(notes.profileId, globexProfile))).length).toBe(count);
  });

  it('without a token: 401', async () => {
    expect((await get(t.app, '/api/v2/notifications')).status).toBe(401);
    expect((await post(t.app, '/api/v2/notifications/read_all', {})).status).toBe(401);
  });
});

describe('extreme input is a 400 with a detail', () => {
  const ids400 = ['9007199254740992', '2147483648', '-1', '0', '1.5', 'abc', '%00'];
  it.each(ids400)('POST /notifications/%s/read', async (id) => {
    const answer = await post<{ detail?: string }>(
      t.app,
      `/api/v2/notifications/${id}/read`,
      {},
      tokens.agent,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toEqual(expect.any(String));
  });

  it.each([
    '?limit=0',
    '?limit=201',
    '?limit=9007199254740993',
    '?offset=-1',
    '?unread=maybe',
    '?whatever=1',
  ])('GET /notifications%s', async (query) => {
    const answer = await get<{ detail?: string }>(t.app, `/api/v2/notifications${query}`, tokens.agent);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toEqual(expect.any(String));
  });

  it('a note of nothing but mentions and odd characters is stored as text, mentioning only real colleagues', async () => {
    const text = '@@@ @. @- @agent@ @agent@@acme.test @\u200bagent @agent';
    const note = await post<Note>(t.app, '/api/v2/profile/1/note', { note: text }, tokens.admin);
    expect(note.status).toBe(201);
    const told = await notifiedBy(note.body.id);
    expect(told).toEqual([{ user: ids.agent }]);
    expect(
      await db()
        .select()
        .from(notifications)
        .where(inArray(notifications.noteId, [note.body.id])),
    ).toHaveLength(1);
  });
});
