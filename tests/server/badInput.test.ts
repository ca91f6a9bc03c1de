/**
 * The bad-input sweep: fast-check inputs over every operation of the OpenAPI document, so
 * routes added later are swept too. Malformed path ids, bodies, queries, headers and content types,
 * multipart bodies cut off or over the limits, with no token and with an admin's: no answer ≥ 500, every
 * 4xx carries a `detail`, the server still answers afterwards, and a refused request changes no row
 * (a fingerprint of every table before and after each refusal).
 *
 * Beside the random inputs, every declared field (path, query, JSON body, nested) gets the extremes of its
 * declared type once, in an otherwise well-formed request built from its schema: ids at
 * and past the integer columns (2^31) and near 2^53, negative and 0; impossible dates; text with NUL and
 * other control characters; very long text.
 *
 * BAD_INPUT_RUNS (default 2) sets the random inputs per kind and operation; BAD_INPUT_SEED replays a run.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { sessions, users } from '../../server/db/schema';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 2);
const SEED = Number(process.env.BAD_INPUT_SEED ?? 20_2026);

/**
 * Columns that legitimately change on a refused request, left out of the fingerprint (each with its
 * reason). Whole tables are never left out: a new table is fingerprinted from the day it exists.
 */
const EXCLUDED_COLUMNS: Record<string, { columns: string[]; reason: string }> = {
  sessions: {
    columns: ['last_seen_at', 'last_ip'],
    reason: 'every authenticated request, refused or not, notes "last seen" (throttled to once a minute)',
  },
  one_time_codes: {
    columns: ['attempts'],
    reason: 'a wrong e-mailed code counts a try against the code (the attempt limit), and is refused',
  },
};

/** The part of JSON Schema the OpenAPI document's schemas use. */
interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: string[];
  headers: string[];
  /** Properties of the JSON body's schema, when it has one. */
  bodyProps: string[];
  hasBody: boolean;
  /** The declared parameters with their schemas, and the JSON body's schema. */
  parameters: { in: string; name: string; required?: boolean; schema?: Schema; description?: string }[];
  body?: Schema;
}

interface Finding {
  what: string;
  status: number;
  body: string;
}

let t: TestApp;
let admin = '';
let operations: Operation[] = [];
let fingerprintSql = '';

/** A full fingerprint of every table (one hash per table; excluded columns left out). */
async function fingerprint(app: FastifyInstance): Promise<Map<string, string>> {
  const result = (await app.ctx.db.execute(sql.raw(fingerprintSql))) as unknown as {
    rows: { t: string; h: string }[];
  };
  return new Map(result.rows.map((r) => [r.t, r.h]));
}

async function tablesAndColumns(app: FastifyInstance): Promise<Map<string, string[]>> {
  const result = (await app.ctx.db.execute(sql`
    SELECT c.table_name AS t, c.column_name AS c
    FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
    WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`)) as unknown as { rows: { t: string; c: string }[] };
  const columns = new Map<string, string[]>();
  for (const { t: table, c } of result.rows) columns.set(table, [...(columns.get(table) ?? []), c]);
  return columns;
}

function buildFingerprintSql(tables: Map<string, string[]>): string {
  return [...tables]
    .map(([table, all]) => {
      const cols = all.filter((c) => !EXCLUDED_COLUMNS[table]?.columns.includes(c));
      const row = `md5(row(${cols.map((c) => `x."${c}"`).join(', ')})::text)`;
      return `SELECT '${table}' AS t, coalesce(md5(string_agg(${row}, ',' ORDER BY ${row})), '') AS h FROM "${table}" x`;
    })
    .join(' UNION ALL ');
}

/**
 * Row changes counted per table by triggers (a full fingerprint after each of a thousand requests would
 * take most of the budget): an insert, a delete, or an update that changes a column that is not excluded
 * counts one. A rolled-back transaction takes its counts back with it.
 */
async function installChangeCounters(app: FastifyInstance, tables: Map<string, string[]>): Promise<void> {
  await app.ctx.db.execute(sql.raw('CREATE TABLE sweep_changes (t text PRIMARY KEY, n bigint NOT NULL)'));
  await app.ctx.db.execute(
    sql.raw(`
    CREATE FUNCTION sweep_note() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - TG_ARGV) = (to_jsonb(NEW) - TG_ARGV) THEN RETURN NULL; END IF;
      INSERT INTO sweep_changes VALUES (TG_TABLE_NAME, 1) ON CONFLICT (t) DO UPDATE SET n = sweep_changes.n + 1;
      RETURN NULL;
    END $$`),
  );
  for (const table of tables.keys()) {
    const ignored = (EXCLUDED_COLUMNS[table]?.columns ?? []).map((c) => `'${c}'`).join(', ');
    await app.ctx.db.execute(
      sql.raw(
        `CREATE TRIGGER sweep_note AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION sweep_note(${ignored})`,
      ),
    );
  }
}

async function changeCounts(app: FastifyInstance): Promise<Map<string, string>> {
  const result = (await app.ctx.db.execute(sql`SELECT t, n::text AS n FROM sweep_changes`)) as unknown as {
    rows: { t: string; n: string }[];
  };
  return new Map(result.rows.map((r) => [r.t, r.n]));
}

/**
 * The stored files' data keys, as a set. A multipart upload refused at its eleventh page has stored and then
 * removed the first ten, each with its key: the counters move, the keys held do not. The set is compared
 * instead of the counters for this table.
 */
async function dataKeysHeld(app: FastifyInstance): Promise<string> {
  const result = (await app.ctx.db.execute(
    sql`SELECT coalesce(string_agg(storage_key || ':' || file_id, ',' ORDER BY storage_key), '') AS held FROM storage_data_keys`,
  )) as unknown as { rows: { held: string }[] };
  return result.rows[0]?.held ?? '';
}

/** The operations of the OpenAPI document (every route that is not hidden). */
function operationsOf(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? []) as Operation['parameters'];
      const body = op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined;
      const json = body?.content?.['application/json']?.schema;
      list.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        headers: parameters.filter((p) => p.in === 'header').map((p) => p.name),
        bodyProps: Object.keys(json?.properties ?? {}),
        hasBody: ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase()),
        parameters,
        body: json,
      });
    }
  }
  return list;
}

// ---------------------------------------------------------------- inputs

const oddText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    'undefined',
    'NaN',
    '[]',
    '{}',
    '<script>',
    "' OR 1=1 --",
    '../../etc',
  ),
);
const pathId = fc.oneof(
  fc.constantFrom('0', '-1', '1', '2', '3', '1.5', '1e3', '2147483648', '99999999999999999999', 'abc', '%20'),
  fc.integer({ min: -10, max: 5_000 }).map(String),
  fc.uuid().map(String),
  oddText.filter((s) => s.length > 0).map(encodeURIComponent),
);
const queryValue = fc.oneof(
  oddText,
  fc.constantFrom('-1', '0', '99999999999', 'true', 'false', '1,2', '2026-13-45', '-id', 'a'.repeat(3000)),
  fc.integer().map(String),
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });

function bodyFor(op: Operation) {
  const shaped =
    op.bodyProps.length > 0
      ? fc.dictionary(fc.constantFrom(...op.bodyProps), fc.oneof(jsonValue, oddText, fc.integer()), {
          maxKeys: op.bodyProps.length,
        })
      : jsonValue;
  return fc.oneof(shaped, jsonValue);
}

const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'image/png',
  'application/octet-stream',
];
const RAW_BODIES = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '\u0000\u0001\u0002',
  '{"__proto__":{"x":1}}',
  'x=1&y=2',
];

const BOUNDARY = 'sweep-boundary';
function multipart(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const head = [`--${BOUNDARY}`, `Content-Disposition: ${disposition}`];
    if (part.type) head.push(`Content-Type: ${part.type}`);
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]);
const FORM = multipart([
  { name: 'profile', data: '1' },
  { name: 'type', data: '1' },
  { name: 'pages', filename: 'front.png', type: 'image/png', data: PNG },
  { name: 'recording', filename: 'call.webm', type: 'video/webm', data: Buffer.alloc(64, 1) },
]);
/** Eleven files (the limit is ten) and a field over 1 MB: the multipart limits. */
const OVER_LIMITS = [
  multipart(
    Array.from({ length: 11 }, (_, i) => ({
      name: 'pages',
      filename: `p${i}.png`,
      type: 'image/png',
      data: PNG,
    })),
  ),
  multipart([{ name: 'profile', data: '1'.repeat(1_100_000) }]),
];
/** Over every JSON body limit of the server (8 MB for photos). */
const OVERSIZED_JSON = Buffer.from(JSON.stringify({ photo: 'A'.repeat(9 * 1024 * 1024) }));

// ---------------------------------------------------------------- extremes of the declared types

/** Ids at and past the integer columns (2^31 − 1, 2^31), near 2^53, negative and 0. */
const EXTREME_INTEGERS = [2_147_483_647, 2_147_483_648, 9_007_199_254_740_990, -1, 0];
/** Dates no calendar has (and the year 0, which PostgreSQL does not know). */
const IMPOSSIBLE_DATES = ['2026-13-01', '0000-00-00', '2026-02-30', '0000-01-01'];
/**
 * A field's well-formed text with NUL, and with other control characters, put inside it (so an e-mail
 * still looks like one); and very long text (shorter in a query string).
 */
const extremeTexts = (valid: string, where: 'query' | 'body') => [
  `${valid.slice(0, 1)}\u0000${valid.slice(1)}`,
  `${valid.slice(0, 1)}\u0007\u001b\u0008${valid.slice(1)}`,
  'x'.repeat(where === 'query' ? 10_000 : 100_000),
];

/** The alternatives of a schema (anyOf, oneOf), or the schema itself. */
const branches = (schema: Schema): Schema[] =>
  (schema.anyOf ?? schema.oneOf ?? [schema]).flatMap((s) => (s.anyOf || s.oneOf ? branches(s) : [s]));
/** Every pattern a string must match (zod writes a second one into allOf). */
const patternsOf = (schema: Schema): string[] =>
  [schema.pattern, ...(schema.allOf ?? []).map((s) => s.pattern)].filter((p): p is string => !!p);
const typesOf = (schema: Schema): string[] =>
  branches(schema).flatMap((s) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []));
const isDate = (schema: Schema, name: string) =>
  branches(schema).some(
    (s) =>
      s.format === 'date' ||
      s.format === 'date-time' ||
      patternsOf(s).some((pattern) => pattern.includes('\\d{4}-')) ||
      /YYYY-MM-DD/.test(s.description ?? schema.description ?? ''),
  ) || /(^|_)date($|_)/.test(name);

/** A well-formed value of a schema (its default, first choice, or a plain value that fits its bounds). */
function validValue(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branch = branches(schema).find((s) => s.type !== 'null') ?? schema;
  if (branch !== schema) return validValue(branch);
  switch (typesOf(schema)[0]) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems && schema.items ? [validValue(schema.items)] : [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, validValue(schema.properties?.[key] ?? {})]),
      );
    case 'string':
      return validText(schema);
    default:
      return 'sweep';
  }
}

function validText(schema: Schema): string {
  const byFormat: Record<string, string> = {
    email: 'sweep@example.test',
    uri: 'https://example.test/',
    date: '2026-01-15',
    'date-time': '2026-01-15T10:00:00Z',
    uuid: '00000000-0000-4000-8000-000000000000',
  };
  if (schema.format && byFormat[schema.format]) return byFormat[schema.format] as string;
  const min = schema.minLength ?? 0;
  const candidates = [
    'Sweep text of a field',
    'sweep',
    '1',
    'sweep@example.test',
    'https://example.test/',
    '2026-01-15',
    '10.0.0.1',
    '+90 555 000 00 00',
  ].map((c) => c.padEnd(min, 'x'));
  const fits = (c: string) =>
    c.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
    patternsOf(schema).every((pattern) => new RegExp(pattern, 'u').test(c));
  return candidates.find(fits) ?? 'sweep';
}

/** The extreme values of one field's declared type (none for booleans and fixed choices). */
function extremesOf(schema: Schema, name: string, where: 'query' | 'body'): unknown[] {
  const types = typesOf(schema);
  const choices = branches(schema).every((s) => s.enum || s.const !== undefined || s.type === 'null');
  if (choices) return [];
  if (types.includes('integer') || types.includes('number'))
    return where === 'query' ? EXTREME_INTEGERS.map(String) : EXTREME_INTEGERS;
  if (types.includes('string'))
    return isDate(schema, name) ? IMPOSSIBLE_DATES : extremeTexts(String(validValue(schema)), where);
  return [];
}

interface Leaf {
  /** Where the value goes: a path of keys (and 0 for an array's item) inside the body. */
  path: (string | number)[];
  values: unknown[];
}

/** Every field of a body schema that has extremes, nested objects and array items included. */
function leavesOf(schema: Schema, path: (string | number)[] = []): Leaf[] {
  const object = branches(schema).find((s) => s.properties);
  if (object?.properties)
    return Object.entries(object.properties).flatMap(([key, child]) => leavesOf(child, [...path, key]));
  const array = branches(schema).find((s) => s.items);
  if (array?.items) return leavesOf(array.items, [...path, 0]);
  const values = extremesOf(schema, String(path.at(-1) ?? ''), 'body');
  return values.length > 0 ? [{ path, values }] : [];
}

/** The schema's well-formed value with one field replaced (its parents built as needed). */
function withValue(schema: Schema, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  if (typeof key === 'number') {
    const array = branches(schema).find((s) => s.items);
    return [withValue(array?.items ?? {}, rest, value)];
  }
  const object = branches(schema).find((s) => s.properties) ?? {};
  const base = (validValue(object) ?? {}) as Record<string, unknown>;
  return { ...base, [key as string]: withValue(object.properties?.[key as string] ?? {}, rest, value) };
}

/** One well-formed request per field and extreme value of the operation's declared types. */
function extremeCases(op: Operation): [string, InjectOptions][] {
  const cases: [string, InjectOptions][] = [];
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const requiredQuery = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, String(validValue(p.schema ?? {}))]),
  );
  const body = op.body
    ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(validValue(op.body)) }
    : {};
  const pathIds = op.pathParams.map(() => '1');
  for (const [index, name] of op.pathParams.entries()) {
    const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
    for (const value of extremesOf(param?.schema ?? {}, name, 'query')) {
      const ids = pathIds.map((id, i) => (i === index ? encodeURIComponent(String(value)) : id));
      cases.push([
        `extreme path ${name}`,
        { method: op.method, url: urlOf(op, ids, query(requiredQuery)), ...body },
      ]);
    }
  }
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    for (const value of extremesOf(param.schema ?? {}, param.name, 'query'))
      cases.push([
        `extreme query ${param.name}`,
        {
          method: op.method,
          url: urlOf(op, pathIds, query({ ...requiredQuery, [param.name]: String(value) })),
          ...body,
        },
      ]);
  }
  if (op.body)
    for (const leaf of leavesOf(op.body))
      for (const value of leaf.values)
        cases.push([
          `extreme body ${leaf.path.join('.')}`,
          {
            method: op.method,
            url: urlOf(op, pathIds, query(requiredQuery)),
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(withValue(op.body, leaf.path, value)),
          },
        ]);
  return cases;
}

// ---------------------------------------------------------------- the sweep

const samples = <T>(arbitrary: fc.Arbitrary<T>, salt: number, runs = RUNS) =>
  fc.sample(arbitrary, { numRuns: runs, seed: SEED + salt });

function urlOf(op: Operation, ids: string[], query = ''): string {
  let index = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => ids[index++] ?? '1');
  return query ? `${path}?${query}` : path;
}

describe('the bad-input sweep over the OpenAPI document', () => {
  beforeAll(async () => {
    t = await startTestApp({
      loginRateLimit: { perAccount: 100_000, perAddress: 100_000, timeWindowMs: 60_000 },
      // Background deliveries would change rows between a request and its fingerprint.
      webhooks: { ...loadConfig({}).webhooks, worker: false },
    });
    admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const document = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
    operations = operationsOf(document);
    const tables = await tablesAndColumns(t.app);
    fingerprintSql = buildFingerprintSql(tables);
    await installChangeCounters(t.app, tables);
  }, 180_000);
  afterAll(() => t.close());

  it('counts a row change, and not one that is rolled back or only touches an excluded column', async () => {
    const counts = async () => Object.fromEntries(await changeCounts(t.app));
    const start = await counts();
    await t.app.ctx.db
      .transaction(async (tx) => {
        await tx.update(users).set({ firstName: 'Rolled' }).where(sql`${users.id} = 1`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await t.app.ctx.db.update(sessions).set({ lastSeenAt: new Date(), lastIp: '10.9.9.9' });
    expect(await counts()).toEqual(start);
    const [user] = await t.app.ctx.db.select().from(users).where(sql`${users.id} = 1`);
    await t.app.ctx.db
      .update(users)
      .set({ firstName: `${user?.firstName}!` })
      .where(sql`${users.id} = 1`);
    await t.app.ctx.db
      .update(users)
      .set({ firstName: user?.firstName ?? '' })
      .where(sql`${users.id} = 1`);
    expect(Number((await counts()).users ?? 0)).toBe(Number(start.users ?? 0) + 2);
  });

  it('answers every malformed request below 500, with a detail, and changes nothing when it refuses', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const findings: Finding[] = [];
    /** The operations that answered 500 or more (a third-party fuzzer counts these). */
    const failing = new Set<string>();
    let current = '';
    let requests = 0;
    let extremes = 0;
    const statuses = new Map<string, number>();
    const snapshotBefore = await fingerprint(t.app);
    await t.app.accessLog.flush();
    let before = await changeCounts(t.app);
    let keysBefore = await dataKeysHeld(t.app);
    const started = performance.now();

    async function send(what: string, options: InjectOptions, token: 'admin' | 'none') {
      requests += 1;
      const headers = { ...(options.headers as Record<string, string>) };
      if (token === 'admin') Object.assign(headers, bearer(admin));
      const t0 = performance.now();
      const response = await t.app.inject({ ...options, headers });
      const dt = performance.now() - t0;
      if (dt > 100)
        console.log('SLOW', Math.round(dt), what, String(options.url).slice(0, 80), response.statusCode);
      const status = response.statusCode;
      const group = `${String(status).slice(0, 1)}xx`;
      statuses.set(group, (statuses.get(group) ?? 0) + 1);
      const label = `${what}: ${options.method} ${String(options.url).slice(0, 160)}`;
      if (status >= 500) {
        findings.push({ what: label, status, body: response.body.slice(0, 300) });
        failing.add(current);
      }
      if (status >= 400 && status < 500) {
        let detail: unknown;
        try {
          detail = (response.json() as { detail?: unknown }).detail;
        } catch {
          detail = undefined;
        }
        if (typeof detail !== 'string' || detail === '')
          findings.push({ what: `${label} (no detail)`, status, body: response.body.slice(0, 300) });
      }
      // Reads of personal data are written a moment later, in batches: an earlier answered read must not land
      // in the counts of a later refused request.
      await t.app.accessLog.flush();
      const after = await changeCounts(t.app);
      const keysAfter = await dataKeysHeld(t.app);
      if (status >= 400) {
        const changed = [...after]
          .filter(([table, n]) => before.get(table) !== n)
          .map(([table]) => table)
          .filter((table) => table !== 'storage_data_keys' || keysAfter !== keysBefore);
        if (changed.length > 0)
          findings.push({ what: `${label} (refused, but changed ${changed.join(', ')})`, status, body: '' });
      }
      before = after;
      keysBefore = keysAfter;
      // A request may legitimately end the admin's session (logout): sign in again.
      if (token === 'admin' && status === 401) {
        const check = await t.app.inject({ method: 'GET', url: '/api/v2/session', headers: bearer(admin) });
        if (check.statusCode === 401) {
          admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
          before = await changeCounts(t.app);
        }
      }
    }

    for (const [n, op] of operations.entries()) {
      current = `${op.method} ${op.path}`;
      const salt = n * 1000;
      const ids = () => samples(fc.array(pathId, { minLength: 2, maxLength: 2 }), salt + 1);
      const cases: [string, InjectOptions][] = [];
      // Malformed path ids (and the real 1, 2, 3 now and then).
      for (const values of ids()) cases.push(['path ids', { method: op.method, url: urlOf(op, values) }]);
      // Queries: the declared parameters with odd values, and an unknown one.
      const queries = fc.array(
        fc.tuple(fc.constantFrom(...op.query, 'unknown', 'page', 'limit'), queryValue),
        {
          maxLength: 4,
        },
      );
      for (const pairs of samples(queries, salt + 2)) {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        cases.push(['query', { method: op.method, url: urlOf(op, ['1', '1'], query) }]);
      }
      cases.push(['raw query', { method: op.method, url: urlOf(op, ['1', '1'], 'page=%E0%A4%A&search=%') }]);
      // Declared headers (If-Match, X-Password) with odd values.
      for (const value of samples(
        oddText.map((s) => s.replace(/[^\x20-\x7e]/g, '')),
        salt + 3,
      )) {
        if (op.headers.length === 0) break;
        const headers = Object.fromEntries(op.headers.map((h) => [h, value]));
        cases.push(['headers', { method: op.method, url: urlOf(op, ['1', '1']), headers }]);
      }
      if (op.hasBody) {
        for (const body of samples(bodyFor(op), salt + 4))
          cases.push([
            'json body',
            {
              method: op.method,
              url: urlOf(op, ['1', '1']),
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify(body),
            },
          ]);
        for (const [type, raw] of samples(
          fc.tuple(fc.constantFrom(...CONTENT_TYPES, 'application/json'), fc.constantFrom(...RAW_BODIES)),
          salt + 5,
        ))
          cases.push([
            'content type',
            {
              method: op.method,
              url: urlOf(op, ['1', '1']),
              headers: { 'content-type': type },
              payload: raw,
            },
          ]);
        const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
        for (const cut of samples(fc.integer({ min: 1, max: FORM.length - 1 }), salt + 6))
          cases.push([
            'multipart cut off',
            {
              method: op.method,
              url: urlOf(op, ['1', '1']),
              headers: multipartHeaders,
              payload: FORM.subarray(0, cut),
            },
          ]);
        for (const payload of OVER_LIMITS)
          cases.push([
            'multipart over limits',
            { method: op.method, url: urlOf(op, ['1', '1']), headers: multipartHeaders, payload },
          ]);
        cases.push([
          'oversized json',
          {
            method: op.method,
            url: urlOf(op, ['1', '1']),
            headers: { 'content-type': 'application/json' },
            payload: OVERSIZED_JSON,
          },
        ]);
      }
      // Without a token, a sample of the same inputs; with the admin's token, all of them.
      for (const [index, [what, options]] of cases.entries()) {
        if (index % 3 === 0) await send(`${what}, no token`, options, 'none');
        await send(what, options, 'admin');
      }
      // The extremes of every declared field, with the admin's token (they are to reach the handlers).
      for (const [what, options] of extremeCases(op)) {
        extremes += 1;
        await send(what, options, 'admin');
      }
    }

    console.log(
      `bad-input sweep: ${operations.length} operations, ${requests} requests (${extremes} at the extremes of their types), seed ${SEED}, ${findings.length} findings, ${failing.size} operations ≥ 500 ${[...failing].join(', ')}, ${Math.round(performance.now() - started)} ms; ${[...statuses].map(([g, n]) => `${g}: ${n}`).join(', ')}`,
    );
    expect(findings).toEqual([]);

    // The snapshot cross-check: every table whose rows differ from the start of the sweep had changes
    // counted (by requests that were accepted), so the counters missed nothing.
    const counted = await changeCounts(t.app);
    const snapshotAfter = await fingerprint(t.app);
    const uncounted = [...snapshotAfter]
      .filter(([table, hash]) => snapshotBefore.get(table) !== hash && !counted.has(table))
      .map(([table]) => table);
    expect(uncounted).toEqual([]);
    // Accepted writes did change rows, and the counters saw them (the sweep reaches into the handlers).
    expect(counted.size).toBeGreaterThan(0);

    // Still up, and the admin still works.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/regions' })).statusCode).toBe(200);
    const again = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v2/profile', headers: bearer(again) })).statusCode,
    ).toBe(200);
  }, 300_000);
});
