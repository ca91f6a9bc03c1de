/** The mail queue's Admin view and the template preview (docs/decisions/0160-mail-queue.md, docs/decisions/0161-mail-templates.md). */
import { z } from 'zod';
import { isoDateTime, pageSchema, pagingQuery } from './common';

/** The languages e-mail is written in: the user's, else the company's, else English. */
export const MAIL_LANGUAGES = ['en', 'tr'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
export const mailLanguageSchema = z.enum(MAIL_LANGUAGES);

/** Every templated message (server/integrations/mailTemplates). */
export const MAIL_KINDS = [
  'invitation',
  'password_reset',
  'signup_code',
  'forced_reset',
  'webhook_disabled',
  'mention',
  'call_code',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const mailKindSchema = z.enum(MAIL_KINDS);

/** queued (waiting or retrying), sent, failed (final until an Admin retries it). */
export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** One message of the company's mail (GET /api/v2/mail): never its body, so never a code. */
export const mailMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  /** A template of MAIL_KINDS, or 'other'. */
  kind: z.string(),
  language: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  /** The relay's answer to the last failed attempt. */
  last_error: z.string().nullable(),
  /** When a queued message is tried next. */
  next_attempt_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  sent_at: isoDateTime.nullable(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

export const mailListQuery = z.strictObject({
  ...pagingQuery,
  status: z.enum(MAIL_STATUSES).optional(),
});
export type MailListQuery = z.input<typeof mailListQuery>;

export const mailPageSchema = pageSchema(mailMessageSchema);
export type MailPage = z.infer<typeof mailPageSchema>;

export const mailPreviewQuery = z.strictObject({ kind: mailKindSchema, language: mailLanguageSchema });
export type MailPreviewQuery = z.infer<typeof mailPreviewQuery>;

/** A template rendered with sample data. */
export const mailPreviewSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export type MailPreview = z.infer<typeof mailPreviewSchema>;

/** The language of the company's e-mail to users who chose none (GET and PUT /api/v2/mail/language). */
export const companyMailLanguageSchema = z.strictObject({ mail_language: mailLanguageSchema });
export type CompanyMailLanguage = z.infer<typeof companyMailLanguageSchema>;

export const MAIL_DETAILS = {
  notFound: 'Message not found',
  notFailed: 'Only a failed message can be retried',
  codeExpired: 'The message carried a one-time code that has expired: it cannot be sent again',
} as const;
