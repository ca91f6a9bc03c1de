import { z } from 'zod';
import { idText, isoDateTime } from './common';
import { localizedTextSchema } from './logEvents';

/** `text` is the English text; `texts` the text in each studio language (English where none is set). */
export const questionnaireOptionSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  texts: localizedTextSchema,
});

export const questionnaireQuestionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  texts: localizedTextSchema,
  answer_type: z.enum(['single_choice', 'multiple_choice']),
  optional: z.boolean(),
  sort_order: z.number().int(),
  answers: z.array(questionnaireOptionSchema),
});
export type QuestionnaireQuestion = z.infer<typeof questionnaireQuestionSchema>;

export const questionnaireAnswerSchema = z.object({
  id: z.number().int(),
  question: z.number().int(),
  skipped: z.boolean(),
  single_option_answer: z.number().int().nullable(),
  multiple_option_answer: z.array(z.number().int()),
  typed_answer: z.string().nullable(),
  created_at: isoDateTime,
});
export type QuestionnaireAnswer = z.infer<typeof questionnaireAnswerSchema>;

export const questionnaireAnswerQuerySchema = z.strictObject({ profile: idText });
