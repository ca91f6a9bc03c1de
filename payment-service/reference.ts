/**
 * What the payment service offers besides checkout: the currencies it settles, the countries it accepts
 * customers from, the minimum plan commitment (SPEC §9) and the industries of its merchant form.
 */

export const CURRENCIES = ['EUR', 'USD', 'GBP', 'TRY'] as const;

/** SPEC §9: minimum plan commitment from 1000 verifications (custom price). */
export const MINIMUM_COMMITMENT_VERIFICATIONS = 1000;

/** ISO 3166-1 alpha-2 codes of the countries served; names come from the runtime's CLDR data. */
const COUNTRY_CODES = [
  'AT',
  'AZ',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GE',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'KZ',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'TR',
  'AE',
  'SA',
  'QA',
  'US',
  'CA',
] as const;

export type Lang = 'en' | 'tr';

/** `tr`, `tr-TR` → tr; anything else → en. */
export function langOf(value: unknown): Lang {
  return typeof value === 'string' && /^tr\b/i.test(value) ? 'tr' : 'en';
}

export function countries(lang: Lang): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([lang === 'tr' ? 'tr' : 'en'], { type: 'region' });
  const collator = new Intl.Collator(lang);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

const INDUSTRIES: [code: string, en: string, tr: string][] = [
  ['banking', 'Banking', 'Bankacılık'],
  ['payments', 'Payments and e-money', 'Ödeme ve elektronik para'],
  ['crypto', 'Crypto assets', 'Kripto varlıklar'],
  ['lending', 'Lending', 'Kredi'],
  ['insurance', 'Insurance', 'Sigorta'],
  ['investment', 'Investment and brokerage', 'Yatırım ve aracı kurum'],
  ['gaming', 'Gaming and betting', 'Oyun ve şans oyunları'],
  ['telecom', 'Telecommunications', 'Telekomünikasyon'],
  ['ecommerce', 'E-commerce', 'E-ticaret'],
  ['mobility', 'Mobility and car sharing', 'Mobilite ve araç paylaşımı'],
  ['healthcare', 'Healthcare', 'Sağlık'],
  ['real_estate', 'Real estate', 'Gayrimenkul'],
  ['public_sector', 'Public sector', 'Kamu sektörü'],
  ['other', 'Other', 'Diğer'],
];

export function industries(lang: Lang): { code: string; name: string }[] {
  return INDUSTRIES.map(([code, en, tr]) => ({ code, name: lang === 'tr' ? tr : en }));
}
