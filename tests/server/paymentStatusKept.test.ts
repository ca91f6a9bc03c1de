/**
 * The payment gate keeps each company's payment status until the database says it changed: a company that becomes
 * unpaid is refused on its very next service write, and one that becomes paid is served on its very next, on
 * PGlite and on PostgreSQL (where another process hears it a moment after the commit).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../server/db/schema';
import { PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres';

const COMPANY = 1;
let created = 0;

/** A service write of the admin of the company: a new profile. */
async function createProfile(t: TestApp, token: string): Promise<number> {
  created += 1;
  const answer = await post(t.app, '/api/v2/profile', { id_card_number: `KEPT-PAY-${created}` }, token);
  return answer.status;
}

async function setStatus(t: TestApp, status: 'paid' | 'unpaid'): Promise<void> {
  await t.app.ctx.db.update(companies).set({ paymentStatus: status }).where(eq(companies.id, COMPANY));
}

describe('the payment status kept by the gate (PGlite)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the next write once unpaid and serves the next once paid again', async () => {
    expect(await createProfile(t, token)).toBe(201);
    expect(await createProfile(t, token)).toBe(201);
    await setStatus(t, 'unpaid');
    expect(await createProfile(t, token)).toBe(402);
    expect(await createProfile(t, token)).toBe(402);
    await setStatus(t, 'paid');
    expect(await createProfile(t, token)).toBe(201);
  });

  it('is not changed by a rolled-back update', async () => {
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.update(companies).set({ paymentStatus: 'unpaid' }).where(eq(companies.id, COMPANY));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await createProfile(t, token)).toBe(201);
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)(
  'the payment status kept by the gate (PostgreSQL, two processes)',
  () => {
    let postgres: ThrowawayPostgres;
    let first: TestApp;
    let second: TestApp;
    const tokens: { first?: string; second?: string } = {};
    beforeAll(async () => {
      postgres = await startThrowawayPostgres();
      first = await startTestApp({ databaseUrl: postgres.databaseUrl });
      second = await startTestApp({ databaseUrl: postgres.databaseUrl });
      tokens.first = await tokenFor(first.app, 'admin@acme.test', PASSWORDS.admin);
      tokens.second = await tokenFor(second.app, 'admin@acme.test', PASSWORDS.admin);
    }, 120_000);
    afterAll(async () => {
      await second?.close();
      await first?.close();
      postgres?.stop();
    });

    it('tells the writing process at once and the other a moment later', async () => {
      expect(await createProfile(first, tokens.first ?? '')).toBe(201);
      expect(await createProfile(second, tokens.second ?? '')).toBe(201);
      await setStatus(first, 'unpaid');
      expect(await createProfile(first, tokens.first ?? '')).toBe(402);
      await expect.poll(() => createProfile(second, tokens.second ?? ''), { timeout: 30_000 }).toBe(402);
      await setStatus(first, 'paid');
      expect(await createProfile(first, tokens.first ?? '')).toBe(201);
      await expect.poll(() => createProfile(second, tokens.second ?? ''), { timeout: 30_000 }).toBe(201);
    });
  },
);
