import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEntry } from '#contract/videocalls';
import { users } from '../../server/db/schema';
import { addCallEntry, callQuestions } from '../../server/domain/videocalls/entries';
import { createCall } from '../../server/domain/videocalls/lifecycle';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let agent = '';
let viewer = '';
let globex = '';

beforeAll(async () => {
  t = await startTestApp();
  agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
});
afterAll(() => t.close());

describe('GET /videocall/{id}/answers', () => {
  it('lists what was saved during the call, oldest first, with the question in the asked language', async () => {
    const db = t.app.ctx.db;
    const call = await createCall(db, 1, 3);
    const [question] = await callQuestions(db, 1, call.id, 'EN');
    const [questionTr] = await callQuestions(db, 1, call.id, 'TR');
    const [author] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'agent@acme.test'));
    const by = author?.id as number;
    // Saved as the call's routes save them (who may save them is the call desk's rule, not this list's).
    await addCallEntry(db, 1, call.id, by, { question: question?.id ?? null, value: 'Deniz Şahin' });
    await addCallEntry(db, 1, call.id, by, {
      question: null,
      note: 'The customer showed the ID card clearly.',
    });

    const en = await get<CallEntry[]>(t.app, `/api/v2/videocall/${call.id}/answers?lang=EN`, agent);
    expect(en.status).toBe(200);
    expect(en.body).toMatchObject([
      { question: question?.id, question_text: question?.question, value: 'Deniz Şahin', note: null },
      { question: null, question_text: null, value: null, note: 'The customer showed the ID card clearly.' },
    ]);
    // A reviewer of profiles reads them too (on the profile), in Turkish when asked.
    const tr = await get<CallEntry[]>(t.app, `/api/v2/videocall/${call.id}/answers?lang=tr`, viewer);
    expect(tr.status).toBe(200);
    expect(tr.body[0]?.question_text).toBe(questionTr?.question);

    // Another company's call is not found; a language it does not know is a 400 with a detail.
    const other = await get<{ detail: string }>(t.app, `/api/v2/videocall/${call.id}/answers`, globex);
    expect(other.status).toBe(404);
    const bad = await get<{ detail: string }>(t.app, `/api/v2/videocall/${call.id}/answers?lang=xx`, agent);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBeTruthy();
    expect((await get(t.app, `/api/v2/videocall/${call.id}/answers`)).status).toBe(401);
  });
});
