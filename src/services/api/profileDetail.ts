/** What the profile screen reads besides the profile (docs/product/api.md): company config, notes, logs, device data, questionnaires. */
import type { AmlResult } from '#contract/aml';
import type { Page } from '#contract/common';
import type { CompanyConfig } from '#contract/companies';
import type { DeviceData, Document } from '#contract/documents';
import type { ChecklistGroup, LogEntry, Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import type { QuestionnaireAnswer, QuestionnaireQuestion } from '#contract/questionnaires';
import type { Transaction } from '#contract/transactions';
import type { VideoCall } from '#contract/videocalls';
import { api, ifMatch } from './http';

type Options = { signal?: AbortSignal };

/** Logs page size (docs/product/constants.md). */
export const LOGS_PAGE_SIZE = 20;

export const profileDetailKeys = {
  profile: (id: number) => ['profiles', 'detail', id] as const,
  config: (companyId: number) => ['company', companyId, 'config'] as const,
  notes: (id: number) => ['profiles', 'detail', id, 'notes'] as const,
  logs: (id: number) => ['profiles', 'detail', id, 'logs'] as const,
  devices: (id: number) => ['profiles', 'detail', id, 'devices'] as const,
  questions: ['questionnaire', 'questions'] as const,
  answers: (id: number) => ['profiles', 'detail', id, 'answers'] as const,
};

export const getProfile = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}`, { signal }).json<Profile>();

export const getCompanyConfig = (companyId: number, { signal }: Options = {}) =>
  api.get(`company/${companyId}/config/app`, { signal }).json<CompanyConfig>();

export const listNotes = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/note`, { signal }).json<Note[]>();

export const listLogs = (id: number, afterId: number | undefined, { signal }: Options = {}) =>
  api
    .get(`profile/${id}/logs`, {
      searchParams: afterId ? { limit: LOGS_PAGE_SIZE, after_id: afterId } : { limit: LOGS_PAGE_SIZE },
      signal,
    })
    .json<{ results: LogEntry[]; has_more: boolean }>();

export const listDevices = (id: number, { signal }: Options = {}) =>
  api
    .get(`profile/${id}/device_data`, { signal })
    .json<(DeviceData & { id: number; created_at: string })[]>();

export const listQuestions = ({ signal }: Options = {}) =>
  api.get('questionnaire/questions', { signal }).json<QuestionnaireQuestion[]>();

export const listAnswers = (id: number, { signal }: Options = {}) =>
  api.get('questionnaire/answer', { searchParams: { profile: id }, signal }).json<QuestionnaireAnswer[]>();

export const sidebarKeys = {
  checklists: (id: number) => ['profiles', 'detail', id, 'checklists'] as const,
  documents: (id: number, filter: DocumentFilter) => ['profiles', 'detail', id, 'documents', filter] as const,
  nvi: (id: number) => ['profiles', 'detail', id, 'nvi'] as const,
};

/** Which documents a sidebar list shows (the documents query). */
export type DocumentFilter = { archived?: boolean; upload_source?: string };

export const listChecklists = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/checklist`, { signal }).json<ChecklistGroup[]>();

/** POST /profile/{id}/answer with the profile's version (If-Match; 409 when it is stale). */
export const answerChecklist = (
  id: number,
  body: { question: number; value: boolean; note?: string | null },
  version: number,
  { signal }: Options = {},
) =>
  api
    .post(`profile/${id}/answer`, { json: body, headers: ifMatch(version), signal })
    .json<ChecklistGroup['questions'][number]>();

export const listDocuments = (id: number, filter: DocumentFilter, { signal }: Options = {}) =>
  api
    .get(`profile/${id}/documents`, {
      searchParams: Object.fromEntries(Object.entries(filter).map(([key, value]) => [key, String(value)])),
      signal,
    })
    .json<Document[]>();

export const getNvi = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/nvi`, { signal }).json<{ id: number; extra_data: Record<string, unknown> }>();

export const stepKeys = {
  aml: (id: number) => ['profiles', 'detail', id, 'aml'] as const,
  calls: (id: number) => ['profiles', 'detail', id, 'calls'] as const,
};

export const getAml = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/aml`, { signal }).json<AmlResult>();

export const listCalls = (id: number, { signal }: Options = {}) =>
  api.get('videocall', { searchParams: { profile: id, limit: 50 }, signal }).json<Page<VideoCall>>();

export const transactionKeys = (id: number) => ['profiles', 'detail', id, 'transactions'] as const;

export const listTransactions = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/transactions`, { signal }).json<Transaction[]>();
