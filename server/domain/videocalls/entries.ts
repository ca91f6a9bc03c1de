/** The company's questions of a call, and the answers and notes an agent gives during it. */
import { and, asc, eq } from 'drizzle-orm';
import type { CallAnswer } from '#contract/videocalls';
import type { DbOrTx } from '../../db/client';
import { videoCallAnswers, videoCallQuestions, videoCalls } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { iso } from '../format';
import { requireCall } from './calls';

/** The company's call questions in one language; the call must be the company's. */
export async function callQuestions(db: DbOrTx, companyId: number, callId: number, lang: 'EN' | 'TR') {
  const [call] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)));
  if (!call) throw notFound();
  const rows = await db
    .select()
    .from(videoCallQuestions)
    .where(eq(videoCallQuestions.companyId, companyId))
    .orderBy(asc(videoCallQuestions.sortOrder));
  return rows.map((q) => ({
    id: q.id,
    question: lang === 'TR' ? q.textTr : q.textEn,
    sort_order: q.sortOrder,
  }));
}

/** An answer or a note given during a call (video_call_answers). */
export async function addCallEntry(
  db: DbOrTx,
  companyId: number,
  callId: number,
  authorId: number,
  entry: { question: number | null; value?: string; note?: string },
): Promise<CallAnswer> {
  await requireCall(db, companyId, callId);
  if (entry.question !== null) {
    const [question] = await db
      .select({ id: videoCallQuestions.id })
      .from(videoCallQuestions)
      .where(and(eq(videoCallQuestions.id, entry.question), eq(videoCallQuestions.companyId, companyId)));
    if (!question) throw badRequest('Unknown question');
  }
  const [row] = await db
    .insert(videoCallAnswers)
    .values({
      callId,
      questionId: entry.question,
      value: entry.value ?? null,
      note: entry.note ?? null,
      authorId,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return {
    id: row.id,
    question: row.questionId,
    value: row.value,
    note: row.note,
    created_at: iso(row.createdAt),
  };
}
