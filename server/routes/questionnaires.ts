import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  questionnaireAnswerQuerySchema,
  questionnaireAnswerSchema,
  questionnaireQuestionSchema,
} from '#contract/questionnaires';
import type { AppContext } from '../context';
import { questionnaireQuestions } from '../db/schema';
import { assertProfile } from '../domain/profiles';
import { questionnaireAnswersOf } from '../domain/questionnaireAnswers';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

const access = need('view_profiles_page');

export function questionnaireRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/questionnaire/questions',
      {
        config: { access },
        schema: {
          summary: 'Questionnaire questions',
          tags: ['questionnaires'],
          response: { 200: z.array(questionnaireQuestionSchema), ...authErrors },
        },
      },
      async (request) => {
        const rows = await ctx.db
          .select()
          .from(questionnaireQuestions)
          .where(eq(questionnaireQuestions.companyId, principalOf(request).companyId))
          .orderBy(asc(questionnaireQuestions.sortOrder), asc(questionnaireQuestions.id));
        return rows.map((q) => ({
          id: q.id,
          title: q.title,
          texts: { 'en-US': q.title, tr: q.titleTr ?? q.title },
          answer_type: q.answerType as 'single_choice' | 'multiple_choice',
          optional: q.optional,
          sort_order: q.sortOrder,
          answers: q.answers.map((o) => ({
            id: o.id,
            text: o.text,
            texts: { 'en-US': o.text, tr: o.text_tr ?? o.text },
          })),
        }));
      },
    );

    app.get(
      '/questionnaire/answer',
      {
        config: { access },
        schema: {
          summary: "A profile's questionnaire answers",
          tags: ['questionnaires'],
          querystring: questionnaireAnswerQuerySchema,
          response: { 200: z.array(questionnaireAnswerSchema), ...authErrors },
        },
      },
      async (request) => {
        await assertProfile(ctx.db, principalOf(request).companyId, request.query.profile);
        return questionnaireAnswersOf(ctx.db, request.query.profile);
      },
    );
  };
}
