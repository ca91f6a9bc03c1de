/**
 * `npm run bench:search` (docs/decisions/0165-profile-search-by-index.md): the profile list's search at
 * BENCH_SEARCH_PROFILES profiles (1,000,000) and at 10,000, on PGlite in a temporary folder, or on PostgreSQL
 * when DATABASE_URL is set (its tables are emptied first: give it a scratch database). The profiles are made
 * by one `insert … select … generate_series` (names from Turkish first names, middle names and surnames,
 * unique ID numbers and phones), then ANALYZE. Each search runs BENCH_SEARCH_RUNS times (40) after 5 warm-up
 * runs through `listProfiles` (first page of 20 with its count, no count cache: what a new search costs) and
 * prints median and p95 in ms, the ratio of the p95 to the one at 10,000, and the plan of the page's query
 * (EXPLAIN ANALYZE, so one can see the index used). The target: under 50 ms p95 on PostgreSQL, under 100 ms
 * on PGlite, ratio under 2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { ProfileListQuery } from '../contract/profiles';
import { type Database, openDatabase } from '../server/db/client';
import { listProfiles } from '../server/domain/profiles';
import { percentile } from './support';

const LARGE = Number(process.env.BENCH_SEARCH_PROFILES ?? 1_000_000);
const SMALL = 10_000;
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 40);
const WARMUP = 5;
const COMPANY = 1;

const FIRST = [
  'Ahmet',
  'Ayşe',
  'Mehmet',
  'Fatma',
  'Mustafa',
  'Emine',
  'Ali',
  'Hatice',
  'Hüseyin',
  'Zeynep',
  'İbrahim',
  'Elif',
  'Hasan',
  'Merve',
  'Osman',
  'Şule',
  'Yusuf',
  'Gül',
  'Ömer',
  'Özge',
  'Murat',
  'Çağla',
  'Emre',
  'Büşra',
  'Burak',
  'Derya',
  'Serkan',
  'Esra',
  'Tolga',
  'Işıl',
  'Can',
  'İpek',
  'Kemal',
  'Sevgi',
  'Oğuz',
  'Aslı',
  'Cem',
  'Dilek',
  'Barış',
  'Nur',
];
const MIDDLE = ['', 'Can', 'Nur', 'Ali', 'Naz', 'Efe', 'Su', 'Deniz', 'Ece', 'Kaan', 'Gök', 'Tuna'];
const LAST = [
  'Yılmaz',
  'Kaya',
  'Demir',
  'Şahin',
  'Çelik',
  'Yıldız',
  'Yıldırım',
  'Öztürk',
  'Aydın',
  'Özdemir',
  'Arslan',
  'Doğan',
  'Kılıç',
  'Aslan',
  'Çetin',
  'Kara',
  'Koç',
  'Kurt',
  'Özkan',
  'Şimşek',
  'Polat',
  'Özcan',
  'Korkmaz',
  'Çakır',
  'Erdoğan',
  'Yavuz',
  'Can',
  'Acar',
  'Şen',
  'Aktaş',
  'Güler',
  'Yalçın',
  'Güneş',
  'Bozkurt',
  'Bulut',
  'Keskin',
  'Ünal',
  'Turan',
  'Gül',
  'Özer',
  'Işık',
  'Kaplan',
  'Avcı',
  'Sarı',
  'Tekin',
  'Taş',
  'Köse',
  'Yüksel',
  'Ateş',
  'Aksoy',
];

const array = (values: string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`);

/** Profile n: ID number 1 followed by n in 10 digits, phone +90 5xx from n, a name picked by n. */
async function makeProfiles(database: Database, total: number): Promise<void> {
  const { db } = database;
  await db.execute(sql`truncate profiles, companies restart identity cascade`);
  await db.execute(
    sql`insert into companies (id, name, region) values (1, 'Search bench', 'eu'), (2, 'Other', 'eu')`,
  );
  const started = performance.now();
  await db.execute(sql`
    insert into profiles (company_id, id_card_number, name, email, phone, status, created_at, updated_at)
    select ${COMPANY}, '1' || lpad(g::text, 10, '0'),
      f.v[1 + g % ${FIRST.length}] || ' ' || coalesce(nullif(m.v[1 + (g / 7) % ${MIDDLE.length}], '') || ' ', '')
        || l.v[1 + (g / 3) % ${LAST.length}],
      'user' || g || '@example' || (g % 50) || '.com',
      '+90 5' || lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0'),
      'Created', now() - g * interval '1 second', now() - g * interval '1 second'
    from generate_series(1, ${total}) g, (select ${array(FIRST)} v) f, (select ${array(MIDDLE)} v) m,
      (select ${array(LAST)} v) l`);
  // Another company's profiles with the same names: a search never finds them (and they cost the index).
  await db.execute(sql`
    insert into profiles (company_id, id_card_number, name, email, phone, status)
    select 2, '2' || lpad(id::text, 10, '0'), name, email, phone, status from profiles where id <= ${total / 10}`);
  await db.execute(sql`vacuum analyze profiles`);
  console.log(`${total} profiles made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// Profile 1,234's name (a namesake every 24,000 profiles), ID number, e-mail and phone, and common words.
const SEARCHES: [string, string][] = [
  ['name (full)', 'Oğuz Ece Doğan'],
  ['Turkish folded', 'OGUZ ECE DOGAN'],
  ['ID number (exact)', '10000001234'],
  ['ID number (part)', '000001234'],
  ['e-mail', 'user1234@'],
  ['phone (digits)', '5009772046'],
  ['name (surname, 1 in 50)', 'Öztürk'],
  ['Turkish folded (1 in 50)', 'ÖZTÜRK'],
  ['short (2 letters)', 'Öz'],
];

async function measure(database: Database): Promise<Map<string, number>> {
  const p95s = new Map<string, number>();
  for (const [label, search] of SEARCHES) {
    const query = { search, limit: 20, offset: 0, ordering: '-created_at' } as ProfileListQuery;
    let found = 0;
    for (let i = 0; i < WARMUP; i += 1) found = (await listProfiles(database.db, COMPANY, query)).count;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      await listProfiles(database.db, COMPANY, query);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    p95s.set(label, p95);
    console.log(
      `${label.padEnd(24)} ${JSON.stringify(search).padEnd(24)} found ${String(found).padStart(7)}  median ${percentile(times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms`,
    );
  }
  return p95s;
}

async function explain(database: Database, search: string): Promise<void> {
  const folded = sql`profile_search_fold(${search})`;
  const rows = await database.db.execute(sql`explain (analyze, costs off)
    select id from profiles where company_id = ${COMPANY}
      and search_text like '%' || ${folded} || '%'
    order by created_at desc, id desc limit 20`);
  const lines =
    (rows as unknown as { rows: Record<string, string>[] }).rows ??
    (rows as unknown as Record<string, string>[]);
  for (const row of lines) console.log(`    ${Object.values(row)[0]}`);
}

async function main() {
  const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'bench-search-'));
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDir: dir ?? 'memory' });
  console.log(`Database: ${database.kind}`);
  try {
    const figures: Map<string, number>[] = [];
    for (const total of [SMALL, LARGE]) {
      await makeProfiles(database, total);
      console.log(`\n=== ${total} profiles ===`);
      figures.push(await measure(database));
      await explain(database, 'Oğuz Ece Doğan');
    }
    const [small, large] = figures as [Map<string, number>, Map<string, number>];
    console.log(`\nRatio of p95 at ${LARGE} to ${SMALL}:`);
    for (const [label, p95] of large)
      console.log(`  ${label.padEnd(24)} ${(p95 / (small.get(label) ?? p95)).toFixed(2)}×`);
  } finally {
    await database.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
