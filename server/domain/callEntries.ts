import { asc, eq } from 'drizzle-orm';
import type { CallEntry } from '#contract/videocalls';
import type { DbOrTx } from '../db/client';
import { videoCallAnswers, videoCallQuestions } from '../db/schema';
import { iso } from './format';
import { requireCall } from './videocalls/calls';

/** The answers and notes of a call of the company, oldest first, with the question texts in `lang`. */
export async function callEntries(
  db: DbOrTx,
  companyId: number,
  callId: number,
  lang: 'EN' | 'TR',
): Promise<CallEntry[]> {
  await requireCall(db, companyId, callId);
  const rows = await callAnswerRows(db, callId);
  return rows.map(({ entry, en, tr }) => ({
    id: entry.id,
    question: entry.questionId,
    question_text: (lang === 'TR' ? tr : en) ?? null,
    value: entry.value,
    note: entry.note,
    created_at: iso(entry.createdAt),
  }));
}

/**
 * A call's answers and notes, oldest first, with their question's texts in both languages (null for a note):
 * what the studio lists and what the evidence package keeps.
 */
export function callAnswerRows(db: DbOrTx, callId: number) {
  return db
    .select({ entry: videoCallAnswers, en: videoCallQuestions.textEn, tr: videoCallQuestions.textTr })
    .from(videoCallAnswers)
    .leftJoin(videoCallQuestions, eq(videoCallQuestions.id, videoCallAnswers.questionId))
    .where(eq(videoCallAnswers.callId, callId))
    .orderBy(asc(videoCallAnswers.createdAt), asc(videoCallAnswers.id));
}
