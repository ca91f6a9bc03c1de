/**
 * Documents (docs/product/api.md): the profile's documents, document types, review, archive, delete, overrides, the alert
 * override and the upload. The upload reports progress through XMLHttpRequest handed to ky as its `fetch`:
 * ky's own `onUploadProgress` streams the body, which Chromium allows only over HTTP/2, and the reference
 * server speaks HTTP/1.1 (docs/decisions/0027-document-upload-and-review.md). Errors still pass through ky's
 * hooks (ApiError, 401).
 */

import type { Document } from '#contract/documents';
import type { DocumentType } from '#contract/reference';
import { api, ifMatch } from './http';
import { progressFetch } from './progressFetch';

type Options = { signal?: AbortSignal };
type ContentFields = Partial<Record<keyof Document['content'], string | null>>;

export const documentKeys = {
  /** Every document list of a profile (the tab and the sidebar lists share this prefix). */
  all: (profileId: number) => ['profiles', 'detail', profileId, 'documents'] as const,
  list: (profileId: number) => ['profiles', 'detail', profileId, 'documents', 'all'] as const,
  types: ['documenttype'] as const,
  logs: (profileId: number) => ['profiles', 'detail', profileId, 'logs'] as const,
};

/** All documents of a profile that are not deleted, active and archived. */
export const getDocuments = (profileId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/documents`, { signal }).json<Document[]>();

export const getDocumentTypes = ({ signal }: Options = {}) =>
  api.get('documenttype', { signal }).json<DocumentType[]>();

// Every write sends the version of the document the screen holds (If-Match); a stale one answers 409 with
// `{ detail, current }`.

export const reviewDocument = (id: number, approved: boolean, reason: string | null, version: number) =>
  api
    .put(`document/${id}/approve`, {
      json: reason === null ? { approved } : { approved, reason },
      headers: ifMatch(version),
    })
    .json<Document>();

export const archiveDocument = (id: number, archived: boolean, version: number) =>
  api.put(`document/${id}/archive`, { json: { id, archived }, headers: ifMatch(version) }).json<Document>();

export const deleteDocument = async (id: number, version: number) => {
  await api.delete(`document/${id}`, { headers: ifMatch(version) });
};

export const overrideFields = (id: number, fields: ContentFields, version: number) =>
  api
    .put(`document/${id}/documentcontent/override`, { json: { fields }, headers: ifMatch(version) })
    .json<Document>();

export const changeDocumentType = (id: number, documentType: number, version: number) =>
  api
    .patch(`document/${id}`, { json: { document_type: documentType }, headers: ifMatch(version) })
    .json<Document>();

/** The version is the alert's document's. */
export const overrideAlert = (profileId: number, alertId: number, reason: string, version: number) =>
  api
    .put(`profile/${profileId}/rule/${alertId}`, { json: { reason }, headers: ifMatch(version) })
    .json<Document['alerts'][number]>();

export interface UploadPayload {
  profile: number;
  type: number;
  pages: File[];
  upload_source?: string;
  cropped?: boolean;
  rotated?: boolean;
  stream?: boolean;
  device_data?: Record<string, string | null>;
}

/** The device data (docs/product/entities.md#device-data) of this browser, as far as it tells. */
export function browserDeviceData(): Record<string, string | null> {
  const agent = navigator.userAgent;
  const browser = /(Edg|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(agent)?.[0]?.replace('/', ' ') ?? null;
  return { brand: 'Desktop', browser, useragent: agent, os: navigator.platform || null };
}

/** POST /document (multipart, docs/product/entities.md#upload-payload), pages in order; `onProgress` gets 0..1. */
export function uploadDocument(
  payload: UploadPayload,
  { signal, onProgress }: Options & { onProgress?: (fraction: number) => void } = {},
) {
  const form = new FormData();
  form.append('profile', String(payload.profile));
  form.append('type', String(payload.type));
  form.append('upload_source', payload.upload_source ?? 'studio');
  form.append('cropped', String(payload.cropped ?? false));
  form.append('rotated', String(payload.rotated ?? false));
  form.append('stream', String(payload.stream ?? false));
  if (payload.device_data) form.append('device_data', JSON.stringify(payload.device_data));
  for (const page of payload.pages) form.append('pages', page, page.name);
  return api
    .post('document', {
      body: form,
      signal,
      timeout: 10 * 60_000,
      retry: 0,
      ...(onProgress ? { fetch: progressFetch(onProgress) } : {}),
    })
    .json<Document>();
}
