import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_LOG_EVENTS } from '#contract/logEvents';
import type { ChecklistGroup, LogEntry } from '#contract/notes';
import type { QuestionnaireQuestion } from '#contract/questionnaires';
import { checklistQuestions, profileLogs, profiles } from '../../server/db/schema';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let admin = '';

beforeAll(async () => {
  t = await startTestApp();
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => t.close());

async function send(method: 'PATCH' | 'POST', url: string, payload: object) {
  const response = await t.app.inject({ method, url: `/api/v2${url}`, payload, headers: bearer(admin) });
  return response.statusCode;
}

async function freshProfile(): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/profile',
    payload: { id_card_number: `log${Date.now()}`, name: 'Log Reader', gender: null },
    headers: bearer(admin),
  });
  return (response.json() as { id: number }).id;
}

const lastRow = async (profileId: number, action: string) =>
  (
    await t.app.ctx.db
      .select()
      .from(profileLogs)
      .where(and(eq(profileLogs.profileId, profileId), eq(profileLogs.action, action)))
      .orderBy(desc(profileLogs.id))
      .limit(1)
  )[0];

describe('profile logs are stored as event codes with parameters', () => {
  it('stores a status change and a check-list answer as codes, never a sentence', async () => {
    const id = await freshProfile();
    expect(await send('PATCH', `/profile/${id}/status`, { status: 'Pending Upload' })).toBe(200);
    const status = await lastRow(id, 'status_changed');
    expect(status?.data).toEqual({ from: 'Created', to: 'Pending Upload' });
    // No column holds a sentence any more.
    const columns = await t.app.ctx.db.execute(
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'profile_logs'`,
    );
    const names = (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
    expect(names).not.toContain('message');

    const [question] = await t.app.ctx.db.select().from(checklistQuestions).limit(1);
    expect(await send('POST', `/profile/${id}/answer`, { question: question?.id, value: true })).toBe(200);
    const answer = await lastRow(id, 'checklist_answered');
    expect(answer?.data).toEqual({
      question: question?.id,
      text: { 'en-US': question?.question, tr: question?.questionTr },
      value: true,
    });
    expect(question?.questionTr).toMatch(/mu\?$/);
    // Every stored entry fits its code's parameters.
    const rows = await t.app.ctx.db.select().from(profileLogs).where(eq(profileLogs.profileId, id));
    for (const row of rows) {
      expect(
        PROFILE_LOG_EVENTS[row.action as keyof typeof PROFILE_LOG_EVENTS].safeParse(row.data).success,
      ).toBe(true);
    }
  });

  it('answers code and parameters, with the English sentence kept for API clients', async () => {
    const id = await freshProfile();
    expect(await send('PATCH', `/profile/${id}/status`, { status: 'Pending Upload' })).toBe(200);
    const { body } = await get<{ results: LogEntry[] }>(t.app, `/api/v2/profile/${id}/logs`, admin);
    expect(body.results[0]).toMatchObject({
      action: 'status_changed',
      data: { from: 'Created', to: 'Pending Upload' },
      message: 'Status changed from Created to Pending Upload',
    });
    expect(body.results.at(-1)).toMatchObject({ action: 'profile_created', message: 'Profile created' });
  });

  it('seeds the demo logs with codes of the catalogue', async () => {
    const rows = await t.app.ctx.db.select({ action: profileLogs.action }).from(profileLogs);
    const codes = new Set(rows.map((r) => r.action));
    for (const code of codes) expect(Object.keys(PROFILE_LOG_EVENTS)).toContain(code);
  });
});

describe('check lists and questionnaires in both languages', () => {
  it('serves each check-list group and question, questionnaire question and option in English and Turkish', async () => {
    const [profile] = await t.app.ctx.db.select({ id: profiles.id }).from(profiles).limit(1);
    const groups = await get<ChecklistGroup[]>(t.app, `/api/v2/profile/${profile?.id}/checklist`, admin);
    expect(groups.body[0]?.texts).toEqual({ 'en-US': 'Identity', tr: 'Kimlik' });
    expect(groups.body[0]?.questions[0]?.texts).toEqual({
      'en-US': 'Does the photo match the selfie?',
      tr: 'Fotoğraf özçekimle eşleşiyor mu?',
    });
    const questions = await get<QuestionnaireQuestion[]>(t.app, '/api/v2/questionnaire/questions', admin);
    expect(questions.body[0]?.texts).toEqual({
      'en-US': 'What is the purpose of your account?',
      tr: 'Hesabınızın amacı nedir?',
    });
    expect(questions.body[0]?.answers[0]?.texts).toEqual({ 'en-US': 'Option 1', tr: 'Seçenek 1' });
  });
});
