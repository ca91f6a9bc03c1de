import { and, asc, eq, sql } from 'drizzle-orm';
import type { MailKind, MailLanguage } from '#contract/mail';
import type { DbOrTx } from '../../db/client';
import { companies, users } from '../../db/schema';
import type { MailOutbox } from '../mail';
import { type MailValues, renderMail } from './index';

const asLanguage = (value: string | null | undefined): MailLanguage | null =>
  value === 'tr' || value === 'en' ? value : null;

/**
 * Whom a message goes to (docs/decisions/0161-mail-templates.md): the language is the user's, else their company's, else English; the
 * company's name signs it. With a company, the user of that address in it; without (a password reset, which
 * every company of the address shares), the address's first active user.
 */
export async function audienceOf(
  db: DbOrTx,
  email: string,
  companyId: number | null,
): Promise<{ language: MailLanguage; company: string | null; companyId: number | null }> {
  const [user] = await db
    .select({ language: users.mailLanguage, companyId: users.companyId })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.email})`, email.toLowerCase()),
        companyId === null ? eq(users.isActive, true) : eq(users.companyId, companyId),
      ),
    )
    .orderBy(asc(users.id))
    .limit(1);
  const ofCompany = companyId ?? user?.companyId ?? null;
  const [company] =
    ofCompany === null
      ? []
      : await db
          .select({ name: companies.name, language: companies.mailLanguage })
          .from(companies)
          .where(eq(companies.id, ofCompany));
  return {
    language: asLanguage(user?.language) ?? asLanguage(company?.language) ?? 'en',
    company: company?.name ?? null,
    companyId: company ? ofCompany : null,
  };
}

/**
 * Renders a template for its recipient and queues it, in `db` (pass the change's transaction so the message
 * is queued with it). `language` overrides the recipient's (a customer's consent language, a sign-up page's).
 */
export async function sendTemplated<K extends MailKind>(
  deps: { mail: MailOutbox; db: DbOrTx },
  kind: K,
  to: { email: string; companyId: number | null },
  values: MailValues[K],
  options: { codeValidMs?: number; language?: MailLanguage } = {},
): Promise<void> {
  const audience = await audienceOf(deps.db, to.email, to.companyId);
  const language = options.language ?? audience.language;
  const content = renderMail(kind, language, values, {
    product: deps.mail.product,
    company: audience.company,
  });
  await deps.mail.send(
    {
      to: to.email,
      subject: content.subject,
      body: content.text,
      html: content.html,
      ...('code' in values ? { code: values.code } : {}),
      ...(options.codeValidMs ? { codeValidMs: options.codeValidMs } : {}),
      kind,
      companyId: audience.companyId,
      language,
    },
    deps.db,
  );
}
