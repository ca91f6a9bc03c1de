/** The company's mail for Admins: the queue's messages, a retry, the template preview. */
import type { Page } from '#contract/common';
import type {
  CompanyMailLanguage,
  MailKind,
  MailLanguage,
  MailMessage,
  MailPreview,
  MailStatus,
} from '#contract/mail';
import { api } from './http';

type Options = { signal?: AbortSignal };

export interface MailListParams {
  limit: number;
  offset: number;
  status?: MailStatus;
}

export const mailKeys = {
  all: ['mail'] as const,
  list: (params: MailListParams) => ['mail', 'list', params] as const,
  preview: (kind: MailKind, language: MailLanguage) => ['mail', 'preview', kind, language] as const,
  language: () => ['mail', 'language'] as const,
};

export function listMail(params: MailListParams, { signal }: Options = {}): Promise<Page<MailMessage>> {
  const searchParams = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) });
  if (params.status) searchParams.set('status', params.status);
  return api.get('mail', { searchParams, signal }).json<Page<MailMessage>>();
}

export function retryMail(id: number, { signal }: Options = {}): Promise<MailMessage> {
  return api.post(`mail/${id}/retry`, { signal }).json<MailMessage>();
}

export function previewMail(
  kind: MailKind,
  language: MailLanguage,
  { signal }: Options = {},
): Promise<MailPreview> {
  return api.get('mail/preview', { searchParams: { kind, language }, signal }).json<MailPreview>();
}

/** The language of the company's e-mail to users who chose none. */
export function getCompanyMailLanguage({ signal }: Options = {}): Promise<CompanyMailLanguage> {
  return api.get('mail/language', { signal }).json<CompanyMailLanguage>();
}

export function setCompanyMailLanguage(
  body: CompanyMailLanguage,
  { signal }: Options = {},
): Promise<CompanyMailLanguage> {
  return api.put('mail/language', { json: body, signal }).json<CompanyMailLanguage>();
}
