import type { Lang } from './reference';

/** The hosted pages' texts. The page belongs to the payment provider, so it carries its own (not the studio's). */
const EN = {
  title: 'Checkout',
  testMode: 'Test mode: no real card is charged.',
  payTo: 'Sold by IDV Studio',
  orderSummary: 'Order summary',
  total: 'Total due',
  expires: 'This checkout expires at {time} (UTC).',
  cardNumber: 'Card number',
  expiry: 'Expiry date (MM/YY)',
  cvc: 'Security code (CVC)',
  name: 'Name on card',
  pay: 'Pay {amount}',
  cancel: 'Cancel and return to the studio',
  testCards: 'Test cards',
  cardSucceeds: 'succeeds',
  cardDeclined: 'is declined',
  cardAuthenticate: 'asks for a second confirmation (3-D Secure)',
  testCardsHint: 'Any future expiry date and any three-digit security code.',
  errorSummary: 'Please correct the marked fields.',
  errCardUnknown: 'Use one of the test cards listed below.',
  errExpiry: 'Enter a future date as MM/YY.',
  errCvc: 'Enter the three digits on the back of the card.',
  errName: 'Enter the name printed on the card.',
  authTitle: 'Confirm your payment',
  authText: 'Your bank asks you to confirm the payment of {amount} with the card ending in {last4}.',
  authTest: 'This is a test page of the 3-D Secure step: choose the result.',
  authComplete: 'Complete authentication',
  authFail: 'Fail authentication',
  paidTitle: 'Payment successful',
  paidText: 'Thank you. Returning to the studio…',
  declinedTitle: 'Payment declined',
  declinedText: 'Your card was declined. No money was taken.',
  expiredTitle: 'This checkout has expired',
  expiredText: 'Start again from the studio to get a new checkout.',
  returnToStudio: 'Return to the studio',
  notFound: 'This checkout does not exist.',
  receiptTitle: 'Receipt',
  receiptNumber: 'Receipt for session',
  paidOn: 'Paid on',
  card: 'Card',
  language: 'Language',
} as const;

type Texts = Record<keyof typeof EN, string>;

const TR: Texts = {
  title: 'Ödeme',
  testMode: 'Test modu: gerçek bir karttan ödeme alınmaz.',
  payTo: 'Satıcı: IDV Studio',
  orderSummary: 'Sipariş özeti',
  total: 'Ödenecek tutar',
  expires: 'Bu ödeme sayfasının süresi {time} (UTC) saatinde dolar.',
  cardNumber: 'Kart numarası',
  expiry: 'Son kullanma tarihi (AA/YY)',
  cvc: 'Güvenlik kodu (CVC)',
  name: 'Kart üzerindeki ad',
  pay: '{amount} öde',
  cancel: 'Vazgeç ve stüdyoya dön',
  testCards: 'Test kartları',
  cardSucceeds: 'başarılı olur',
  cardDeclined: 'reddedilir',
  cardAuthenticate: 'ikinci bir onay ister (3-D Secure)',
  testCardsHint: 'İleri bir son kullanma tarihi ve üç haneli herhangi bir güvenlik kodu girin.',
  errorSummary: 'Lütfen işaretli alanları düzeltin.',
  errCardUnknown: 'Aşağıdaki test kartlarından birini kullanın.',
  errExpiry: 'AA/YY biçiminde ileri bir tarih girin.',
  errCvc: 'Kartın arkasındaki üç haneyi girin.',
  errName: 'Kartın üzerinde yazan adı girin.',
  authTitle: 'Ödemenizi onaylayın',
  authText: 'Bankanız, sonu {last4} ile biten kartla {amount} tutarındaki ödemeyi onaylamanızı istiyor.',
  authTest: 'Bu, 3-D Secure adımının test sayfasıdır: sonucu seçin.',
  authComplete: 'Doğrulamayı tamamla',
  authFail: 'Doğrulamayı başarısız yap',
  paidTitle: 'Ödeme başarılı',
  paidText: 'Teşekkürler. Stüdyoya dönülüyor…',
  declinedTitle: 'Ödeme reddedildi',
  declinedText: 'Kartınız reddedildi. Hesabınızdan para çekilmedi.',
  expiredTitle: 'Bu ödeme sayfasının süresi doldu',
  expiredText: 'Yeni bir ödeme sayfası için stüdyodan yeniden başlayın.',
  returnToStudio: 'Stüdyoya dön',
  notFound: 'Böyle bir ödeme sayfası yok.',
  receiptTitle: 'Makbuz',
  receiptNumber: 'Oturumun makbuzu',
  paidOn: 'Ödeme tarihi',
  card: 'Kart',
  language: 'Dil',
};

export type TextKey = keyof typeof EN;

export function textsOf(lang: Lang): (key: TextKey, values?: Record<string, string>) => string {
  const table: Texts = lang === 'tr' ? TR : EN;
  return (key, values = {}) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

export function formatAmount(amountMinor: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'tr' ? 'tr-TR' : 'en-US', { style: 'currency', currency }).format(
    amountMinor / 100,
  );
}
