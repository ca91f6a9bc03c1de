/**
 * Profiles at volume: set-based SQL, `INSERT … SELECT … FROM generate_series(…)` in chunks,
 * the fastest way on both PGlite and PostgreSQL (one statement per table and chunk, no rows through
 * JavaScript, no COPY plumbing). Every value comes from the row number or the row's id (multiplicative
 * hashes into the same name, city and status lists as the rich seed of profiles.ts), never from `random()`:
 * on a fresh database two runs write the same rows.
 *
 * Proportions (docs/decisions/0166-seeding-at-volume.md): every status in turn (n mod 11) and every risk level; 1–2 documents for each
 * profile past Created / Pending Upload (an ID or passport, a selfie for every second one) with 1–2 pages;
 * an AML result for every second profile (a hit for every sixth) with 1–2 screenings in its history;
 * calls for four profiles in five (a second one for every third profile), all ended or missed; a
 * `profile_created` log line each; created over `spanDays` before `now`.
 */
import { type SQL, sql } from 'drizzle-orm';
import { DOCUMENT_CLASSES, type DocumentClass, PROFILE_STATUSES, RISK_LEVELS } from '#contract/common';
import type { Db } from '../client';
import { CARD_HEIGHT, CARD_WIDTH, SAMPLE_VARIANTS, sampleKey } from './images';
import {
  ascii,
  CITIES,
  FIRST_NAMES,
  LAST_NAMES,
  NATIONALITIES,
  SOURCES,
  STREETS,
  UPLOAD_SOURCES,
} from './profiles';

export interface BulkSeed {
  companyId: number;
  /** The row number of the first profile: values follow it, so a later chunk never repeats an e-mail. */
  firstIndex: number;
  count: number;
  /** Base time (ms): profiles are created over the `spanDays` before it. */
  now: number;
  spanDays: number;
  /** Agents of the calls, authors of AML approvals (none: calls without an agent). */
  staffIds: number[];
  /** The company's AML provider; null: no AML results. */
  amlProvider: string | null;
  /** Document type ids by class (documents of another class get none). */
  documentTypeIds?: ReadonlyMap<DocumentClass, number>;
  /** Sizes of the stored sample images by key (unknown: 0). */
  sampleSizes?: ReadonlyMap<string, number>;
  /** Calls too (default true; bench/stats.ts writes its own). */
  calls?: boolean;
  /** Profiles per chunk (default 50,000). */
  chunk?: number;
  log?: (line: string) => void;
}

/** A whole number written into the SQL text (a parameter's type would be guessed, e.g. text). */
const int = (value: number): SQL => sql.raw(String(Math.trunc(value)));
const texts = (items: readonly string[]): SQL =>
  sql`ARRAY[${sql.join(
    items.map((item) => sql`${item}`),
    sql`, `,
  )}]::text[]`;
/** `array[1 + (x mod length)]`: a pick from a list by a non-negative number. */
const pick = (items: readonly string[], x: SQL): SQL =>
  sql`(${texts(items)})[1 + (${x}) % ${int(items.length)}]`;

const CHECK_RESULTS = ['passed', 'passed', 'passed', 'warning', 'failed'];
const SCANNED = ['OFAC SDN', 'EU Consolidated', 'UN Sanctions', 'PEP Global', 'Adverse Media'];

/** Seeds `count` profiles of one company with their rows in other tables; answers the seconds it took. */
export async function seedBulkProfiles(db: Db, seed: BulkSeed): Promise<number> {
  const started = Date.now();
  const chunk = seed.chunk ?? 50_000;
  for (let done = 0; done < seed.count; done += chunk) {
    const from = seed.firstIndex + done;
    const to = from + Math.min(chunk, seed.count - done) - 1;
    await seedChunk(db, seed, from, to);
    seed.log?.(
      `  bulk profiles: ${done + (to - from + 1)} / ${seed.count} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  return (Date.now() - started) / 1000;
}

async function maxId(db: Db, table: string): Promise<number> {
  const { rows } = (await db.execute(sql.raw(`SELECT coalesce(max(id), 0) AS id FROM ${table}`))) as {
    rows: { id: number | string }[];
  };
  return Number(rows[0]?.id ?? 0);
}

async function seedChunk(db: Db, seed: BulkSeed, from: number, to: number): Promise<void> {
  const { companyId } = seed;
  const now = new Date(seed.now).toISOString();
  const spanSeconds = seed.spanDays * 86_400;
  const profileBase = await maxId(db, 'profiles');
  const documentBase = await maxId(db, 'documents');
  // h: a 32-bit multiplicative hash of the row number; its slices pick the values.
  const h = sql.raw('x.h');
  await db.execute(sql`
    INSERT INTO profiles (company_id, id_card_number, name, gender, email, phone, nationality, date_of_birth,
                          address_province, address_city, address_street, status, risk_level, reject_reason,
                          extra_data, source, quality_check, created_at, updated_at, last_status_date)
    SELECT ${int(companyId)},
           -- 11 digits, one per row: n × a prime, modulo 9·10¹⁰ (coprime), is a bijection.
           (10000000000 + (n::bigint * 48271) % 90000000000)::text,
           ${pick(FIRST_NAMES, sql`${h} / 65536`)} || ' ' || ${pick(LAST_NAMES, sql`${h} / 1048576`)},
           CASE WHEN ${h} % 2 = 0 THEN 'M' ELSE 'F' END,
           ${pick(FIRST_NAMES.map(ascii), sql`${h} / 65536`)} || '.' || ${pick(LAST_NAMES.map(ascii), sql`${h} / 1048576`)}
             || n || '@example.com',
           '+90 5' || lpad((${h} % 100)::text, 2, '0') || ' ' || lpad((${h} / 100 % 1000)::text, 3, '0') || ' '
             || lpad((n % 10000)::text, 4, '0'),
           ${pick(NATIONALITIES, sql`${h} / 4096`)},
           (date '1950-01-01' + (${h} % 20000)::int),
           ${pick(
             CITIES.map(([province]) => province),
             sql`${h} / 256`,
           )},
           ${pick(
             CITIES.map(([, city]) => city),
             sql`${h} / 256`,
           )},
           ${pick(STREETS, sql`${h} / 8192`)} || ' ' || (1 + ${h} % 250),
           s.status,
           ${pick(RISK_LEVELS, sql`n / ${int(PROFILE_STATUSES.length)}`)},
           CASE WHEN s.status IN ('Rejected', 'Blacklisted') THEN 'Document photo does not match the customer' END,
           jsonb_build_object('government_check', jsonb_build_object('verified', ${h} % 5 <> 0)),
           ${pick(SOURCES, sql`${h} / 16`)},
           jsonb_build_object('score', 40 + ${h} % 61, 'blur', ${h} % 10 = 0, 'glare', ${h} % 7 = 0),
           t.created, t.created + interval '1 hour' * (${h} % 48),
           CASE WHEN s.status <> 'Created' THEN t.created + interval '1 hour' * (${h} % 48) END
      FROM generate_series(${int(from)}, ${int(to)}) AS n,
           LATERAL (SELECT (n::bigint * 2654435761) % 4294967296 AS h) AS x,
           LATERAL (SELECT ${pick(PROFILE_STATUSES, sql`n`)} AS status) AS s,
           LATERAL (SELECT ${now}::timestamptz - interval '1 second' * (${h} % ${int(spanSeconds)}) AS created) AS t
     ORDER BY n`);
  const chunkProfiles = sql`p.company_id = ${int(companyId)} AND p.id > ${int(profileBase)}`;

  await db.execute(sql`
    INSERT INTO profile_logs (profile_id, action, data, created_at)
    SELECT p.id, 'profile_created', jsonb_build_object('id_card_number', p.id_card_number), p.created_at
      FROM profiles p WHERE ${chunkProfiles}`);

  const typeId = (documentClass: DocumentClass) => seed.documentTypeIds?.get(documentClass) ?? null;
  const checks = sql.join(
    ['document', 'fraud', 'biometric', 'cross'].map(
      (kind, k) =>
        sql`${kind}::text, jsonb_build_object('result', ${pick(CHECK_RESULTS, sql`(p.id * ${int(7 + 4 * k)} + d.k * ${int(k + 3)})`)},
                                         'score', 30 + (p.id * ${int(13 + k)} + d.k) % 71)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    INSERT INTO documents (company_id, profile_id, document_type_id, document_class, upload_source, cropped,
                           status, expiry_date, checks, content, created_at)
    SELECT p.company_id, p.id,
           CASE d.cls WHEN 'ID' THEN ${typeId('ID')}::int WHEN 'PA' THEN ${typeId('PA')}::int ELSE ${typeId('SE')}::int END,
           d.cls, ${pick(UPLOAD_SOURCES, sql`p.id`)}, p.id % 2 = 0,
           CASE WHEN p.status IN ('Approved', 'Temporarily Approved') THEN 'approved'
                WHEN p.status IN ('Rejected', 'Blacklisted') THEN 'rejected' ELSE 'pending_review' END,
           CASE WHEN d.k = 1 THEN (${now}::timestamptz + interval '1 day' * (p.id % 3200 - 200))::date END,
           jsonb_build_object(${checks}),
           CASE WHEN d.k = 1 THEN jsonb_build_object(
             'IDNumber', p.id_card_number, 'FirstName', split_part(p.name, ' ', 1),
             'LastName', split_part(p.name, ' ', 2), 'BirthDate', p.date_of_birth::text)
           ELSE '{}'::jsonb END,
           p.created_at + interval '1 minute' * d.k
      FROM profiles p
           CROSS JOIN LATERAL (VALUES (1, CASE WHEN p.id % 4 = 3 THEN 'PA' ELSE 'ID' END), (2, 'SE')) AS d(k, cls)
     WHERE ${chunkProfiles} AND p.status NOT IN ('Created', 'Pending Upload') AND (d.k = 1 OR p.id % 2 = 0)
     ORDER BY p.id, d.k`);

  const samples = sql.join(
    DOCUMENT_CLASSES.flatMap((documentClass) =>
      Array.from({ length: SAMPLE_VARIANTS }, (_, variant) => {
        const key = sampleKey(documentClass, variant);
        return sql`(${documentClass}, ${int(variant)}, ${key}, ${seed.sampleSizes?.get(key) ?? 0}::bigint)`;
      }),
    ),
    sql`, `,
  );
  await db.execute(sql`
    INSERT INTO document_pages (document_id, page_number, storage_key, content_type, size, width, height)
    SELECT d.id, g.page, s.key, 'image/png', s.size, ${int(CARD_WIDTH)}, ${int(CARD_HEIGHT)}
      FROM documents d
           CROSS JOIN LATERAL generate_series(1, CASE WHEN d.document_class IN ('ID', 'DL') THEN 2 ELSE 1 END) AS g(page)
           JOIN (VALUES ${samples}) AS s(cls, variant, key, size)
             ON s.cls = d.document_class AND s.variant = (d.id + g.page) % ${int(SAMPLE_VARIANTS)}
     WHERE d.id > ${int(documentBase)}
     ORDER BY d.id, g.page`);

  const staff = sql`ARRAY[${sql.join(
    seed.staffIds.map((id) => int(id)),
    sql`, `,
  )}]::int[]`;
  const staffOf = (x: SQL) =>
    seed.staffIds.length > 0 ? sql`(${staff})[1 + (${x}) % ${int(seed.staffIds.length)}]` : sql`NULL::int`;
  if (seed.amlProvider) {
    await db.execute(sql`
      INSERT INTO aml_results (profile_id, lists, score, records, approved, approved_by, approved_at, updated_at)
      SELECT p.id,
             CASE WHEN a.hit THEN '["OFAC SDN", "EU Consolidated"]'::jsonb ELSE '[]'::jsonb END,
             CASE WHEN a.hit THEN 60 + p.id % 40 ELSE p.id % 20 END,
             CASE WHEN a.hit THEN jsonb_build_array(jsonb_build_object('name', p.name, 'list', 'OFAC SDN',
               'match_score', 60 + p.id % 40, 'country', p.nationality, 'category', 'Sanctions'))
             ELSE '[]'::jsonb END,
             CASE WHEN a.hit THEN NULL ELSE true END,
             CASE WHEN a.hit THEN NULL ELSE ${staffOf(sql`p.id`)} END,
             CASE WHEN a.hit THEN NULL ELSE p.created_at + interval '1 day' END,
             p.created_at + interval '1 day'
        FROM profiles p, LATERAL (SELECT p.id % 6 = 0 AS hit) AS a
       WHERE ${chunkProfiles} AND p.id % 2 = 0
       ORDER BY p.id`);
    await db.execute(sql`
      INSERT INTO aml_history (profile_id, provider, status, scanned_database, matches, records, created_at)
      SELECT p.id, ${seed.amlProvider}, CASE WHEN r.approved IS NULL AND g.k = g.last THEN 'hit' ELSE 'clear' END,
             ${pick(SCANNED, sql`(p.id + g.k)`)},
             CASE WHEN r.approved IS NULL AND g.k = g.last THEN 1 ELSE 0 END,
             CASE WHEN r.approved IS NULL AND g.k = g.last THEN r.records ELSE '[]'::jsonb END,
             p.created_at + interval '1 day' * g.k
        FROM profiles p
             JOIN aml_results r ON r.profile_id = p.id,
             LATERAL (SELECT k, 1 + (p.id / 2) % 2 AS last FROM generate_series(1, 1 + (p.id / 2) % 2) AS k) AS g
       WHERE ${chunkProfiles}
       ORDER BY p.id, g.k`);
  }

  if (seed.calls ?? true) {
    // Past calls only: MISSED (2) or ended with an agent's status (3..9), as the rich seed's.
    await db.execute(sql`
      INSERT INTO video_calls (company_id, profile_id, agent_id, room_id, status, call_start_time, call_end_time,
                               created_at)
      SELECT p.company_id, p.id, CASE WHEN c.status = 2 THEN NULL ELSE ${staffOf(sql`p.id + c.k`)} END,
             'room-' || p.id || '-' || c.k, c.status,
             CASE WHEN c.status = 2 THEN NULL ELSE c.start END,
             c.start + interval '1 second' * CASE WHEN c.status = 2 THEN 60 ELSE 120 + (p.id * 31 + c.k) % 781 END,
             c.start - interval '30 seconds'
        FROM profiles p,
             LATERAL (SELECT k, 2 + (p.id + k) % 8 AS status, p.created_at + interval '2 hours' * k AS start
                        FROM generate_series(1, CASE WHEN p.id % 3 = 0 THEN 2 ELSE 1 END) AS k) AS c
       WHERE ${chunkProfiles} AND p.id % 5 <> 0
       ORDER BY p.id, c.k`);
  }
}
