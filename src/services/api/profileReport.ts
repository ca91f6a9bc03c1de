/**
 * What the profile reports (pdf-basic, pdf-expand) read (docs/product/api.md): the profile, and for the expanded report its
 * documents, AML result, video calls and notes; the page images as bytes for embedding in the PDF.
 */

import type { z } from 'zod';
import type { AmlResult } from '#contract/aml';
import type { Page } from '#contract/common';
import type { Document } from '#contract/documents';
import { PROFILE_LOG_EVENTS } from '#contract/logEvents';
import type { LogEntry, Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import type { VideoCall } from '#contract/videocalls';
import { visibleTabs } from '../../machines/profileTabs';
import { api, publicApi } from './http';
import { getCompanyConfig, getProfile, listNotes } from './profileDetail';

type Options = { signal?: AbortSignal };

export type ReportKind = 'basic' | 'expanded';

/** Everything a report shows. `aml` is null when the company has no AML screening. */
export interface ReportData {
  kind: ReportKind;
  profile: Profile;
  documents: Document[];
  aml: AmlResult | null;
  calls: VideoCall[];
  notes: Note[];
  /** The review decisions that took effect, oldest first. */
  decisions: ReportDecision[];
}

/** A `review_decided` entry of the profile's log, with when and by whom. */
export type ReportDecision = z.infer<(typeof PROFILE_LOG_EVENTS)['review_decided']> & {
  at: string;
  by: string | null;
};

/** The most log entries a report reads for its decisions (the server's page limit). */
const REPORT_LOGS_LIMIT = 200;

/** The profile's review decisions, from its newest log entries. */
export async function listDecisions(id: number, { signal }: Options = {}): Promise<ReportDecision[]> {
  const { results } = await api
    .get(`profile/${id}/logs`, { searchParams: { limit: REPORT_LOGS_LIMIT }, signal })
    .json<{ results: LogEntry[] }>();
  return results
    .filter((entry) => entry.action === 'review_decided')
    .flatMap((entry) => {
      const parsed = PROFILE_LOG_EVENTS.review_decided.safeParse(entry.data);
      return parsed.success ? [{ ...parsed.data, at: entry.created_at, by: entry.actor?.name ?? null }] : [];
    })
    .reverse();
}

/** Calls listed in a report at most (the server's page limit). */
export const REPORT_CALLS_LIMIT = 200;

export const profileReportKeys = {
  report: (id: number, kind: ReportKind) => ['profiles', 'detail', id, 'report', kind] as const,
};

export const listDocuments = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/documents`, { signal }).json<Document[]>();

export const getAml = (id: number, { signal }: Options = {}) =>
  api.get(`profile/${id}/aml`, { signal }).json<AmlResult>();

export const listCalls = (id: number, { signal }: Options = {}) =>
  api
    .get('videocall', { searchParams: { profile: id, limit: REPORT_CALLS_LIMIT }, signal })
    .json<Page<VideoCall>>();

/** The data of a report; the expanded one asks for AML only when the company's config turns it on. */
export async function loadReportData(
  id: number,
  kind: ReportKind,
  companyId: number,
  { signal }: Options = {},
): Promise<ReportData> {
  if (kind === 'basic') {
    const [profile, decisions] = await Promise.all([
      getProfile(id, { signal }),
      listDecisions(id, { signal }),
    ]);
    return { kind, profile, documents: [], aml: null, calls: [], notes: [], decisions };
  }
  const [profile, config, documents, calls, notes, decisions] = await Promise.all([
    getProfile(id, { signal }),
    getCompanyConfig(companyId, { signal }),
    listDocuments(id, { signal }),
    listCalls(id, { signal }),
    listNotes(id, { signal }),
    listDecisions(id, { signal }),
  ]);
  const aml = visibleTabs(config).includes('aml') ? await getAml(id, { signal }) : null;
  return { kind, profile, documents, aml, calls: calls.results, notes, decisions };
}

/** Image formats a PDF can embed as they are. */
export type EmbeddableFormat = 'JPEG' | 'PNG';

export interface ReportImage {
  bytes: Uint8Array;
  format: EmbeddableFormat;
}

/** The format of image bytes by their signature (the stored content type may not say it right). */
export function sniffImageFormat(bytes: Uint8Array): EmbeddableFormat | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'PNG';
  return null;
}

/**
 * The page images of the documents, by page id, for embedding. Signed addresses are absolute and need no
 * token. Pages in other formats (WebP), or whose image cannot be read, are left out; the report says so
 * where the image would be.
 */
export async function loadReportImages(
  documents: readonly Document[],
  { signal }: Options = {},
): Promise<Map<number, ReportImage>> {
  const pages = documents.flatMap((document) => document.pages);
  const loaded = await Promise.all(
    pages.map(async (page): Promise<[number, ReportImage] | null> => {
      try {
        const bytes = new Uint8Array(await publicApi().get(page.url, { prefix: '', signal }).arrayBuffer());
        const format = sniffImageFormat(bytes);
        return format ? [page.id, { bytes, format }] : null;
      } catch (error) {
        if (signal?.aborted) throw error;
        return null;
      }
    }),
  );
  return new Map(loaded.filter((entry) => entry !== null));
}
