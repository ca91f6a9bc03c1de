/** Keyset paging of the lists (docs/decisions/0164-keyset-lists.md): cursors, estimated counts, offset still. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_ORDERING_FIELDS } from '#contract/profiles';
import { profiles } from '../../server/db/schema';
import { listProfiles } from '../../server/domain/profiles';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

interface Page<T> {
  count: number;
  count_is_estimate: boolean;
  next: string | null;
  previous: string | null;
  results: T[];
}
type Row = { id: number };

let t: TestApp;
let token = '';
/** A page by path and query, or by a page's absolute next/previous address. */
const page = async (address: string) => {
  const url = new URL(address, 'http://localhost');
  const reply = await get<Page<Row>>(t.app, `${url.pathname}${url.search}`, token);
  if (reply.status !== 200) throw new Error(`${address}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
};

/** Every row of a list by following `next` from the first page, then `previous` back from the last. */
async function walk(first: string): Promise<{ forward: number[]; backward: number[]; pages: number }> {
  const forward: number[] = [];
  let current = await page(first);
  const seen: Page<Row>[] = [current];
  forward.push(...current.results.map((r) => r.id));
  while (current.next) {
    current = await page(current.next);
    seen.push(current);
    forward.push(...current.results.map((r) => r.id));
  }
  const backward: number[] = [...current.results.map((r) => r.id)];
  while (current.previous) {
    current = await page(current.previous);
    backward.unshift(...current.results.map((r) => r.id));
  }
  return { forward, backward, pages: seen.length };
}

/** The whole list in the server's order, by offset pages of 200 (the largest). */
async function byOffset(path: string, query: string): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += 200) {
    const body = await page(`${path}?${query}&limit=200&offset=${offset}`);
    ids.push(...body.results.map((r) => r.id));
    if (!body.next) return ids;
  }
}

beforeAll(async () => {
  t = await startTestApp();
  token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  // Ties and nulls on every sort key: equal creation and update times, names and status dates missing.
  const db = t.app.ctx.db;
  const tied = new Date('2026-01-02T03:04:05.123456Z');
  await db.execute(sql`update profiles set created_at = ${tied}, updated_at = ${tied}
    where company_id = 1 and id % 7 = 0`);
  await db.execute(sql`update profiles set name = null, last_status_date = null
    where company_id = 1 and id % 5 = 0`);
  await db.execute(sql`update profiles set name = 'Same Name' where company_id = 1 and id % 11 = 0`);
  // The other lists: 45 rows each over 4 instants (or 3 due times), so most keys are shared.
  const at = sql`'2026-01-01T00:00:00Z'::timestamptz + (g % 4) * interval '1 minute'`;
  await db.execute(sql`insert into audit_log (company_id, object_type, object_id, action, created_at)
    select 1, 'keyset', g::text, 'keyset.test', ${at} from generate_series(1, 45) g`);
  await db.execute(sql`insert into video_calls (company_id, profile_id, room_id, created_at)
    select 1, (select min(id) from profiles where company_id = 1), 'keyset-' || g, ${at}
      from generate_series(1, 45) g`);
  await db.execute(sql`insert into webhook_logs (company_id, event, url, success)
    select 1, 'keyset.test', 'https://example.test/hook', g % 2 = 0 from generate_series(1, 45) g`);
  expect((await get(t.app, '/api/v2/review/queues', token)).status).toBe(200);
  await db.execute(sql`insert into review_cases (company_id, profile_id, kind, queue_id, due_at)
    select 1, p.id, 'aml_hit', (select min(id) from review_queues where company_id = 1),
      '2026-01-01T00:00:00Z'::timestamptz + (p.id % 3) * interval '1 hour'
      from profiles p where p.company_id = 1 and not exists (select 1 from review_cases c
        where c.profile_id = p.id and c.kind = 'aml_hit' and c.state <> 'decided')
      order by p.id limit 45`);
});
afterAll(() => t.close());

describe('GET /profile by cursor', () => {
  const orderings = PROFILE_ORDERING_FIELDS.flatMap((f) => [f, `-${f}`]);

  it.each(orderings)('pages %s forward and back: every row once, in order', async (ordering) => {
    const expected = await byOffset('/api/v2/profile', `ordering=${ordering}`);
    expect(expected).toHaveLength(240);
    const { forward, backward, pages } = await walk(`/api/v2/profile?ordering=${ordering}&limit=37`);
    expect(pages).toBe(7);
    expect(forward).toEqual(expected);
    expect(backward).toEqual(expected);
  });

  it('keeps filters on the links and counts exactly below the cap', async () => {
    const expected = await byOffset('/api/v2/profile', 'ordering=name&status=Approved');
    const first = await page('/api/v2/profile?ordering=name&status=Approved&limit=5');
    expect(first).toMatchObject({ count: expected.length, count_is_estimate: false, previous: null });
    const next = new URL(first.next ?? '');
    expect(next.searchParams.get('status')).toBe('Approved');
    expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(next.searchParams.get('offset')).toBe('5');
    const { forward } = await walk('/api/v2/profile?ordering=name&status=Approved&limit=5');
    expect(forward).toEqual(expected);
  });

  it('still pages by offset, and a page reached by offset links on by cursor', async () => {
    const expected = await byOffset('/api/v2/profile', 'ordering=-created_at');
    const middle = await page('/api/v2/profile?limit=20&offset=100');
    expect(middle.results.map((r) => r.id)).toEqual(expected.slice(100, 120));
    const next = await page(middle.next ?? '');
    expect(next.results.map((r) => r.id)).toEqual(expected.slice(120, 140));
    expect(new URL(middle.previous ?? '').searchParams.get('offset')).toBe('80');
    const previous = await page(middle.previous ?? '');
    expect(previous.results.map((r) => r.id)).toEqual(expected.slice(80, 100));
  });

  it('refuses a bad cursor with a 400 and a detail', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const good = new URL((await page('/api/v2/profile?limit=2')).next ?? '').searchParams.get('cursor') ?? '';
    const bad = [
      'garbage',
      '!!!',
      'x'.repeat(5_000),
      encodeURIComponent('a\0b'),
      b64('just text'),
      b64([1, 2]),
      b64(null),
      b64({ o: '-created_at', k: 5, i: 1, b: 0 }),
      b64({ o: '-created_at', k: '2026-13-45 10:00:00+00', i: 1, b: 0 }),
      b64({ o: '-created_at', k: "2026-01-01 00:00:00+00'; drop table profiles; --", i: 1, b: 0 }),
      b64({ o: '-created_at', k: '2026-01-01 00:00:00+00', i: '1', b: 0 }),
      b64({ o: '-created_at', k: '2026-01-01 00:00:00+00', i: 0, b: 0 }),
      b64({ o: '-created_at', k: '2026-01-01 00:00:00+00', i: 2 ** 40, b: 0 }),
      b64({ o: '-created_at', k: '2026-01-01 00:00:00+00', i: 1, b: 2 }),
      b64({ o: 'name', k: 'a\0b', i: 1, b: 0 }),
      b64({ o: 'status', k: 'x', i: 1, b: 0 }),
      Buffer.from('{"o":').toString('base64url'),
    ];
    for (const cursor of bad) {
      const reply = await get<{ detail?: string }>(t.app, `/api/v2/profile?cursor=${cursor}`, token);
      expect(reply.status, cursor.slice(0, 80)).toBe(400);
      expect(reply.body.detail ?? JSON.stringify(reply.body)).toMatch(/cursor/i);
    }
    // A cursor made for another ordering.
    const other = await get<{ detail: string }>(t.app, `/api/v2/profile?ordering=name&cursor=${good}`, token);
    expect(other.status).toBe(400);
    expect(other.body.detail).toContain('another ordering');
    const [count] = await t.app.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(eq(profiles.companyId, 1));
    expect(count?.n).toBe(240);
  });

  it('estimates the count above the cap and says so', async () => {
    const db = t.app.ctx.db;
    const query = { limit: 10, offset: 0, ordering: '-created_at' } as const;
    const capped = await listProfiles(db, 1, query, undefined, 50);
    expect(capped.estimated).toBe(true);
    expect(capped.count).toBeGreaterThan(50);
    expect(capped.results).toHaveLength(10);
    const exact = await listProfiles(db, 1, query, undefined, 240);
    expect(exact).toMatchObject({ count: 240, estimated: false });
    // An empty page counts on its own, capped the same way.
    const beyond = await listProfiles(db, 1, { ...query, offset: 1_000 }, undefined, 50);
    expect(beyond).toMatchObject({ estimated: true, results: [] });
    expect(beyond.count).toBeGreaterThan(50);
  });
});

describe.each([
  ['calls', '/api/v2/videocall', ''],
  ['calls of one status', '/api/v2/videocall', 'status=0'],
  ['audit', '/api/v2/audit', ''],
  ['audit of one action', '/api/v2/audit', 'action=keyset.test'],
  ['webhook logs', '/api/v2/webhook/logs', ''],
  ['failed webhook logs', '/api/v2/webhook/logs', 'status=failed'],
  ['review cases', '/api/v2/review/cases', ''],
  ['review cases, latest due first', '/api/v2/review/cases', 'ordering=-due_at'],
])('%s by cursor', (_name, path, filter) => {
  it('pages forward and back: every row once, in order, links with cursor and offset', async () => {
    const expected = await byOffset(path, filter);
    expect(expected.length).toBeGreaterThan(20);
    const first = await page(`${path}?${filter}&limit=7`);
    expect(first).toMatchObject({ count: expected.length, count_is_estimate: false, previous: null });
    const next = new URL(first.next ?? '');
    expect(next.searchParams.get('offset')).toBe('7');
    expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    const { forward, backward, pages } = await walk(`${path}?${filter}&limit=7`);
    expect(pages).toBe(Math.ceil(expected.length / 7));
    expect(forward).toEqual(expected);
    expect(backward).toEqual(expected);
    // Offset still works, and a cursor from another list's ordering is refused.
    const byOffsetPage = await page(`${path}?${filter}&limit=7&offset=14`);
    expect(byOffsetPage.results.map((r) => r.id)).toEqual(expected.slice(14, 21));
    const foreign = Buffer.from(JSON.stringify({ o: 'name', k: 'x', i: 1, b: 0 })).toString('base64url');
    const refused = await get<{ detail: string }>(t.app, `${path}?cursor=${foreign}`, token);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/cursor/);
  });
});

describe('the list’s statements', () => {
  /** The prepared statements of the profile list with these words in this order, and how often each was planned. */
  const statements = async (pattern: string) =>
    (
      (await t.app.ctx.db.execute(
        sql`select statement, generic_plans::int as generic, custom_plans::int as custom
          from pg_prepared_statements where statement like ${pattern}`,
      )) as unknown as { rows: { statement: string; generic: number; custom: number }[] }
    ).rows;

  it('write a studio page size into the text, leave out a zero offset, and keep one plan', async () => {
    for (let run = 0; run < 8; run++)
      await page('/api/v2/profile?limit=20&risk_level=Low&ordering=-updated_at');
    // The first page with its count, then the pages without (the count is kept): the second ran seven times.
    const [read] = (await statements('%"risk_level" = %"updated_at" desc%limit 21) "rows"')).sort(
      (a, b) => b.generic + b.custom - (a.generic + a.custom),
    );
    expect(read?.statement).not.toMatch(/offset/i);
    expect(read && read.generic + read.custom).toBe(7);
    // Planned for their values the first five runs (PostgreSQL's rule), then the plan for any value.
    expect(read?.generic).toBeGreaterThan(0);
    expect(read?.custom).toBeLessThanOrEqual(5);
  });

  it('the other keyset lists write a page of 20 into their text too', async () => {
    for (const path of ['/api/v2/audit?limit=20', '/api/v2/videocall?limit=20'])
      for (let run = 0; run < 7; run++) await page(path);
    for (const table of ['audit_log', 'video_calls']) {
      const reads = await statements(`%from "${table}"%limit 21`);
      expect(reads.map((read) => read.generic + read.custom)).toContain(7);
      expect(reads.every((read) => read.generic > 0 && !/offset/i.test(read.statement))).toBe(true);
    }
  });

  it('keep other sizes and an offset as parameters', async () => {
    await page('/api/v2/profile?limit=7&offset=3&source=api&ordering=-updated_at');
    const reads = await statements('%"source" = %"updated_at" desc%');
    expect(reads.map((read) => read.statement)).toEqual([
      // The page's ids at that offset first (docs/decisions/0193-list-ids-from-the-index-at-any-offset.md).
      expect.stringMatching(/ limit \$\d+ offset \$\d+\) "page" /),
    ]);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
/** A plan's reads of indexes, in the plan's order: "Index Only Scan profiles_company_created", … */
const scansOf = (node: PlanNode | undefined): string[] =>
  node
    ? [
        ...(node['Index Name'] ? [`${node['Node Type']} ${node['Index Name']}`] : []),
        ...(node.Plans ?? []).flatMap(scansOf),
      ]
    : [];

describe('a page’s ids come from the ordering’s index, not the table', () => {
  /** In most of the company's e-mail addresses, so past the few-matches reading (`manyFrom`). */
  const MANY = 'example';
  /** The tables whose plans these tests read. */
  const TABLES = 'profiles, video_calls, audit_log, webhook_logs, review_cases';

  /**
   * The plan PostgreSQL keeps for the list's statement that the request prepared (its text has these words in
   * this order), for any value, as a large company gets it. A table of a few hundred rows differs from a large
   * company's in two ways the planner weighs, so the plan is read with both set as they are at volume:
   * - its pages are all visible (a large table is vacuumed almost entirely): VACUUM alone left 18 of 43 pages of
   *   `profiles` not all-visible in a full test run, which made an index-only scan look no cheaper;
   * - sorting the company's whole list is never cheap: here, sorting 135 rows read from another index undercut
   *   the ordering's own index.
   * Answers the index reads and, to print when an expectation fails, the whole plan with the statistics it used.
   */
  const planOf = async (request: string, pattern: string) => {
    await page(request);
    const [prepared] = (
      (await t.app.ctx.db.execute(
        sql`select statement from pg_prepared_statements where statement like ${pattern}`,
      )) as unknown as { rows: { statement: string }[] }
    ).rows;
    if (!prepared) throw new Error(`no prepared statement like ${pattern}`);
    // On PGlite the text is the PREPARE command (server/db/pglite.ts); EXPLAIN takes $n by the simple protocol.
    const text = prepared.statement.replace(/^prepare \S+ as /i, '');
    const client = (t.app.ctx.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
    const tables = TABLES.split(', ')
      .map((table) => `'${table}'`)
      .join(', ');
    await client.exec(`vacuum (analyze) ${TABLES}`);
    const results = await client.exec(`begin; set local enable_seqscan = off;
      set local enable_bitmapscan = off; set local enable_sort = off;
      update pg_class set relallvisible = relpages where relname in (${tables});
      select relname, relpages, relallvisible, reltuples from pg_class where relname in (${tables});
      explain (generic_plan, format json) ${text}; rollback`);
    const statistics = results.find((result) =>
      result.fields.some((field) => field.name === 'relallvisible'),
    )?.rows;
    const explained = results.find((result) => result.fields.some((field) => field.name === 'QUERY PLAN'));
    const [plan] =
      (explained?.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] } | undefined)?.['QUERY PLAN'] ?? [];
    const shown = JSON.stringify({ statement: text, plan: plan?.Plan, statistics }, null, 1);
    return { scans: scansOf(plan?.Plan), shown };
  };

  beforeAll(async () => {
    // `manyFrom` reads the table’s size from the statistics; a vacuumed table, as a large company’s mostly is.
    await t.app.ctx.db.execute(sql.raw(`vacuum analyze ${TABLES}`));
    expect((await page(`/api/v2/profile?limit=20&search=${MANY}`)).count).toBeGreaterThan(100);
  });

  /** The ids of the company's whole list (not the pages of the tests above with a filter). */
  const WHOLE = `(select "id" from "profiles" where "profiles"."company_id" = $_`;
  const NEWEST = `"profiles"."created_at" desc`;
  const BY_NAME = `coalesce("profiles"."name", '') asc`;
  it.each([
    [
      'a search with many matches, newest first',
      `search=${MANY}`,
      `%|| '')%order by ${NEWEST}%`,
      'profiles_company_created',
    ],
    [
      'a search with many matches, by name',
      `search=${MANY}&ordering=name`,
      `%|| '')%order by ${BY_NAME}%`,
      'profiles_company_name_key',
    ],
    [
      'a page at an offset, newest first',
      'offset=100',
      `%${WHOLE} order by ${NEWEST}%offset $%`,
      'profiles_company_created',
    ],
    [
      'a page at an offset, by name',
      'ordering=name&offset=100',
      `%${WHOLE} order by ${BY_NAME}%offset $%`,
      'profiles_company_name_key',
    ],
    [
      'a page at an offset, by status',
      'ordering=status&offset=100',
      `%${WHOLE} order by coalesce(array_position(%"status"), 0) asc%offset $%`,
      'profiles_company_status_key',
    ],
    [
      'a page at an offset, riskiest first',
      'ordering=-risk_level&offset=100',
      `%${WHOLE} order by coalesce(array_position(%"risk_level"), 0) desc%offset $%`,
      'profiles_company_risk_key',
    ],
    [
      'a page at an offset, by the last status change',
      'ordering=last_status_date&offset=100',
      `%${WHOLE} order by coalesce("profiles"."last_status_date"%offset $%`,
      'profiles_company_status_changed_key',
    ],
  ])('%s', async (_, query, pattern, index) => {
    const { scans, shown } = await planOf(`/api/v2/profile?limit=20&${query}`, pattern);
    // The ids from the index alone (the count, when it rides along, from an index too); the table is read only
    // for the page's rows, by primary key.
    expect(scans, shown).toContain(`Index Only Scan ${index}`);
    expect(
      scans.filter((scan) => !scan.startsWith('Index Only Scan')),
      shown,
    ).toEqual(['Index Scan profiles_pkey']);
  });

  // The review cases too, but their ids' generic plan cannot use the partial index of open cases (its predicate
  // is a parameter there); their offset page is checked above.
  it.each([
    ['calls', '/api/v2/videocall', 'video_calls', 'video_calls_company_created'],
    ['audit', '/api/v2/audit', 'audit_log', 'audit_log_company_created'],
    ['webhook logs', '/api/v2/webhook/logs', 'webhook_logs', 'webhook_logs_company'],
  ])('%s: a page at an offset', async (_, path, table, index) => {
    const { scans, shown } = await planOf(
      `${path}?limit=7&offset=14`,
      // The ids of the company's whole list (not the pages of the tests above with a filter).
      `%"${table}"."id" = any(array((select "id" from "${table}" where "${table}"."company_id" = $_ order by%offset $%`,
    );
    // The ids from the index alone, as one array; at volume the rows are then read by primary key (docs/decisions/0193-list-ids-from-the-index-at-any-offset.md).
    expect(scans, shown).toContain(`Index Only Scan ${index}`);
  });
});
