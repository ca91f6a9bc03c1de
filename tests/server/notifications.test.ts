/**
 * Mentions and the bell, and review decisions in the profile history: a note's @mentions notify colleagues of
 * the same company, live on their own socket and, when they are away, by e-mail; the notifications API pages,
 * counts and marks read; a review decision that takes effect is logged on the profile with its reason code,
 * note and, under four-eyes, both reviewers.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, Note } from '#contract/notes';
import type { Colleague, NotificationEvent, NotificationPage } from '#contract/notifications';
import { notifications, profiles, reviewCases, reviewerSettings } from '../../server/db/schema';
import { recentMail } from '../../server/integrations/mail';
import { bearer, get, PASSWORDS, post, type TestApp, tokenFor, userId } from './helpers';
import { type LiveApp, liveApp, next } from './liveSockets';

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '', reviewer: '' };
const ids = { admin: 0, agent: 0, reviewer: 0 };

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
}, 180_000);
afterAll(() => live.close());

const db = () => t.app.ctx.db;
const addNote = (profile: number, note: string, token = tokens.admin) =>
  post<Note>(t.app, `/api/v2/profile/${profile}/note`, { note }, token);
const bell = (token: string, query = '') =>
  get<NotificationPage>(t.app, `/api/v2/notifications${query}`, token);

/**
 * A staff socket of the signed-in user (`token`), once it heard the unread count it is told on connecting: the
 * server joins the user's room before its first events, and the count is the last of them.
 */
async function connected(token: string) {
  let counted: ReturnType<typeof next<'notification.unread'>> | undefined;
  const socket = await live.studio(token, (s) => {
    counted = next(s, 'notification.unread');
  });
  return { socket, counted: await counted };
}

describe('mentions in notes', () => {
  it('notifies the mentioned colleagues of the company, not the author, with a snippet and who wrote it', async () => {
    const before = (await bell(tokens.agent)).body.unread;
    const note = await addNote(1, 'Please check the ID, @agent and @Reviewer. Thanks @admin');
    expect(note.status).toBe(201);
    const rows = await db().select().from(notifications).where(eq(notifications.noteId, note.body.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([ids.agent, ids.reviewer].sort());
    expect(rows.every((r) => r.kind === 'mention' && r.profileId === 1 && r.actorId === ids.admin)).toBe(
      true,
    );
    const page = await bell(tokens.agent);
    expect(page.status).toBe(200);
    expect(page.body.unread).toBe(before + 1);
    expect(page.body.results[0]).toMatchObject({
      kind: 'mention',
      profile: { id: 1 },
      note: { id: note.body.id, snippet: 'Please check the ID, @agent and @Reviewer. Thanks @admin' },
      actor: { id: ids.admin },
      read_at: null,
    });
    expect(page.body.results[0]?.actor?.name).not.toBe('');
  });

  it('the whole address names a colleague too; a handle nobody has is plain text', async () => {
    const note = await addNote(1, 'For @reviewer@acme.test and @nobody-here only');
    const rows = await db().select().from(notifications).where(eq(notifications.noteId, note.body.id));
    expect(rows.map((r) => r.userId)).toEqual([ids.reviewer]);
    const plain = await addNote(1, 'No mention in this note at all');
    expect(await db().select().from(notifications).where(eq(notifications.noteId, plain.body.id))).toEqual(
      [],
    );
  });

  it('an agent note mentions the same way', async () => {
    const note = await post<Note>(
      t.app,
      '/api/v2/profile/1/agent_note',
      { note: 'Call done, @reviewer' },
      tokens.agent,
    );
    expect(note.status).toBe(201);
    const rows = await db().select().from(notifications).where(eq(notifications.noteId, note.body.id));
    expect(rows.map((r) => [r.userId, r.actorId])).toEqual([[ids.reviewer, ids.agent]]);
  });

  it('a staff socket hears its user’s unread count when it connects (the bell makes no read of its own)', async () => {
    const unread = (await bell(tokens.agent)).body.unread;
    const { counted } = await connected(tokens.agent);
    expect(unread).toBeGreaterThan(0);
    expect(counted).toEqual({ unread });
  });

  it('the mentioned user’s own sockets hear it live, with the unread count; nobody else does', async () => {
    const { socket: agent } = await connected(tokens.agent);
    const { socket: admin } = await connected(tokens.admin);
    const heardByAdmin: unknown[] = [];
    admin.on('notification.new', (e) => heardByAdmin.push(e));
    const heard = new Promise<NotificationEvent>((resolve) => agent.once('notification.new', resolve));
    const note = await addNote(2, '@agent have a look at the selfie');
    const event = await heard;
    expect(event.notification).toMatchObject({
      profile: { id: 2 },
      note: { id: note.body.id },
      read_at: null,
    });
    expect(event.unread).toBe((await bell(tokens.agent)).body.unread);
    // The admin wrote it and was not mentioned: their socket stays quiet (give it a moment to be sure).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heardByAdmin).toEqual([]);
    // Marking it read tells the user's other tabs the new count.
    const counted = new Promise<{ unread: number }>((resolve) => agent.once('notification.unread', resolve));
    const read = await post(t.app, `/api/v2/notifications/${event.notification.id}/read`, {}, tokens.agent);
    expect(read.status).toBe(200);
    expect((await counted).unread).toBe(event.unread - 1);
  });

  it('an away colleague is also told by e-mail, in English; one who is not away gets no e-mail', async () => {
    await db()
      .insert(reviewerSettings)
      .values({ userId: ids.reviewer, away: true })
      .onConflictDoUpdate({ target: reviewerSettings.userId, set: { away: true } });
    const [profile] = await db().select({ name: profiles.name }).from(profiles).where(eq(profiles.id, 3));
    const agentMailBefore = (await recentMail(db(), 'agent@acme.test')).length;
    await addNote(3, 'Away test: @reviewer and @agent, see this');
    const mail = await recentMail(db(), 'reviewer@acme.test');
    expect(mail[0]?.subject).toMatch(new RegExp(`mentioned you on ${profile?.name}$`));
    expect(mail[0]?.body).toContain('“Away test: @reviewer and @agent, see this”');
    expect(mail[0]?.body).toContain(`${t.config.publicUrl}/profile/3`);
    expect((await recentMail(db(), 'agent@acme.test')).length).toBe(agentMailBefore);
    await db().update(reviewerSettings).set({ away: false }).where(eq(reviewerSettings.userId, ids.reviewer));
  });

  it('offers the colleagues to mention, without the caller, each with the handle that mentions them', async () => {
    const { status, body } = await get<Colleague[]>(t.app, '/api/v2/notifications/colleagues', tokens.admin);
    expect(status).toBe(200);
    expect(body.map((c) => c.id)).not.toContain(ids.admin);
    expect(body.find((c) => c.id === ids.agent)).toMatchObject({ email: 'agent@acme.test', handle: 'agent' });
    expect(body.every((c) => !c.email.endsWith('@globex.test'))).toBe(true);
  });
});

describe('the notifications API', () => {
  it('pages newest first, lists only the unread ones on request, and marks one or all read', async () => {
    await addNote(4, 'First for the pages @reviewer');
    await addNote(4, 'Second for the pages @reviewer');
    const page = await bell(tokens.reviewer, '?limit=1');
    expect(page.body.results).toHaveLength(1);
    expect(page.body.results[0]?.note.snippet).toBe('Second for the pages @reviewer');
    expect(page.body.next).toContain('offset=1');
    expect(page.body.count).toBeGreaterThan(1);
    const id = page.body.results[0]?.id ?? 0;
    const read = await post<{ read_at: string | null }>(
      t.app,
      `/api/v2/notifications/${id}/read`,
      {},
      tokens.reviewer,
    );
    expect(read.body.read_at).not.toBeNull();
    const again = await post<{ read_at: string | null }>(
      t.app,
      `/api/v2/notifications/${id}/read`,
      {},
      tokens.reviewer,
    );
    expect(again.body.read_at).toBe(read.body.read_at);
    const unreadOnly = await bell(tokens.reviewer, '?unread=true');
    expect(unreadOnly.body.results.map((n) => n.id)).not.toContain(id);
    expect(unreadOnly.body.count).toBe(unreadOnly.body.unread);
    const all = await post<{ marked: number; unread: number }>(
      t.app,
      '/api/v2/notifications/read_all',
      {},
      tokens.reviewer,
    );
    expect(all.body).toEqual({ marked: unreadOnly.body.unread, unread: 0 });
    expect((await bell(tokens.reviewer)).body.unread).toBe(0);
  });
});

describe('review decisions in the profile history', () => {
  const logsOf = async (profile: number) =>
    (await get<{ results: LogEntry[] }>(t.app, `/api/v2/profile/${profile}/logs?limit=50`, tokens.admin)).body
      .results;
  let seq = 0;
  async function pendingCase(risk: string) {
    const created = await post<{ id: number }>(
      t.app,
      '/api/v2/profile',
      { id_card_number: `MEN-${Date.now()}-${++seq}`, name: `History Person ${seq}` },
      tokens.admin,
    );
    await db().update(profiles).set({ riskLevel: risk }).where(eq(profiles.id, created.body.id));
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/profile/${created.body.id}/status`,
      headers: bearer(tokens.admin),
      payload: { status: 'Pending Review' },
    });
    const [row] = await db()
      .select({ id: reviewCases.id })
      .from(reviewCases)
      .where(and(eq(reviewCases.profileId, created.body.id), eq(reviewCases.kind, 'pending_review')));
    return { profileId: created.body.id, caseId: row?.id ?? 0 };
  }

  it('a decision without four-eyes logs the decision, the reason code with its labels and the note', async () => {
    const { profileId, caseId } = await pendingCase('Normal');
    const decided = await post(
      t.app,
      `/api/v2/review/cases/${caseId}/decision`,
      { decision: 'reject', reason_code: 'face_mismatch', note: 'The selfie is someone else' },
      tokens.admin,
    );
    expect(decided.status).toBe(200);
    const entry = (await logsOf(profileId)).find((e) => e.action === 'review_decided');
    expect(entry).toMatchObject({
      actor: { id: ids.admin },
      data: {
        case_id: caseId,
        decision: 'reject',
        reason_code: 'face_mismatch',
        reason: { 'en-US': 'Face does not match the document', tr: expect.any(String) },
        note: 'The selfie is someone else',
      },
      message:
        'Review decision: reject · reason: Face does not match the document · note: The selfie is someone else',
    });
  });

  it('an abort, which changes no status, is in the history too', async () => {
    const { profileId, caseId } = await pendingCase('Normal');
    await post(
      t.app,
      `/api/v2/review/cases/${caseId}/decision`,
      { decision: 'abort', reason_code: 'duplicate' },
      tokens.admin,
    );
    const entry = (await logsOf(profileId)).find((e) => e.action === 'review_decided');
    expect(entry?.data).toMatchObject({ decision: 'abort', reason_code: 'duplicate' });
  });

  it('a confirmed four-eyes decision names the maker and the checker', async () => {
    const { profileId, caseId } = await pendingCase('High');
    await post(t.app, `/api/v2/review/cases/${caseId}/assign`, {}, tokens.agent);
    const made = await post<{ second_review_required: boolean }>(
      t.app,
      `/api/v2/review/cases/${caseId}/decision`,
      { decision: 'approve', note: 'All documents are fine' },
      tokens.agent,
    );
    expect(made.body.second_review_required).toBe(true);
    expect((await logsOf(profileId)).some((e) => e.action === 'review_decided')).toBe(false);
    expect((await post(t.app, `/api/v2/review/cases/${caseId}/confirm`, {}, tokens.reviewer)).status).toBe(
      200,
    );
    const entry = (await logsOf(profileId)).find((e) => e.action === 'review_decided');
    expect(entry?.actor?.id).toBe(ids.reviewer);
    expect(entry?.data).toMatchObject({
      decision: 'approve',
      reason_code: null,
      note: 'All documents are fine',
      maker: expect.any(String),
      checker: expect.any(String),
    });
    expect(entry?.message).toMatch(
      /^Review decision: approve · note: All documents are fine · made by .+, confirmed by .+ \(four-eyes\)$/,
    );
  });
});
