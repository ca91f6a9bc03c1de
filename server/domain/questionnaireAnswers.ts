import { asc, eq } from 'drizzle-orm';
import type { QuestionnaireAnswer } from '#contract/questionnaires';
import type { DbOrTx } from '../db/client';
import { questionnaireAnswers, questionnaireQuestions } from '../db/schema';
import { iso } from './format';

/** A profile's questionnaire answers in the order of the questions (the API and the profile's export). */
export async function questionnaireAnswersOf(db: DbOrTx, profileId: number): Promise<QuestionnaireAnswer[]> {
  const rows = await db
    .select({ answer: questionnaireAnswers })
    .from(questionnaireAnswers)
    .innerJoin(questionnaireQuestions, eq(questionnaireQuestions.id, questionnaireAnswers.questionId))
    .where(eq(questionnaireAnswers.profileId, profileId))
    .orderBy(asc(questionnaireQuestions.sortOrder));
  return rows.map(({ answer: a }) => ({
    id: a.id,
    question: a.questionId,
    skipped: a.skipped,
    single_option_answer: a.singleOptionAnswer,
    multiple_option_answer: a.multipleOptionAnswer,
    typed_answer: a.typedAnswer,
    created_at: iso(a.createdAt),
  }));
}
