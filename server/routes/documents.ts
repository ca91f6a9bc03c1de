import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import { STORAGE_QUOTA_EXCEEDED } from '#contract/constants';
import { DOCUMENT_DETAILS, MAX_PAGE_BYTES, MAX_PAGES } from '#contract/documentRules';
import {
  deviceDataInputSchema,
  documentApproveBodySchema,
  documentArchiveBodySchema,
  documentOverrideBodySchema,
  documentResponseSchema,
  documentTypeBodySchema,
  documentUploadFieldsSchema,
  documentUploadFormSchema,
  ruleOverrideBodySchema,
  ruleOverrideParams,
  ruleOverrideResponseSchema,
} from '#contract/documentWrites';
import { legalHoldRefusalSchema } from '#contract/evidence';
import type { AppContext } from '../context';
import { PageTypeError, storePage } from '../domain/documentPages';
import { getDocument } from '../domain/documents';
import {
  archiveDocument,
  changeDocumentType,
  deleteDocument,
  overrideAlert,
  overrideFields,
  recordUpload,
  reviewDocument,
  type StoredPage,
} from '../domain/documentWrites';
import { uploadAllowance } from '../domain/evidence';
import { badRequest, HttpError, notFound } from '../errors';
import { need, principalOf } from '../http/access';
import { describeValidation } from '../http/errors';
import { conflictSchema, ifMatchHeaders, seenVersion, versioned, withEtag } from '../http/versioning';
import { FileTooLargeError } from '../storage/storage';
import { StorageQuotaError, uploadError } from '../storage/uploadGate';
import { actorOf, notRestricted, watchOf } from './profileWrites';
import { authErrors } from './shared';

const access = need('view_profiles_page');
const tags = ['documents'];
const restricted = 'Restricted Users get 403.';
const IF_MATCH =
  ' Send the document\'s version as If-Match (`"<version>"`): a newer version answers 409 with the current document.';
const documentConflict = { 409: conflictSchema(documentResponseSchema) };
/** A write that a legal hold refuses: its 409 is a stale version (with the document) or the hold (its reason). */
const heldDocumentConflict = { 409: z.union([documentConflict[409], legalHoldRefusalSchema]) };
const HELD =
  " Refused with 409 while the document's profile is under a legal hold (the detail names its reason; audited).";

/** The multipart fields of an upload, parsed (a 400 names every problem). */
function uploadFields(fields: Record<string, string>) {
  const parsed = documentUploadFieldsSchema.safeParse(fields);
  if (!parsed.success)
    throw badRequest(
      describeValidation(
        'body',
        parsed.error.issues.map((issue) => ({ instancePath: issue.path.join('/'), message: issue.message })),
      ),
    );
  let device = null;
  if (parsed.data.device_data) {
    let json: unknown;
    try {
      json = JSON.parse(parsed.data.device_data);
    } catch {
      throw badRequest('body.device_data: not valid JSON');
    }
    const checked = deviceDataInputSchema.safeParse(json);
    if (!checked.success) throw badRequest('body.device_data: not device data (brand, model, os, browser …)');
    device = checked.data;
  }
  return { ...parsed.data, device };
}

/**
 * Reads an upload's parts: pages go to storage as they arrive (within the company's storage quota); fields
 * are collected.
 */
async function readUpload(ctx: AppContext, request: FastifyRequest, stored: StoredPage[]) {
  const fields: Record<string, string> = {};
  try {
    const allowance = await uploadAllowance(
      ctx.db,
      principalOf(request).companyId,
      Number.POSITIVE_INFINITY,
      ctx.config.limits.companyStorageBytes,
    );
    const parts = request.parts({
      limits: { fileSize: MAX_PAGE_BYTES + 1, files: MAX_PAGES, fields: 20, fieldSize: 8_000 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'pages') {
          part.file.resume();
          throw badRequest(`body.${part.fieldname}: unknown file field (pages are sent as "pages")`);
        }
        const left = allowance.maxBytes - stored.reduce((sum, page) => sum + page.size, 0);
        try {
          stored.push(await storePage(ctx.storage, part.file, Math.min(MAX_PAGE_BYTES, left)));
        } catch (error) {
          if (error instanceof FileTooLargeError && left < MAX_PAGE_BYTES) throw new StorageQuotaError();
          throw error;
        }
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if (error instanceof PageTypeError) throw badRequest(DOCUMENT_DETAILS.pageType);
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT')
      throw new HttpError(413, DOCUMENT_DETAILS.tooManyPages);
    throw uploadError(error, DOCUMENT_DETAILS.pageTooLarge);
  }
  if (stored.length === 0) throw badRequest(DOCUMENT_DETAILS.noPages);
  return uploadFields(fields);
}

/** The document write paths (docs/product/api.md#resources) and the alert override (`PUT /profile/{id}/rule/{ruleId}`). */
export function documentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const answer = async (request: FastifyRequest, id: number) => {
    const document = await getDocument(ctx.db, ctx.storage, principalOf(request).companyId, id);
    if (!document) throw notFound();
    return document;
  };
  /**
   * Runs a document write that names the version it saw (409 answers the document as it is now), tells
   * the profile's room, and answers the document with its ETag.
   */
  const write = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    what: 'document' | 'alert',
    run: (seen: number | undefined) => Promise<unknown>,
  ) => {
    const seen = seenVersion(request);
    await versioned(
      () => run(seen),
      (stale) => answer(request, stale.id),
    );
    const document = await answer(request, id);
    ctx.profileWatch.changed({
      ...watchOf(actorOf(request), document.profile),
      what,
      documentId: document.id,
    });
    return withEtag(reply, document);
  };

  return async (app) => {
    app.post(
      '/document',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Upload a document',
          tags,
          consumes: ['multipart/form-data'],
          multipart: documentUploadFormSchema,
          description:
            'Multipart: `profile`, `type` (document type id), `upload_source`, `cropped`, `rotated`, `stream` ' +
            '(true/false), `device_data` (JSON) and 1–10 files `pages`, in page order. Pages must be JPEG, PNG, ' +
            `WebP or PDF by their first bytes (the declared type is ignored), at most ${MAX_PAGE_BYTES / 1048576} MB ` +
            `each (413). They are streamed to storage with their SHA-256; on any error nothing is kept. Past the ` +
            `company's storage quota: 413 “${STORAGE_QUOTA_EXCEEDED}”. Too many uploads by one user: 429. ${restricted}`,
          response: { 201: documentResponseSchema, ...authErrors, 413: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw badRequest('Send the document as multipart/form-data');
        const actor = actorOf(request);
        const stored: StoredPage[] = [];
        const leave = await ctx.uploads.enter(principalOf(request).id);
        try {
          const fields = await readUpload(ctx, request, stored);
          const id = await ctx.db.transaction((tx) =>
            recordUpload(tx, actor, {
              profile: fields.profile,
              type: fields.type,
              upload_source: fields.upload_source,
              cropped: fields.cropped === 'true',
              rotated: fields.rotated === 'true',
              stream: fields.stream === 'true',
              device: fields.device,
              pages: stored,
            }),
          );
          const document = await answer(request, id);
          ctx.profileWatch.changed({ ...watchOf(actor, document.profile), what: 'document', documentId: id });
          ctx.reviewFeed.profileCases(actor.companyId, document.profile);
          return reply.code(201).send(document);
        } catch (error) {
          await Promise.all(stored.map((page) => ctx.storage.remove(page.key)));
          throw error;
        } finally {
          leave();
        }
      },
    );

    app.put(
      '/document/:id/approve',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Approve or reject a document',
          tags,
          description: `\`approved: false\` rejects and needs \`reason\` of at least 10 characters after trimming. ${restricted}${IF_MATCH}`,
          params: idParams,
          headers: ifMatchHeaders,
          body: documentApproveBodySchema,
          response: { 200: documentResponseSchema, ...authErrors, ...documentConflict },
        },
      },
      async (request, reply) =>
        write(request, reply, request.params.id, 'document', (seen) =>
          ctx.db.transaction((tx) =>
            reviewDocument(tx, actorOf(request), request.params.id, request.body, seen),
          ),
        ),
    );

    app.put(
      '/document/:id/archive',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Archive or restore a document',
          tags,
          description: `Archives (\`archived: true\`) or restores a document; \`id\` must be the address's id. ${restricted}${IF_MATCH} Archiving is${HELD}`,
          params: idParams,
          headers: ifMatchHeaders,
          body: documentArchiveBodySchema,
          response: { 200: documentResponseSchema, ...authErrors, ...heldDocumentConflict },
        },
      },
      async (request, reply) =>
        write(request, reply, request.params.id, 'document', (seen) =>
          ctx.db.transaction((tx) =>
            archiveDocument(tx, actorOf(request), request.params.id, request.body, seen),
          ),
        ),
    );

    app.delete(
      '/document/:id',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Delete a document',
          tags,
          description: `Deletes a document (kept for the record, never listed again). ${restricted}${IF_MATCH}${HELD}`,
          params: idParams,
          headers: ifMatchHeaders,
          response: { 204: z.null().describe('Deleted'), ...authErrors, ...heldDocumentConflict },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const seen = seenVersion(request);
        const profileId = await versioned(
          () => ctx.db.transaction((tx) => deleteDocument(tx, actor, request.params.id, seen)),
          (stale) => answer(request, stale.id),
        );
        ctx.profileWatch.changed({
          ...watchOf(actor, profileId),
          what: 'document',
          documentId: request.params.id,
        });
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/document/:id/documentcontent/override',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: "Override a document's fields",
          tags,
          description:
            'Overrides extracted fields (null or blank clears one). Dates are real YYYY-MM-DD dates; birth and issue ' +
            `dates not in the future; the expiry date not before the issue date. ${restricted}${IF_MATCH}${HELD}`,
          params: idParams,
          headers: ifMatchHeaders,
          body: documentOverrideBodySchema,
          response: { 200: documentResponseSchema, ...authErrors, ...heldDocumentConflict },
        },
      },
      async (request, reply) =>
        write(request, reply, request.params.id, 'document', (seen) =>
          ctx.db.transaction((tx) =>
            overrideFields(tx, actorOf(request), request.params.id, request.body, seen),
          ),
        ),
    );

    app.patch(
      '/document/:id',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: "Override a document's type",
          tags,
          description: `Overrides the document type (GET /documenttype); the class follows the type. ${restricted}${IF_MATCH}${HELD}`,
          params: idParams,
          headers: ifMatchHeaders,
          body: documentTypeBodySchema,
          response: { 200: documentResponseSchema, ...authErrors, ...heldDocumentConflict },
        },
      },
      async (request, reply) =>
        write(request, reply, request.params.id, 'document', (seen) =>
          ctx.db.transaction((tx) =>
            changeDocumentType(tx, actorOf(request), request.params.id, request.body.document_type, seen),
          ),
        ),
    );

    app.put(
      '/profile/:id/rule/:ruleId',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Override a document alert',
          tags,
          description:
            "Overrides an alert (rule) of one of the profile's documents with a reason of at least 10 characters; " +
            `an alert is overridden once. ${restricted} If-Match is the version of the alert's document; a newer one ` +
            'answers 409 with the current document.',
          params: ruleOverrideParams,
          headers: ifMatchHeaders,
          body: ruleOverrideBodySchema,
          response: { 200: ruleOverrideResponseSchema, ...authErrors, ...documentConflict },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const seen = seenVersion(request);
        const alert = await versioned(
          () =>
            ctx.db.transaction((tx) =>
              overrideAlert(tx, actor, request.params.id, request.params.ruleId, request.body.reason, seen),
            ),
          (stale) => answer(request, stale.id),
        );
        ctx.profileWatch.changed({
          ...watchOf(actor, request.params.id),
          what: 'alert',
          documentId: alert.document_id,
        });
        return alert.answer;
      },
    );
  };
}
