import type { Lang } from './reference';
import { type CheckoutSession, spaced, TEST_CARDS } from './sessions';
import { formatAmount, type TextKey, textsOf } from './texts';

const esc = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --fg: #1c2127; --muted: #5f6b7c;
  --line: #c5cbd3; --accent: #2d72d2; --accent-fg: #fff; --danger: #cd4246; --focus: #4c90f0; }
@media (prefers-color-scheme: dark) { :root { --bg: #1c2127; --card: #252a31; --fg: #f6f7f9;
  --muted: #abb3bf; --line: #5f6b7c; --accent: #4c90f0; --accent-fg: #111418; --danger: #fa999c; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg);
  color: var(--fg); }
main { max-width: 880px; margin: 0 auto; padding: 32px 20px; display: grid; gap: 24px;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
section, .panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 20px 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 0 0 12px; }
.muted { color: var(--muted); } .amount { font-size: 28px; font-weight: 600; margin: 8px 0; }
.badge { display: inline-block; border: 1px solid var(--line); border-radius: 4px; padding: 0 6px; font-size: 12px;
  color: var(--muted); }
label { display: block; font-weight: 600; margin: 14px 0 4px; }
input { width: 100%; font: inherit; padding: 8px 10px; border: 1px solid var(--line); border-radius: 4px;
  background: var(--bg); color: var(--fg); }
input[aria-invalid="true"] { border-color: var(--danger); }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.error { color: var(--danger); font-size: 13px; margin: 4px 0 0; }
.alert { border: 1px solid var(--danger); color: var(--danger); border-radius: 4px; padding: 8px 12px; }
button, .button { display: inline-block; font: inherit; font-weight: 600; border-radius: 4px; padding: 9px 16px;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer;
  text-decoration: none; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button:focus-visible, .button:focus-visible, input:focus-visible, a:focus-visible, select:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 20px; align-items: center; }
ul.cards { padding-left: 18px; } code { font-size: 14px; }
a { color: var(--accent); }
header.top { max-width: 880px; margin: 0 auto; padding: 16px 20px 0; display: flex; justify-content: space-between;
  align-items: center; gap: 12px; flex-wrap: wrap; }
nav.lang a { margin-left: 8px; }
`;

function layout(lang: Lang, title: string, body: string, languageLinks?: string): string {
  const t = textsOf(lang);
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
<header class="top"><span class="badge">${esc(t('testMode'))}</span>${languageLinks ?? ''}</header>
${body}
</body></html>`;
}

function languageNav(lang: Lang, path: string): string {
  const t = textsOf(lang);
  const link = (target: Lang, label: string) =>
    target === lang
      ? `<a aria-current="true" href="${path}?lang=${target}">${label}</a>`
      : `<a href="${path}?lang=${target}" hreflang="${target}" lang="${target}">${label}</a>`;
  return `<nav class="lang" aria-label="${esc(t('language'))}">${link('en', 'English')}${link('tr', 'Türkçe')}</nav>`;
}

function summary(session: CheckoutSession, lang: Lang): string {
  const t = textsOf(lang);
  const item = session.line_items[0];
  const expires = new Date(session.expires_at * 1000).toISOString().slice(11, 16);
  const amount = formatAmount(session.amount_total, session.currency, lang);
  return `<section aria-labelledby="summary-title">
  <p class="muted">${esc(t('payTo'))}</p>
  <h1 id="summary-title">${esc(item?.name ? `${item.name} · ${amount}` : t('orderSummary'))}</h1>
  <p>${esc(item?.description ?? '')}</p>
  <p class="muted">${esc(t('total'))}</p>
  <p class="amount" data-testid="checkout-amount">${esc(amount)}</p>
  <p class="muted">${esc(t('expires', { time: expires }))}</p>
</section>`;
}

export interface FormState {
  values: { card_number?: string; expiry?: string; cvc?: string; name?: string };
  errors: Partial<Record<'card_number' | 'expiry' | 'cvc' | 'name', TextKey>>;
}

export function checkoutPage(session: CheckoutSession, lang: Lang, form: FormState): string {
  const t = textsOf(lang);
  const amount = formatAmount(session.amount_total, session.currency, lang);
  const field = (name: keyof FormState['values'], label: TextKey, attrs: string, hint?: string) => {
    const error = form.errors[name];
    const describedBy = [error ? `${name}-error` : '', hint ?? ''].filter(Boolean).join(' ');
    const aria = `${describedBy ? ` aria-describedby="${describedBy}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
    return `<label for="${name}">${esc(t(label))}</label>
  <input id="${name}" name="${name}" ${attrs} value="${esc(form.values[name] ?? '')}"${aria} required>
  ${error ? `<p class="error" id="${name}-error">${esc(t(error))}</p>` : ''}`;
  };
  const hasErrors = Object.keys(form.errors).length > 0;
  const body = `<main>
${summary(session, lang)}
<section aria-labelledby="pay-title">
  <h2 id="pay-title">${esc(t('title'))}</h2>
  ${hasErrors ? `<p class="alert" role="alert">${esc(t('errorSummary'))}</p>` : ''}
  <form method="post" action="/checkout/${session.id}/pay" novalidate>
  <input type="hidden" name="lang" value="${lang}">
  ${field('card_number', 'cardNumber', 'inputmode="numeric" autocomplete="cc-number"', 'test-cards-title')}
  <div class="row"><div>${field('expiry', 'expiry', 'autocomplete="cc-exp" placeholder="12/34"')}</div>
  <div>${field('cvc', 'cvc', 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div></div>
  ${field('name', 'name', 'autocomplete="cc-name"')}
  <div class="actions"><button type="submit">${esc(t('pay', { amount }))}</button></div>
  </form>
  <form method="post" action="/checkout/${session.id}/cancel">
  <input type="hidden" name="lang" value="${lang}">
  <div class="actions"><button type="submit" class="secondary">${esc(t('cancel'))}</button></div>
  </form>
</section>
<section aria-labelledby="test-cards-title">
  <h2 id="test-cards-title">${esc(t('testCards'))}</h2>
  <ul class="cards">
    <li><code>${spaced(TEST_CARDS.succeeds)}</code> ${esc(t('cardSucceeds'))}</li>
    <li><code>${spaced(TEST_CARDS.declined)}</code> ${esc(t('cardDeclined'))}</li>
    <li><code>${spaced(TEST_CARDS.authenticate)}</code> ${esc(t('cardAuthenticate'))}</li>
  </ul>
  <p class="muted">${esc(t('testCardsHint'))}</p>
</section>
</main>`;
  const bought = session.line_items[0]?.name;
  return layout(
    lang,
    `${bought ? `${bought} · ` : ''}${amount} · ${t('title')}`,
    body,
    languageNav(lang, `/checkout/${session.id}`),
  );
}

export function authenticatePage(session: CheckoutSession, lang: Lang): string {
  const t = textsOf(lang);
  const amount = formatAmount(session.amount_total, session.currency, lang);
  const body = `<main><section class="panel" aria-labelledby="auth-title">
  <h1 id="auth-title">${esc(t('authTitle'))}</h1>
  <p>${esc(t('authText', { amount, last4: session.card_last4 ?? '' }))}</p>
  <p class="muted">${esc(t('authTest'))}</p>
  <form method="post" action="/checkout/${session.id}/authenticate">
    <input type="hidden" name="lang" value="${lang}">
    <div class="actions">
      <button type="submit" name="result" value="complete">${esc(t('authComplete'))}</button>
      <button type="submit" name="result" value="fail" class="secondary">${esc(t('authFail'))}</button>
    </div>
  </form>
</section></main>`;
  return layout(lang, t('authTitle'), body);
}

/** A session that cannot be paid any more (expired, or already finished): say so, link back. */
export function closedPage(session: CheckoutSession, lang: Lang): string {
  const t = textsOf(lang);
  const [title, text] =
    session.status === 'complete'
      ? (['paidTitle', 'paidText'] as const)
      : session.status === 'declined'
        ? (['declinedTitle', 'declinedText'] as const)
        : (['expiredTitle', 'expiredText'] as const);
  const back = session.status === 'expired' ? session.cancel_url : session.success_url;
  const body = `<main><section class="panel" aria-labelledby="closed-title">
  <h1 id="closed-title">${esc(t(title))}</h1>
  <p>${esc(t(text))}</p>
  <div class="actions"><a class="button" href="${esc(back)}">${esc(t('returnToStudio'))}</a></div>
</section></main>`;
  return layout(lang, t(title), body);
}

export function receiptPage(session: CheckoutSession, lang: Lang): string {
  const t = textsOf(lang);
  const item = session.line_items[0];
  const paidOn = session.completed_at ? new Date(session.completed_at * 1000).toISOString().slice(0, 16) : '';
  const body = `<main><section class="panel" aria-labelledby="receipt-title">
  <h1 id="receipt-title">${esc(t('receiptTitle'))}</h1>
  <p class="muted">${esc(t('receiptNumber'))} <code>${esc(session.id)}</code></p>
  <p>${esc(item?.description ?? '')}</p>
  <p class="amount">${esc(formatAmount(session.amount_total, session.currency, lang))}</p>
  <dl><dt>${esc(t('paidOn'))}</dt><dd>${esc(paidOn.replace('T', ' '))} UTC</dd>
  <dt>${esc(t('card'))}</dt><dd>•••• ${esc(session.card_last4 ?? '')}</dd></dl>
</section></main>`;
  return layout(lang, t('receiptTitle'), body, languageNav(lang, `/receipts/${session.id}`));
}

export function notFoundPage(lang: Lang): string {
  const t = textsOf(lang);
  return layout(
    lang,
    t('notFound'),
    `<main><section class="panel"><h1>${esc(t('notFound'))}</h1></section></main>`,
  );
}
