/** Checklists and questionnaires with their answers. */
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { companies, users } from './companies';
import { profiles } from './profiles';

export const checklistGroups = pgTable('checklist_groups', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  /** The Turkish name (null: the English one is shown). */
  nameTr: text(),
  sortOrder: integer().notNull(),
});

export const checklistQuestions = pgTable('checklist_questions', {
  id: id(),
  groupId: integer()
    .notNull()
    .references(() => checklistGroups.id, { onDelete: 'cascade' }),
  question: text().notNull(),
  /** The Turkish text (null: the English one is shown). */
  questionTr: text(),
  sortOrder: integer().notNull(),
});

export const checklistAnswers = pgTable(
  'checklist_answers',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    questionId: integer()
      .notNull()
      .references(() => checklistQuestions.id, { onDelete: 'cascade' }),
    value: boolean(),
    note: text(),
    answeredBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('checklist_answers_profile_question').on(t.profileId, t.questionId)],
);

export const questionnaireQuestions = pgTable('questionnaire_questions', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  title: text().notNull(),
  /** The Turkish title (null: the English one is shown). */
  titleTr: text(),
  /** single_choice | multiple_choice */
  answerType: text().notNull(),
  optional: boolean().notNull().default(false),
  sortOrder: integer().notNull(),
  /** Options: [{ id, text, text_tr? }] (text_tr: the Turkish text). */
  answers: jsonb().$type<{ id: number; text: string; text_tr?: string }[]>().notNull().default([]),
});

export const questionnaireAnswers = pgTable(
  'questionnaire_answers',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    questionId: integer()
      .notNull()
      .references(() => questionnaireQuestions.id, { onDelete: 'cascade' }),
    skipped: boolean().notNull().default(false),
    singleOptionAnswer: integer(),
    multipleOptionAnswer: jsonb().$type<number[]>().notNull().default([]),
    typedAnswer: text(),
    createdAt: createdAt(),
  },
  (t) => [index('questionnaire_answers_profile').on(t.profileId)],
);
