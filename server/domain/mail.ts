/** The company's mail as its Admins see it (docs/decisions/0160-mail-queue.md): the list, a retry, the template preview. */
import { and, count, desc, eq } from 'drizzle-orm';
import {
  type CompanyMailLanguage,
  MAIL_DETAILS,
  MAIL_STATUSES,
  type MailMessage,
  type MailPreview,
  type MailPreviewQuery,
  type MailStatus,
} from '#contract/mail';
import type { Db, DbOrTx } from '../db/client';
import { companies, mailOutbox } from '../db/schema';
import { conflict, HttpError } from '../errors';
import { BLANKED_CODE } from '../integrations/mail';
import { renderMail, sampleValues } from '../integrations/mailTemplates';
import { recordAudit } from './audit';
import { iso } from './format';

type Row = typeof mailOutbox.$inferSelect;

const statusOf = (value: string): MailStatus =>
  MAIL_STATUSES.includes(value as MailStatus) ? (value as MailStatus) : 'failed';

/** The listing never carries a body: a code, even blanked, stays out of it. */
function toMessage(row: Row): MailMessage {
  const status = statusOf(row.status);
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    kind: row.kind,
    language: row.language,
    status,
    attempts: row.attempts,
    last_error: row.lastError,
    next_attempt_at: status === 'queued' ? iso(row.nextAttemptAt) : null,
    created_at: iso(row.createdAt),
    sent_at: row.sentAt ? iso(row.sentAt) : null,
  };
}

/** The company's messages, newest first, optionally of one status. */
export async function listMail(
  db: DbOrTx,
  companyId: number,
  query: { limit: number; offset: number; status?: MailStatus },
): Promise<{ count: number; results: MailMessage[] }> {
  const where = and(
    eq(mailOutbox.companyId, companyId),
    query.status ? eq(mailOutbox.status, query.status) : undefined,
  );
  const [total, rows] = await Promise.all([
    db.select({ value: count() }).from(mailOutbox).where(where),
    db
      .select()
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.id))
      .limit(query.limit)
      .offset(query.offset),
  ]);
  return { count: total[0]?.value ?? 0, results: rows.map(toMessage) };
}

/**
 * Queues a failed message again with a fresh set of attempts. Another company's message is 404; one not
 * failed is 409; one whose code's sealed copy is gone (the code expired) is 409: it could only fail again.
 */
export async function retryMail(db: DbOrTx, companyId: number, id: number): Promise<MailMessage> {
  const [row] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.companyId, companyId)));
  if (!row) throw new HttpError(404, MAIL_DETAILS.notFound);
  if (row.status !== 'failed') throw conflict(MAIL_DETAILS.notFailed);
  const codeGone =
    row.body.includes(BLANKED_CODE) && (!row.sealed || (row.sealedUntil?.getTime() ?? 0) <= Date.now());
  if (codeGone) throw conflict(MAIL_DETAILS.codeExpired);
  const [updated] = await db
    .update(mailOutbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: new Date(), lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
    .returning();
  if (!updated) throw conflict(MAIL_DETAILS.notFailed);
  return toMessage(updated);
}

/** A template in a language with sample values, signed with the caller's company. */
export async function previewMail(
  db: DbOrTx,
  companyId: number,
  product: string,
  publicUrl: string,
  query: MailPreviewQuery,
): Promise<MailPreview> {
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  return renderMail(query.kind, query.language, sampleValues(query.kind, publicUrl), {
    product,
    company: company?.name ?? null,
  });
}

/** The language of the company's e-mail to users who chose none of their own. */
export async function companyMailLanguage(db: DbOrTx, companyId: number): Promise<CompanyMailLanguage> {
  const [row] = await db
    .select({ language: companies.mailLanguage })
    .from(companies)
    .where(eq(companies.id, companyId));
  return { mail_language: row?.language === 'tr' ? 'tr' : 'en' };
}

/** An Admin sets it; audited when it changes. */
export async function setCompanyMailLanguage(
  db: Db,
  actor: { companyId: number; userId: number },
  body: CompanyMailLanguage,
): Promise<CompanyMailLanguage> {
  return db.transaction(async (tx) => {
    const before = await companyMailLanguage(tx, actor.companyId);
    if (before.mail_language === body.mail_language) return before;
    await tx
      .update(companies)
      .set({ mailLanguage: body.mail_language })
      .where(eq(companies.id, actor.companyId));
    await recordAudit(tx, {
      companyId: actor.companyId,
      actorId: actor.userId,
      object: 'company',
      objectId: actor.companyId,
      action: 'mail_language_changed',
      before,
      after: body,
    });
    return body;
  });
}
