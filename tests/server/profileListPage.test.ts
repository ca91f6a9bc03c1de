/**
 * The profile list reads its page as one JSON text (docs/decisions/0240-list-page-as-one-text.md): each row
 * must come out exactly as the row itself reads (`toProfileSummary`), in the list's order, whatever the ordering,
 * direction, offset or text in it.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '#contract/profiles';
import { profiles } from '../../server/db/schema';
import { isoOfUtcText, toProfileSummary } from '../../server/domain/profiles';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

interface Page {
  count: number;
  count_is_estimate: boolean;
  next: string | null;
  previous: string | null;
  results: ProfileSummary[];
}

let t: TestApp;
let token = '';

const page = async (address: string) => {
  const url = new URL(address, 'http://localhost');
  const reply = await get<Page>(t.app, `${url.pathname}${url.search}`, token);
  if (reply.status !== 200) throw new Error(`${address}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
};

/** The rows as the row itself reads them, by id. */
const rowsOf = async (ids: number[]) => {
  const rows = await t.app.ctx.db.select().from(profiles).where(inArray(profiles.id, ids));
  return new Map(rows.map((row) => [row.id, toProfileSummary(row)]));
};

/** A page's rows are the rows themselves, field for field and in key order (the JSON the client gets). */
const expectRowsAsRead = async (results: ProfileSummary[]) => {
  const read = await rowsOf(results.map((r) => r.id));
  expect(results.map((r) => JSON.stringify(r))).toEqual(results.map((r) => JSON.stringify(read.get(r.id))));
};

beforeAll(async () => {
  t = await startTestApp();
  token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(async () => t.close());

describe('a page of the profile list', () => {
  it.each(['-created_at', 'created_at', 'name', '-risk_level', 'status', 'last_status_date', '-updated_at'])(
    'by %s: every row as read, first page, next, previous and at an offset',
    async (ordering) => {
      const first = await page(`/api/v2/profile?limit=5&ordering=${ordering}`);
      expect(first.results).toHaveLength(5);
      await expectRowsAsRead(first.results);
      if (!first.next) throw new Error('the demo data has more than five profiles');
      const second = await page(first.next);
      await expectRowsAsRead(second.results);
      if (!second.previous) throw new Error('a second page links back');
      // Read backwards and turned around: the same rows in the same order as the first page.
      expect((await page(second.previous)).results).toEqual(first.results);
      const atOffset = await page(`/api/v2/profile?limit=5&offset=5&ordering=${ordering}`);
      expect(atOffset.results).toEqual(second.results);
    },
  );

  it('keeps quotes, backslashes, control characters and letters beyond ASCII as they are', async () => {
    const [row] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.companyId, 1)).limit(1);
    if (!row) throw new Error('the demo data has profiles');
    const name = 'Ayşe "Çelik" \\ İğdır\t\u0001 😀 </script>';
    await t.app.ctx.db.update(profiles).set({ name, lastStatusDate: null }).where(eq(profiles.id, row.id));
    try {
      const found = await page(`/api/v2/profile?limit=20&search=${row.id}`);
      const listed = found.results.find((r) => r.id === row.id);
      expect(listed?.name).toBe(name);
      expect(listed?.last_status_date).toBeNull();
      await expectRowsAsRead(found.results);
    } finally {
      await t.app.ctx.db
        .update(profiles)
        .set({ name: row.name, lastStatusDate: row.lastStatusDate })
        .where(eq(profiles.id, row.id));
    }
  });

  it('an empty page still has its count', async () => {
    const empty = await page('/api/v2/profile?limit=20&search=zzqqxxnothing');
    expect(empty).toEqual({ count: 0, count_is_estimate: false, next: null, previous: null, results: [] });
  });
});

describe('a timestamp as PostgreSQL writes it in UTC', () => {
  it('reads as the ISO text of its Date, cut to the millisecond', async () => {
    // Microseconds from year 1000 to 9999, whole seconds and milliseconds included (PostgreSQL drops zeros).
    const micros = fc.oneof(
      fc.bigInt({ min: -30_610_224_000_000_000n, max: 253_402_300_799_999_999n }),
      fc.bigInt({ min: 0n, max: 4_000_000_000n }).map((s) => s * 1_000_000n),
      fc.bigInt({ min: 0n, max: 4_000_000_000_000n }).map((ms) => ms * 1_000n),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(micros, { minLength: 1, maxLength: 50 }), async (values) => {
        const { rows } = (await t.app.ctx.db.execute(
          // Seconds and microseconds apart: int8 × interval goes through float8, which is not exact this far.
          sql`select ((to_timestamp(0) + (v / 1000000) * interval '1 second' + (v % 1000000) * interval
            '1 microsecond') at time zone 'UTC')::text as text, v::text as micros
            from unnest(${`{${values.join(',')}}`}::int8[]) as v`,
        )) as unknown as { rows: { text: string; micros: string }[] };
        for (const { text, micros: us } of rows) {
          const ms = Number(BigInt(us) / 1_000n - (BigInt(us) % 1_000n < 0n ? 1n : 0n));
          expect(isoOfUtcText(String(text))).toBe(new Date(ms).toISOString());
        }
      }),
      { numRuns: 40 },
    );
  });
});
