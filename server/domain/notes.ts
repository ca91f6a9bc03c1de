import { and, asc, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { ChecklistGroup, LogEntry, Note } from '#contract/notes';
import type { DbOrTx } from '../db/client';
import {
  checklistAnswers,
  checklistGroups,
  checklistQuestions,
  notes,
  profileLogs,
  users,
} from '../db/schema';
import { fullName, iso } from './format';
import { englishLogMessage } from './logText';

export async function listNotes(db: DbOrTx, profileId: number): Promise<Note[]> {
  const rows = await db
    .select({ note: notes, first: users.firstName, last: users.lastName })
    .from(notes)
    .leftJoin(users, eq(users.id, notes.authorId))
    .where(eq(notes.profileId, profileId))
    .orderBy(desc(notes.createdAt), desc(notes.id));
  return rows.map(({ note, first, last }) => ({
    id: note.id,
    profile: note.profileId,
    kind: note.kind as Note['kind'],
    note: note.note,
    author: note.authorId !== null ? { id: note.authorId, name: fullName(first ?? '', last ?? '') } : null,
    created_at: iso(note.createdAt),
  }));
}

/** Newest first; `afterId` continues below that entry (ids only grow). */
export async function listLogs(
  db: DbOrTx,
  profileId: number,
  paging: { limit: number; after_id?: number | undefined },
): Promise<{ results: LogEntry[]; has_more: boolean }> {
  const where: SQL[] = [eq(profileLogs.profileId, profileId)];
  if (paging.after_id !== undefined) where.push(lt(profileLogs.id, paging.after_id));
  const rows = await db
    .select({ log: profileLogs, first: users.firstName, last: users.lastName })
    .from(profileLogs)
    .leftJoin(users, eq(users.id, profileLogs.actorId))
    .where(and(...where))
    .orderBy(desc(profileLogs.id))
    .limit(paging.limit + 1);
  return {
    has_more: rows.length > paging.limit,
    results: rows.slice(0, paging.limit).map(({ log, first, last }) => ({
      id: log.id,
      action: log.action,
      message: englishLogMessage(log.action, log.data),
      actor: log.actorId !== null ? { id: log.actorId, name: fullName(first ?? '', last ?? '') } : null,
      data: log.data,
      created_at: iso(log.createdAt),
    })),
  };
}

/** The company's checklist groups with their questions and this profile's answers. */
export async function getChecklist(
  db: DbOrTx,
  companyId: number,
  profileId: number,
): Promise<ChecklistGroup[]> {
  const rows = await db
    .select({ group: checklistGroups, question: checklistQuestions, answer: checklistAnswers })
    .from(checklistGroups)
    .innerJoin(checklistQuestions, eq(checklistQuestions.groupId, checklistGroups.id))
    .leftJoin(
      checklistAnswers,
      and(eq(checklistAnswers.questionId, checklistQuestions.id), eq(checklistAnswers.profileId, profileId)),
    )
    .where(eq(checklistGroups.companyId, companyId))
    .orderBy(asc(checklistGroups.sortOrder), asc(checklistQuestions.sortOrder));
  const result: ChecklistGroup[] = [];
  for (const { group, question, answer } of rows) {
    let target = result.find((g) => g.id === group.id);
    if (!target) {
      target = {
        id: group.id,
        name: group.name,
        texts: { 'en-US': group.name, tr: group.nameTr ?? group.name },
        sort_order: group.sortOrder,
        questions: [],
      };
      result.push(target);
    }
    target.questions.push({
      id: question.id,
      question: question.question,
      texts: { 'en-US': question.question, tr: question.questionTr ?? question.question },
      sort_order: question.sortOrder,
      answer: answer?.value ?? null,
      note: answer?.note ?? null,
      created_at: iso(answer?.createdAt ?? null),
    });
  }
  return result;
}
