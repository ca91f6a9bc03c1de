import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { DocumentClass } from '#contract/common';
import {
  CHECK_KINDS,
  CONTENT_FIELDS,
  type ContentField,
  type Document,
  type documentChecksSchema,
} from '#contract/documents';
import { type DbOrTx, perHandle } from '../db/client';
import { documents, documentTypes } from '../db/schema';
import type { Storage } from '../storage/storage';

type Checks = import('zod').infer<typeof documentChecksSchema>;
type CheckValue = Checks['document'];

function checksOf(stored: Record<string, unknown>): Checks {
  const result = {} as Checks;
  for (const kind of CHECK_KINDS) {
    const value = stored[kind] as Partial<CheckValue> | undefined;
    result[kind] = { result: value?.result ?? 'not_run', score: value?.score ?? null };
  }
  return result;
}

/** Extracted fields with staff overrides applied; every content field is present. */
export function contentOf(
  extracted: Record<string, string | null>,
  overrides: Record<string, string | null>,
): { content: Record<ContentField, string | null>; overridden: ContentField[] } {
  const content = {} as Record<ContentField, string | null>;
  const overridden: ContentField[] = [];
  for (const field of CONTENT_FIELDS) {
    if (field in overrides) {
      content[field] = overrides[field] ?? null;
      overridden.push(field);
    } else content[field] = extracted[field] ?? null;
  }
  return { content, overridden };
}

interface PageJson {
  id: number;
  page: number;
  key: string;
  content_type: string;
  width: number | null;
  height: number | null;
  sha256: string | null;
}
interface AlertJson {
  id: number;
  code: string;
  name: string;
  result: Document['alerts'][number]['result'];
  overridden: boolean;
  override_reason: string | null;
  overridden_at: string | null;
}
type DeviceJson = NonNullable<Document['device_data']>;

// Pages, alerts and device data come with each document row as JSON, so a profile's documents are one query.
const pagesJson = sql<PageJson[]>`coalesce((
  select json_agg(json_build_object('id', p.id, 'page', p.page_number, 'key', p.storage_key,
    'content_type', p.content_type, 'width', p.width, 'height', p.height, 'sha256', p.sha256) order by p.page_number)
  from document_pages p where p.document_id = ${documents.id}), '[]'::json)`;
const alertsJson = sql<AlertJson[]>`coalesce((
  select json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name, 'result', a.result,
    'overridden', a.overridden, 'override_reason', a.override_reason, 'overridden_at', a.overridden_at) order by a.id)
  from document_alerts a where a.document_id = ${documents.id}), '[]'::json)`;
const deviceJson = sql<DeviceJson | null>`(
  select json_build_object('brand', v.brand, 'model', v.model, 'carrier', v.carrier, 'os', v.os,
    'osVersion', v.os_version, 'sdkVersion', v.sdk_version, 'browser', v.browser, 'useragent', v.useragent)
  from device_data v where v.document_id = ${documents.id} order by v.id limit 1)`;

/** A listed document as it comes from the database (timestamps in PostgreSQL's JSON text). */
interface DocumentJson {
  id: number;
  profile: number;
  type_id: number | null;
  type_name: string | null;
  document_class: string;
  upload_source: string;
  stream: boolean;
  archived: boolean;
  status: string;
  review_reason: string | null;
  expiry_date: string | null;
  created_at: string;
  checks: Record<string, unknown>;
  content: Record<string, string | null>;
  content_overrides: Record<string, string | null>;
  pages: PageJson[];
  alerts: AlertJson[];
  device: DeviceJson | null;
  version: number;
}

/**
 * Each document as one JSON value, with its pages, alerts and device data inside: PGlite decodes
 * every field of a result separately (a buffer copy each), so one field a row costs far less than 18.
 * Not shown: company, review bookkeeping, deletion.
 */
const documentJson = sql<DocumentJson>`json_build_object('id', ${documents.id},
  'profile', ${documents.profileId}, 'type_id', ${documents.documentTypeId}, 'type_name', ${documentTypes.name},
  'document_class', ${documents.documentClass}, 'upload_source', ${documents.uploadSource},
  'stream', ${documents.stream}, 'archived', ${documents.archived}, 'status', ${documents.status},
  'review_reason', ${documents.reviewReason}, 'expiry_date', ${documents.expiryDate},
  'created_at', ${documents.createdAt}, 'checks', ${documents.checks}, 'content', ${documents.content},
  'content_overrides', ${documents.contentOverrides}, 'pages', ${pagesJson}, 'alerts', ${alertsJson},
  'device', ${deviceJson}, 'version', ${documents.version})`;

type DocumentFilter = { archived?: boolean | undefined; upload_source?: string | undefined };

/** The list query for one combination of filters, prepared once per database handle. */
function documentsQuery(db: DbOrTx, byArchived: boolean, bySource: boolean) {
  const where: SQL[] = [
    eq(documents.profileId, sql.placeholder('profileId')),
    eq(documents.companyId, sql.placeholder('companyId')),
    isNull(documents.deletedAt),
  ];
  if (byArchived) where.push(eq(documents.archived, sql.placeholder('archived')));
  if (bySource) where.push(eq(documents.uploadSource, sql.placeholder('uploadSource')));
  return db
    .select({ doc: documentJson })
    .from(documents)
    .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
    .where(and(...where))
    .orderBy(asc(documents.createdAt), asc(documents.id))
    .prepare(`profile_documents_${Number(byArchived)}${Number(bySource)}`);
}

const documentQueries = perHandle((db) => [
  [documentsQuery(db, false, false), documentsQuery(db, false, true)],
  [documentsQuery(db, true, false), documentsQuery(db, true, true)],
]);

/**
 * A profile's documents (not deleted), oldest first, with pages, alerts and device data. Only the
 * company's documents are read; the caller checks the profile exists when the list is empty.
 */
export async function listDocuments(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  profileId: number,
  filter: DocumentFilter,
): Promise<Document[]> {
  const byArchived = filter.archived !== undefined;
  const bySource = Boolean(filter.upload_source);
  const query = documentQueries(db)[Number(byArchived)]?.[Number(bySource)];
  if (!query) throw new Error('no documents query');
  const rows = await query.execute({
    profileId,
    companyId,
    archived: filter.archived,
    uploadSource: filter.upload_source,
  });
  return rows.map(({ doc }) => toDocument(doc, storage));
}

/** A document row (as JSON) in the shape of the contract, with signed page addresses. */
function toDocument(doc: DocumentJson, storage: Storage): Document {
  const { content, overridden } = contentOf(doc.content, doc.content_overrides);
  return {
    id: doc.id,
    profile: doc.profile,
    type: doc.type_id !== null && doc.type_name !== null ? { id: doc.type_id, name: doc.type_name } : null,
    document_class: doc.document_class as DocumentClass,
    upload_source: doc.upload_source,
    stream: doc.stream,
    archived: doc.archived,
    status: doc.status as Document['status'],
    review_reason: doc.review_reason,
    expiry_date: doc.expiry_date,
    created_at: new Date(doc.created_at).toISOString(),
    pages: doc.pages.map(({ key, ...page }) => ({ ...page, url: storage.signedUrl(key) })),
    checks: checksOf(doc.checks),
    alerts: doc.alerts.map((a) => ({
      ...a,
      overridden_at: a.overridden_at ? new Date(a.overridden_at).toISOString() : null,
    })),
    content,
    overridden_fields: overridden,
    device_data: doc.device,
    version: doc.version,
  };
}

/** One of the company's documents (not deleted), or null. */
export async function getDocument(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  documentId: number,
): Promise<Document | null> {
  const [row] = await db
    .select({ doc: documentJson })
    .from(documents)
    .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
    .where(
      and(eq(documents.id, documentId), eq(documents.companyId, companyId), isNull(documents.deletedAt)),
    );
  return row ? toDocument(row.doc, storage) : null;
}
