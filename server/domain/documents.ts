import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { DocumentClass } from '../../src/contract/common';
import {
  CHECK_KINDS,
  CONTENT_FIELDS,
  type ContentField,
  type Document,
  type documentChecksSchema,
} from '../../src/contract/documents';
import type { DbOrTx } from '../db/client';
import { documents, documentTypes } from '../db/schema';
import type { Storage } from '../storage/storage';
import { iso } from './format';

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

/** Extracted fields with staff overrides applied; every field of §3 is present. */
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
    'content_type', p.content_type, 'width', p.width, 'height', p.height) order by p.page_number)
  from document_pages p where p.document_id = ${documents.id}), '[]'::json)`;
const alertsJson = sql<AlertJson[]>`coalesce((
  select json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name, 'result', a.result,
    'overridden', a.overridden, 'override_reason', a.override_reason, 'overridden_at', a.overridden_at) order by a.id)
  from document_alerts a where a.document_id = ${documents.id}), '[]'::json)`;
const deviceJson = sql<DeviceJson | null>`(
  select json_build_object('brand', v.brand, 'model', v.model, 'carrier', v.carrier, 'os', v.os,
    'osVersion', v.os_version, 'sdkVersion', v.sdk_version, 'browser', v.browser, 'useragent', v.useragent)
  from device_data v where v.document_id = ${documents.id} order by v.id limit 1)`;

/**
 * A profile's documents (not deleted), oldest first, with pages, alerts and device data. Only the
 * company's documents are read; the caller checks the profile exists when the list is empty.
 */
export async function listDocuments(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  profileId: number,
  filter: { archived?: boolean | undefined; upload_source?: string | undefined },
): Promise<Document[]> {
  const where: SQL[] = [
    eq(documents.profileId, profileId),
    eq(documents.companyId, companyId),
    isNull(documents.deletedAt),
  ];
  if (filter.archived !== undefined) where.push(eq(documents.archived, filter.archived));
  if (filter.upload_source) where.push(eq(documents.uploadSource, filter.upload_source));
  const rows = await db
    .select({
      doc: documents,
      typeName: documentTypes.name,
      pages: pagesJson,
      alerts: alertsJson,
      device: deviceJson,
    })
    .from(documents)
    .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
    .where(and(...where))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map(({ doc, typeName, pages, alerts, device }) => {
    const { content, overridden } = contentOf(doc.content, doc.contentOverrides);
    return {
      id: doc.id,
      profile: doc.profileId,
      type:
        doc.documentTypeId !== null && typeName !== null ? { id: doc.documentTypeId, name: typeName } : null,
      document_class: doc.documentClass as DocumentClass,
      upload_source: doc.uploadSource,
      stream: doc.stream,
      archived: doc.archived,
      status: doc.status as Document['status'],
      review_reason: doc.reviewReason,
      expiry_date: doc.expiryDate,
      created_at: iso(doc.createdAt),
      pages: pages.map(({ key, ...page }) => ({ ...page, url: storage.signedUrl(key) })),
      checks: checksOf(doc.checks),
      alerts: alerts.map((a) => ({
        ...a,
        overridden_at: a.overridden_at ? new Date(a.overridden_at).toISOString() : null,
      })),
      content,
      overridden_fields: overridden,
      device_data: device,
    };
  });
}
