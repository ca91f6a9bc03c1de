import { DAY_MS } from '#contract/time';
import type { Db } from '../client';
import { transactions } from '../schema';
import { createRng } from './prng';

const KINDS = ['deposit', 'withdrawal', 'transfer_in', 'transfer_out', 'card_payment'] as const;
const COUNTERPARTIES = [
  'Migros',
  'Trendyol',
  'Amazon EU',
  'Turkcell',
  'Shell',
  'IKEA',
  'Employer Payroll',
  'Landlord',
];

/**
 * Transactions of the profiles of a company with the `transactions` service: 0–8 each over the last 90 days,
 * some pending or declined, large cash movements and round transfers flagged the way monitoring rules do.
 * Its own random sequence, so the rest of the demo data stays as it is.
 */
export async function seedTransactions(db: Db, profileIds: number[], now: number): Promise<void> {
  const rng = createRng(4242);
  const rows: (typeof transactions.$inferInsert)[] = [];
  for (const profileId of profileIds) {
    const count = rng.int(0, 8);
    for (let k = 0; k < count; k++) {
      const kind = rng.pick([...KINDS]);
      const amountMinor = kind === 'card_payment' ? rng.int(500, 60_000) : rng.int(10_000, 2_500_000);
      const round = amountMinor % 100_000 === 0 || rng.chance(0.05);
      const flagReason =
        (kind === 'deposit' || kind === 'withdrawal') && amountMinor >= 1_500_000
          ? 'Large cash movement'
          : round && kind.startsWith('transfer')
            ? 'Round-amount transfer'
            : null;
      rows.push({
        profileId,
        occurredAt: new Date(now - rng.int(0, 90) * DAY_MS - rng.int(0, DAY_MS - 1)),
        kind,
        amountMinor,
        currency: rng.chance(0.7) ? 'TRY' : 'EUR',
        counterparty: kind === 'deposit' || kind === 'withdrawal' ? null : rng.pick(COUNTERPARTIES),
        status: rng.chance(0.85) ? 'completed' : rng.chance(0.5) ? 'pending' : 'declined',
        flagReason,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await db.insert(transactions).values(rows.slice(i, i + 1000));
}
