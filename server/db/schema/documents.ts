/** A profile's documents, their pages and alerts, and the device data of an upload. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { profiles } from './profiles';
import { documentTypes } from './reference';

export const documents = pgTable(
  'documents',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    documentTypeId: integer().references(() => documentTypes.id),
    documentClass: text().notNull(),
    uploadSource: text().notNull().default('studio'),
    stream: boolean().notNull().default(false),
    cropped: boolean().notNull().default(false),
    rotated: boolean().notNull().default(false),
    archived: boolean().notNull().default(false),
    /** pending_review | approved | rejected */
    status: text().notNull().default('pending_review'),
    reviewReason: text(),
    reviewedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: ts(),
    expiryDate: date({ mode: 'string' }),
    /** { document, fraud, biometric, cross }: each { result, score } */
    checks: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Extracted content fields: IDNumber, FirstName, ... */
    content: jsonb().$type<Record<string, string | null>>().notNull().default({}),
    /** Fields overridden by staff, applied over `content`. */
    contentOverrides: jsonb().$type<Record<string, string | null>>().notNull().default({}),
    /**
     * The four check results `document|fraud|biometric|cross` (empty where missing), kept by PostgreSQL:
     * the dashboard groups documents by it instead of reading every `checks` value (GET /bitool).
     */
    checkResults: text().generatedAlwaysAs(
      sql`coalesce(checks #>> '{document,result}', '') || '|' || coalesce(checks #>> '{fraud,result}', '') || '|' || coalesce(checks #>> '{biometric,result}', '') || '|' || coalesce(checks #>> '{cross,result}', '')`,
    ),
    deletedAt: ts(),
    /** Bumped by every write, like the profile's. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index('documents_profile').on(t.profileId, t.createdAt),
    // The dashboard (GET /bitool): documents uploaded in a range.
    index('documents_company_created').on(t.companyId, t.createdAt),
  ],
);

export const documentPages = pgTable(
  'document_pages',
  {
    id: id(),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    pageNumber: integer().notNull(),
    storageKey: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    width: integer(),
    height: integer(),
    /** SHA-256 (hex) of the stored bytes, computed while streaming (checked again when served). */
    sha256: text(),
  },
  (t) => [
    index('document_pages_document').on(t.documentId, t.pageNumber),
    index('document_pages_storage_key').on(t.storageKey),
  ],
);

/** Alerts / rules raised on a document (PUT /profile/{id}/rule/{ruleId} overrides one). */
export const documentAlerts = pgTable(
  'document_alerts',
  {
    id: id(),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    name: text().notNull(),
    /** passed | warning | failed */
    result: text().notNull(),
    overridden: boolean().notNull().default(false),
    overrideReason: text(),
    overriddenBy: integer().references(() => users.id, { onDelete: 'set null' }),
    overriddenAt: ts(),
  },
  (t) => [index('document_alerts_document').on(t.documentId)],
);

export const deviceData = pgTable(
  'device_data',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    documentId: integer().references(() => documents.id, { onDelete: 'cascade' }),
    brand: text(),
    model: text(),
    carrier: text(),
    os: text(),
    osVersion: text(),
    sdkVersion: text(),
    browser: text(),
    useragent: text(),
    ip: text(),
    createdAt: createdAt(),
  },
  (t) => [index('device_data_profile').on(t.profileId), index('device_data_document').on(t.documentId)],
);
