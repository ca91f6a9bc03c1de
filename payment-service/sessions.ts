import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Checkout sessions, shaped after Stripe Checkout's: created by the merchant's server with an amount, a
 * line item and success/cancel addresses; paid by the customer on the hosted page; closed as paid,
 * declined or expired. One difference, on purpose: a declined card closes the session (Stripe keeps it
 * open for another card), so the merchant sees the decline and the customer starts again from the studio.
 */
export type SessionStatus = 'open' | 'complete' | 'declined' | 'expired';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: SessionStatus;
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  line_items: { name?: string; description: string; quantity: number; amount: number }[];
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  locale: 'en' | 'tr';
  /** Unix seconds. */
  created: number;
  expires_at: number;
  /** The card's last four digits once a payment was tried. */
  card_last4: string | null;
  decline_code: string | null;
  /** Set when the session needs the second confirmation step (3-D Secure). */
  requires_action: boolean;
  receipt_url: string | null;
  completed_at: number | null;
}

export interface SessionStore {
  get(id: string): CheckoutSession | undefined;
  put(session: CheckoutSession): void;
  all(): CheckoutSession[];
}

export const newSessionId = () => `cs_test_${randomBytes(24).toString('base64url')}`;
export const newEventId = () => `evt_${randomBytes(18).toString('base64url')}`;

/**
 * Sessions in memory, written through to a JSON file when one is given (so a restart of the stand-in
 * keeps them, as a real provider would). The stand-in serves one merchant; it is not built for volume.
 */
export function createSessionStore(file?: string): SessionStore {
  const sessions = new Map<string, CheckoutSession>();
  if (file && existsSync(file)) {
    for (const s of JSON.parse(readFileSync(file, 'utf8')) as CheckoutSession[]) sessions.set(s.id, s);
  }
  const save = () => {
    if (!file) return;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify([...sessions.values()]));
    renameSync(`${file}.tmp`, file);
  };
  return {
    get: (id) => sessions.get(id),
    put(session) {
      sessions.set(session.id, session);
      save();
    },
    all: () => [...sessions.values()],
  };
}

/** Test cards (Stripe's numbers): one succeeds, one is declined, one needs 3-D Secure. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  authenticate: '4000002760003184',
} as const;

export type CardOutcome = 'succeeds' | 'declined' | 'authenticate' | 'unknown';

export function cardOutcome(number: string): CardOutcome {
  const digits = number.replace(/[\s-]/g, '');
  for (const [outcome, card] of Object.entries(TEST_CARDS))
    if (card === digits) return outcome as CardOutcome;
  return 'unknown';
}

/** `4242 4242 4242 4242` */
export const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');
