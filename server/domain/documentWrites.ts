/**
 * The document write paths: review, archive, delete, field and type overrides, alert overrides and
 * the record of an upload. Each takes the transaction, locks the document row, answers 404 for another
 * company's (or a deleted) document, changes nothing on bad input and logs into the profile's activity log.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { CONTENT_FIELDS, reasonIsLongEnough } from '#contract/constants';
import {
  DOCUMENT_DETAILS,
  FIELD_MAX_LENGTH,
  FIELD_PROBLEM_TEXT,
  fieldProblems,
  type PageContentType,
} from '#contract/documentRules';
import type {
  deviceDataInputSchema,
  documentApproveBodySchema,
  documentOverrideBodySchema,
} from '#contract/documentWrites';
import type { Tx } from '../db/client';
import { deviceData, documentAlerts, documentPages, documents, documentTypes } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { changedFields, recordAudit } from './audit';
import { assertNoHold, type HeldWrite } from './legalHold';
import { type Actor, caseOf, lockProfile, writeLog } from './profileWrites';
import { openCase } from './review/open';
import {
  checkVersion,
  documentAt,
  mustHaveUpdated,
  nextDocumentVersion,
  type Seen,
  touchDocument,
} from './versions';
import { enqueueWebhookEvent } from './webhooks';

type DocumentRow = typeof documents.$inferSelect;
type ApproveBody = z.output<typeof documentApproveBodySchema>;
type OverrideBody = z.output<typeof documentOverrideBodySchema>;
type DeviceInput = z.output<typeof deviceDataInputSchema>;

/**
 * The company's document (not deleted), locked for the rest of the transaction; 404 otherwise. A stale
 * `seen` version throws StaleVersionError (409).
 */
async function lockDocument(
  tx: Tx,
  companyId: number,
  documentId: number,
  seen?: Seen,
): Promise<DocumentRow> {
  const [row] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.companyId, companyId), isNull(documents.deletedAt)))
    .for('update');
  if (!row) throw notFound();
  checkVersion('document', row, seen);
  return row;
}

/**
 * The company's document locked for a write that a legal hold refuses (`assertNoHold`, 409). The profile's hold
 * is locked before the document, the order every profile-and-document write takes them in.
 */
async function lockUnheldDocument(
  tx: Tx,
  actor: Actor,
  documentId: number,
  action: HeldWrite,
  seen?: Seen,
): Promise<DocumentRow> {
  const [doc] = await tx
    .select({ profileId: documents.profileId })
    .from(documents)
    .where(
      and(
        eq(documents.id, documentId),
        eq(documents.companyId, actor.companyId),
        isNull(documents.deletedAt),
      ),
    );
  if (!doc) throw notFound();
  await assertNoHold(tx, actor.companyId, doc.profileId, {
    actorId: actor.userId,
    action,
    object: 'document',
    objectId: documentId,
  });
  return lockDocument(tx, actor.companyId, documentId, seen);
}

/** A conditional UPDATE of a locked document: its changes and the next version, at the version read. */
async function updateDocument(tx: Tx, row: DocumentRow, changes: Partial<typeof documents.$inferInsert>) {
  const updated = await tx
    .update(documents)
    .set({ ...changes, version: nextDocumentVersion })
    .where(documentAt(row))
    .returning({ id: documents.id });
  mustHaveUpdated('document', row.id, updated);
}

/** PUT /document/{id}/approve: approve, or reject with a reason of at least 10 characters. */
export async function reviewDocument(
  tx: Tx,
  actor: Actor,
  documentId: number,
  body: ApproveBody,
  seen?: Seen,
) {
  const reason = body.reason?.trim() || null;
  if (!body.approved && !reasonIsLongEnough(reason)) throw badRequest(DOCUMENT_DETAILS.reasonTooShort);
  const row = await lockDocument(tx, actor.companyId, documentId, seen);
  const status = body.approved ? 'approved' : 'rejected';
  await updateDocument(tx, row, {
    status,
    reviewReason: reason,
    reviewedBy: actor.userId,
    reviewedAt: new Date(),
  });
  await writeLog(tx, row.profileId, actor.userId, body.approved ? 'document_approved' : 'document_rejected', {
    document_id: row.id,
    document_class: row.documentClass,
    ...(reason ? { reason } : {}),
  });
  await enqueueWebhookEvent(tx, actor.companyId, `document.${status}`, {
    document_id: row.id,
    profile_id: row.profileId,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: `document_${status}`,
    before: { status: row.status, review_reason: row.reviewReason },
    after: { status, review_reason: reason },
  });
}

/**
 * PUT /document/{id}/archive: archive or restore (the body's id must be the address's). Archiving hides evidence
 * from the profile's lists, so a legal hold refuses it; restoring shows it again and is allowed.
 */
export async function archiveDocument(
  tx: Tx,
  actor: Actor,
  documentId: number,
  body: { id: number; archived: boolean },
  seen?: Seen,
) {
  if (body.id !== documentId) throw badRequest(DOCUMENT_DETAILS.idMismatch);
  const row = body.archived
    ? await lockUnheldDocument(tx, actor, documentId, 'document_archived', seen)
    : await lockDocument(tx, actor.companyId, documentId, seen);
  if (row.archived === body.archived) return;
  await updateDocument(tx, row, { archived: body.archived });
  await writeLog(tx, row.profileId, actor.userId, body.archived ? 'document_archived' : 'document_restored', {
    document_id: row.id,
    document_class: row.documentClass,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: body.archived ? 'document_archived' : 'document_restored',
    before: { archived: row.archived },
    after: { archived: body.archived },
  });
}

/**
 * DELETE /document/{id}: a soft delete (the row and its files stay for the record; lists skip it, and an
 * evidence package names its pages missing). Refused under a legal hold.
 */
export async function deleteDocument(tx: Tx, actor: Actor, documentId: number, seen?: Seen): Promise<number> {
  const row = await lockUnheldDocument(tx, actor, documentId, 'document_deleted', seen);
  await updateDocument(tx, row, { deletedAt: new Date() });
  await writeLog(tx, row.profileId, actor.userId, 'document_deleted', {
    document_id: row.id,
    document_class: row.documentClass,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: 'document_deleted',
    before: { deleted: false },
    after: { deleted: true },
  });
  return row.profileId;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * PUT /document/{id}/documentcontent/override: the sent fields replace the extracted ones (blank or null
 * clears a value). Dates are checked on the result, so an expiry date cannot fall before the issue date.
 * Refused under a legal hold: it changes what the held document says.
 */
export async function overrideFields(
  tx: Tx,
  actor: Actor,
  documentId: number,
  body: OverrideBody,
  seen?: Seen,
) {
  const sent = Object.entries(body.fields).filter(([, value]) => value !== undefined) as [
    (typeof CONTENT_FIELDS)[number],
    string | null,
  ][];
  if (sent.length === 0) throw badRequest(DOCUMENT_DETAILS.noFields);
  const changes = Object.fromEntries(sent.map(([field, value]) => [field, value?.trim() || null]));
  const row = await lockUnheldDocument(tx, actor, documentId, 'document_fields_overridden', seen);
  const overrides = { ...row.contentOverrides, ...changes };
  const merged = Object.fromEntries(
    CONTENT_FIELDS.map((field) => [
      field,
      field in overrides ? overrides[field] : (row.content[field] ?? null),
    ]),
  );
  // Only the sent fields and the pair they form are judged: stored values are not the caller's input.
  const problems = Object.entries(fieldProblems(merged, todayUtc())).filter(
    ([field, problem]) =>
      field in changes ||
      (problem === 'expiryBeforeIssue' && ('IssueDate' in changes || 'ExpiryDate' in changes)),
  );
  if (problems.length > 0)
    throw badRequest(
      problems.map(([field, problem]) => `${field}: ${FIELD_PROBLEM_TEXT[problem]}`).join('; '),
    );
  const expiry = merged.ExpiryDate ?? null;
  await updateDocument(tx, row, {
    contentOverrides: overrides,
    ...('ExpiryDate' in changes ? { expiryDate: expiry } : {}),
  });
  const fields = Object.keys(changes);
  await writeLog(tx, row.profileId, actor.userId, 'document_fields_overridden', {
    document_id: row.id,
    document_class: row.documentClass,
    fields,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: 'document_fields_overridden',
    ...changedFields(row.contentOverrides, changes),
  });
}

/** PATCH /document/{id}: another document type (the class follows the type); refused under a legal hold. */
export async function changeDocumentType(
  tx: Tx,
  actor: Actor,
  documentId: number,
  typeId: number,
  seen?: Seen,
) {
  const [type] = await tx.select().from(documentTypes).where(eq(documentTypes.id, typeId));
  if (!type) throw badRequest(DOCUMENT_DETAILS.unknownType);
  const row = await lockUnheldDocument(tx, actor, documentId, 'document_type_changed', seen);
  if (row.documentTypeId === type.id) return;
  await updateDocument(tx, row, { documentTypeId: type.id, documentClass: type.documentClass });
  await writeLog(tx, row.profileId, actor.userId, 'document_type_changed', {
    document_id: row.id,
    document_class: row.documentClass,
    from: row.documentTypeId,
    to: type.id,
    type: type.name,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: 'document_type_changed',
    before: { document_type: row.documentTypeId, document_class: row.documentClass },
    after: { document_type: type.id, document_class: type.documentClass },
  });
}

/**
 * PUT /profile/{id}/rule/{ruleId}: overrides one alert of the profile's documents with a reason. The version
 * checked and bumped is the alert's document's (the alert is shown, and decided, on its document).
 */
export async function overrideAlert(
  tx: Tx,
  actor: Actor,
  profileId: number,
  alertId: number,
  reason: string,
  seen?: Seen,
) {
  const trimmed = reason.trim();
  if (!reasonIsLongEnough(trimmed)) throw badRequest(DOCUMENT_DETAILS.overrideReasonTooShort);
  await lockProfile(tx, actor.companyId, profileId);
  const [alert] = await tx
    .select({ alert: documentAlerts, document: { id: documents.id, version: documents.version } })
    .from(documentAlerts)
    .innerJoin(documents, eq(documents.id, documentAlerts.documentId))
    .where(
      and(
        eq(documentAlerts.id, alertId),
        eq(documentAlerts.profileId, profileId),
        eq(documents.companyId, actor.companyId),
        isNull(documents.deletedAt),
      ),
    )
    .for('update');
  if (!alert) throw notFound();
  checkVersion('document', alert.document, seen);
  if (alert.alert.overridden) throw badRequest(DOCUMENT_DETAILS.alreadyOverridden);
  const [updated] = await tx
    .update(documentAlerts)
    .set({ overridden: true, overrideReason: trimmed, overriddenBy: actor.userId, overriddenAt: new Date() })
    .where(eq(documentAlerts.id, alertId))
    .returning();
  if (!updated) throw notFound();
  await touchDocument(tx, alert.document);
  await writeLog(tx, profileId, actor.userId, 'alert_overridden', {
    alert_id: updated.id,
    document_id: updated.documentId,
    alert: updated.code,
    name: updated.name,
    reason: trimmed,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: updated.documentId,
    action: 'alert_overridden',
    before: { alert: updated.code, overridden: false },
    after: { alert: updated.code, overridden: true, override_reason: trimmed },
  });
  return {
    document_id: updated.documentId,
    answer: {
      id: updated.id,
      code: updated.code,
      name: updated.name,
      result: updated.result as 'passed' | 'warning' | 'failed',
      overridden: updated.overridden,
      override_reason: updated.overrideReason,
      overridden_at: updated.overriddenAt?.toISOString() ?? null,
    },
  };
}

/** A stored page file of an upload. */
export interface StoredPage {
  key: string;
  size: number;
  contentType: PageContentType;
  width: number | null;
  height: number | null;
  /** SHA-256 (hex) of the stored bytes. */
  sha256: string;
}

export interface UploadRecord {
  profile: number;
  type: number;
  upload_source: string;
  cropped: boolean;
  rotated: boolean;
  stream: boolean;
  device: DeviceInput | null;
  pages: StoredPage[];
}

/** Records an uploaded document whose pages are already stored; answers the new id. */
export async function recordUpload(tx: Tx, actor: Actor, upload: UploadRecord): Promise<number> {
  await lockProfile(tx, actor.companyId, upload.profile).catch(() => {
    throw badRequest(DOCUMENT_DETAILS.unknownProfile);
  });
  const [type] = await tx.select().from(documentTypes).where(eq(documentTypes.id, upload.type));
  if (!type) throw badRequest(DOCUMENT_DETAILS.unknownType);
  const [row] = await tx
    .insert(documents)
    .values({
      companyId: actor.companyId,
      profileId: upload.profile,
      documentTypeId: type.id,
      documentClass: type.documentClass,
      uploadSource: upload.upload_source,
      stream: upload.stream,
      cropped: upload.cropped,
      rotated: upload.rotated,
    })
    .returning({ id: documents.id });
  if (!row) throw new Error('document insert returned nothing');
  await tx.insert(documentPages).values(
    upload.pages.map((page, i) => ({
      documentId: row.id,
      pageNumber: i + 1,
      storageKey: page.key,
      contentType: page.contentType,
      size: page.size,
      width: page.width,
      height: page.height,
      sha256: page.sha256,
    })),
  );
  if (upload.device && Object.values(upload.device).some((value) => value)) {
    const d = upload.device;
    const text = (value: string | null | undefined, max = FIELD_MAX_LENGTH) =>
      value?.trim().slice(0, max) || null;
    await tx.insert(deviceData).values({
      profileId: upload.profile,
      documentId: row.id,
      brand: text(d.brand),
      model: text(d.model),
      carrier: text(d.carrier),
      os: text(d.os),
      osVersion: text(d.osVersion),
      sdkVersion: text(d.sdkVersion),
      browser: text(d.browser),
      useragent: text(d.useragent, 1000),
    });
  }
  await writeLog(tx, upload.profile, actor.userId, 'document_uploaded', {
    document_id: row.id,
    document_class: type.documentClass,
    pages: upload.pages.length,
    upload_source: upload.upload_source,
  });
  await enqueueWebhookEvent(tx, actor.companyId, 'document.uploaded', {
    document_id: row.id,
    profile_id: upload.profile,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'document',
    objectId: row.id,
    action: 'document_uploaded',
    after: {
      profile: upload.profile,
      document_type: type.id,
      pages: upload.pages.length,
      upload_source: upload.upload_source,
    },
  });
  await openCase(tx, {
    ...caseOf(actor, upload.profile),
    kind: 'document_review',
    source: 'document_uploaded',
  });
  return row.id;
}
