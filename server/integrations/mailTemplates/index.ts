/**
 * Every templated e-mail (docs/decisions/0161-mail-templates.md): one kind, one language ('en' or 'tr'), its values and the sender's
 * names make { subject, text, html }. The words live in locales/<lng>/mail.json (the studio does not load
 * them); this module only lays them out. Every value is escaped in the HTML part, the locale's words too.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MailKind, MailLanguage } from '#contract/mail';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Who the message comes from: the product and, when there is one, the company. */
export interface MailBrand {
  product: string;
  company: string | null;
}

/** What each kind needs besides the brand. */
export interface MailValues {
  invitation: { firstName: string; link: string; code: string; days: number };
  password_reset: { code: string; minutes: number };
  signup_code: { code: string; minutes: number };
  forced_reset: { firstName: string; link: string };
  webhook_disabled: { url: string; hours: number; link: string };
  mention: { actor: string; profile: string; note: string; link: string };
  call_code: { code: string; minutes: number };
}

interface KindTexts {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: string;
}
type LocaleTexts = Record<MailKind, KindTexts> & {
  layout: { footer: string; footerNoCompany: string; automatic: string };
};

/** locales/ is named by the studio's language tags. */
const LOCALE_DIR: Record<MailLanguage, string> = { en: 'en-US', tr: 'tr' };
const loaded = new Map<MailLanguage, LocaleTexts>();

function textsOf(language: MailLanguage): LocaleTexts {
  let texts = loaded.get(language);
  if (!texts) {
    const file = join(
      dirname(fileURLToPath(import.meta.url)),
      '../../../locales',
      LOCALE_DIR[language],
      'mail.json',
    );
    texts = JSON.parse(readFileSync(file, 'utf8')) as LocaleTexts;
    loaded.set(language, texts);
  }
  return texts;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

/** A link is only ever http(s): anything else (javascript:) is shown as text, never as an href. */
const safeHref = (link: string) => (/^https?:\/\//i.test(link) ? link : null);

/** Renders one message. Text and HTML say the same; the HTML is one table, inline styles, no images. */
export function renderMail<K extends MailKind>(
  kind: K,
  language: MailLanguage,
  values: MailValues[K],
  brand: MailBrand,
): MailContent {
  const texts = textsOf(language);
  const own = texts[kind];
  const plain: Record<string, string> = {
    product: brand.product,
    company: brand.company ?? brand.product,
    ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])),
  };
  const escaped = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, escapeHtml(v)]));
  const inText = (template: string) => fill(template, plain);
  const inHtml = (template: string) => fill(escapeHtml(template), escaped);
  const code = 'code' in values ? values.code : null;
  const link = 'link' in values ? values.link : null;
  const footer = brand.company ? texts.layout.footer : texts.layout.footerNoCompany;

  // The code and the link go after the first paragraph (the one that announces them).
  const [first = '', ...rest] = own.paragraphs;
  const text = [
    inText(own.heading),
    '',
    inText(first),
    ...(link ? [link] : []),
    ...(code ? ['', code] : []),
    ...rest.flatMap((p) => ['', inText(p)]),
    '',
    '--',
    inText(footer),
    inText(texts.layout.automatic),
  ].join('\n');

  const paragraph = (inner: string) => `<p style="margin:0 0 16px;line-height:1.5">${inner}</p>`;
  const href = link ? safeHref(link) : null;
  const action =
    link && own.action
      ? href
        ? `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;background:#2d72d2;color:#ffffff;border-radius:4px;text-decoration:none">${inHtml(own.action)}</a></p>` +
          paragraph(
            `<span style="color:#5f6b7c;font-size:13px;word-break:break-all">${escapeHtml(link)}</span>`,
          )
        : paragraph(escapeHtml(link))
      : '';
  const codeBlock = code
    ? `<p style="margin:0 0 16px;font-size:28px;letter-spacing:6px;font-weight:bold;font-family:monospace">${escapeHtml(code)}</p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${inHtml(own.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1c2127">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:6px">',
    '<tr><td style="padding:24px 28px">',
    `<p style="margin:0 0 20px;font-size:13px;color:#5f6b7c">${inHtml(footer)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:20px">${inHtml(own.heading)}</h1>`,
    paragraph(inHtml(first)),
    action,
    codeBlock,
    ...rest.map((p) => paragraph(inHtml(p))),
    `<p style="margin:24px 0 0;font-size:12px;color:#5f6b7c">${inHtml(texts.layout.automatic)}</p>`,
    '</td></tr></table></body></html>',
  ].join('\n');
  return { subject: inText(own.subject), text, html };
}

/** Sample values of each kind, for the Admin preview (GET /mail/preview). */
export function sampleValues(kind: MailKind, publicUrl: string): MailValues[MailKind] {
  const samples: MailValues = {
    invitation: {
      firstName: 'Ada',
      link: `${publicUrl}/reset-password?email=ada%40example.com&code=123456`,
      code: '123456',
      days: 7,
    },
    password_reset: { code: '123456', minutes: 10 },
    signup_code: { code: '123456', minutes: 10 },
    forced_reset: { firstName: 'Ada', link: `${publicUrl}/reset-password` },
    webhook_disabled: { url: 'https://example.com/hooks', hours: 120, link: `${publicUrl}/company` },
    mention: {
      actor: 'Grace Hopper',
      profile: 'Jane Doe',
      note: '@ada please check the address proof',
      link: `${publicUrl}/profile/1`,
    },
    call_code: { code: '123456', minutes: 10 },
  };
  return samples[kind];
}
