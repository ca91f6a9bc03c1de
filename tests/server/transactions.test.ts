import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '#contract/profiles';
import type { Transaction } from '#contract/transactions';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let acme = '';
let globex = '';

beforeAll(async () => {
  t = await startTestApp();
  acme = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
});
afterAll(() => t.close());

const firstProfile = async (token: string) =>
  (await get<{ results: ProfileSummary[] }>(t.app, '/api/v2/profile?limit=50', token)).body.results;

describe('GET /profile/{id}/transactions', () => {
  it("lists a profile's transactions newest first, with monitoring flags", async () => {
    const all: Transaction[] = [];
    for (const profile of await firstProfile(acme)) {
      const answer = await get<Transaction[]>(t.app, `/api/v2/profile/${profile.id}/transactions`, acme);
      expect(answer.status).toBe(200);
      const times = answer.body.map((tx) => tx.occurred_at);
      expect(times).toEqual([...times].sort().reverse());
      all.push(...answer.body);
    }
    expect(all.length).toBeGreaterThan(50);
    expect(all.some((tx) => tx.flag_reason === 'Large cash movement')).toBe(true);
    for (const tx of all.filter((tx) => tx.flag_reason === 'Large cash movement')) {
      expect(['deposit', 'withdrawal']).toContain(tx.kind);
      expect(tx.amount_minor).toBeGreaterThanOrEqual(1_500_000);
    }
  });

  it('is refused for a company without the transactions service', async () => {
    const [profile] = await firstProfile(globex);
    const answer = await get<{ detail: string }>(
      t.app,
      `/api/v2/profile/${profile?.id}/transactions`,
      globex,
    );
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toBe('Transactions are not enabled for this company');
  });

  it("never shows another company's profile", async () => {
    const [profile] = await firstProfile(globex);
    const answer = await get(t.app, `/api/v2/profile/${profile?.id}/transactions`, acme);
    expect(answer.status).toBe(404);
  });
});
