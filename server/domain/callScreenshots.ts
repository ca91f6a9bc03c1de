/**
 * Screenshots of the customer's video taken by the agent for the steps of a guided call: stored
 * with their SHA-256, listed and served to reviewers, and named by the step results they prove
 * (`details.screenshots`). A passed face, ID front, ID back or security-features step needs them.
 */
import { Readable } from 'node:stream';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { CALL_STATUS_TALKING } from '#contract/constants';
import { sniffContentType } from '#contract/documentRules';
import {
  type CallScreenshot,
  type CallStepFields,
  isScreenshotStep,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOTS_PER_CALL,
  SCREENSHOT_DETAILS,
  type ScreenshotStep,
  screenshotsNeeded,
} from '#contract/identProcedure';
import type { DbOrTx } from '../db/client';
import { videoCallScreenshots } from '../db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors';
import { newKey, type Storage } from '../storage/storage';
import { uploadAllowance } from './evidence';
import { iso } from './format';
import { lockCall, requireCall } from './videocalls/calls';

type ScreenshotRow = typeof videoCallScreenshots.$inferSelect;

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

export function toScreenshot(row: ScreenshotRow): CallScreenshot {
  return {
    id: row.id,
    call: row.callId,
    kind: row.kind as ScreenshotStep,
    content_type: row.contentType as CallScreenshot['content_type'],
    size: row.size,
    sha256: row.sha256,
    created_at: iso(row.createdAt),
    created_by: row.createdBy,
    deleted: row.storageKey === null,
  };
}

/**
 * The call's agent stores a screenshot for a step while the call is talking. The image must be a JPEG or PNG
 * by its first bytes (400), at most MAX_SCREENSHOT_BYTES (413) and within the company's storage quota (413).
 * Another company's call is 404; nothing is stored on any error.
 */
export async function storeScreenshot(
  db: DbOrTx,
  storage: Storage,
  shot: {
    companyId: number;
    callId: number;
    actorId: number;
    kind: ScreenshotStep;
    body: Buffer;
    quotaBytes: number;
  },
): Promise<CallScreenshot> {
  const call = await requireCall(db, shot.companyId, shot.callId);
  if (call.agentId !== shot.actorId) throw forbidden(SCREENSHOT_DETAILS.notAgent);
  if (call.status !== CALL_STATUS_TALKING) throw conflict(SCREENSHOT_DETAILS.notTalking);
  const contentType = sniffContentType(shot.body.subarray(0, 16));
  if (contentType !== 'image/jpeg' && contentType !== 'image/png')
    throw badRequest(SCREENSHOT_DETAILS.notAnImage);
  if (shot.body.length > MAX_SCREENSHOT_BYTES) throw new HttpError(413, SCREENSHOT_DETAILS.tooLarge);
  const taken = (tx: DbOrTx) =>
    tx.select({ n: count() }).from(videoCallScreenshots).where(eq(videoCallScreenshots.callId, shot.callId));
  // A cheap look first, so that a full call stores no file; the count that decides is the one below.
  if (((await taken(db))[0]?.n ?? 0) >= MAX_SCREENSHOTS_PER_CALL) throw conflict(SCREENSHOT_DETAILS.tooMany);
  const { maxBytes } = await uploadAllowance(db, shot.companyId, MAX_SCREENSHOT_BYTES, shot.quotaBytes);
  const key = newKey('screenshots', EXTENSIONS[contentType]);
  const stored = await storage.put(key, Readable.from([shot.body]), { maxBytes });
  try {
    // Counted and written under the call row's lock: screenshots sent at once cannot all pass the count.
    const [row] = await db.transaction(async (tx) => {
      await lockCall(tx, shot.callId);
      if (((await taken(tx))[0]?.n ?? 0) >= MAX_SCREENSHOTS_PER_CALL)
        throw conflict(SCREENSHOT_DETAILS.tooMany);
      return tx
        .insert(videoCallScreenshots)
        .values({
          callId: shot.callId,
          kind: shot.kind,
          storageKey: key,
          contentType,
          size: stored.size,
          sha256: stored.sha256,
          createdBy: shot.actorId,
        })
        .returning();
    });
    if (!row) throw new Error('insert returned no row');
    return toScreenshot(row);
  } catch (error) {
    await storage.remove(key);
    throw error;
  }
}

/** The screenshots of a call of the company, in the order they were taken (404 for another company's call). */
export async function callScreenshots(
  db: DbOrTx,
  companyId: number,
  callId: number,
): Promise<CallScreenshot[]> {
  await requireCall(db, companyId, callId);
  const rows = await screenshotRows(db, callId);
  return rows.map(toScreenshot);
}

/** The screenshot rows of a call, in the order they were taken. */
export function screenshotRows(db: DbOrTx, callId: number): Promise<ScreenshotRow[]> {
  return db
    .select()
    .from(videoCallScreenshots)
    .where(eq(videoCallScreenshots.callId, callId))
    .orderBy(asc(videoCallScreenshots.id));
}

/** One stored screenshot of a call of the company, or 404 (another call's, deleted by retention). */
export async function screenshotFile(
  db: DbOrTx,
  companyId: number,
  callId: number,
  shotId: number,
): Promise<ScreenshotRow & { storageKey: string }> {
  await requireCall(db, companyId, callId);
  const [row] = await db
    .select()
    .from(videoCallScreenshots)
    .where(and(eq(videoCallScreenshots.id, shotId), eq(videoCallScreenshots.callId, callId)));
  if (!row?.storageKey) throw notFound();
  return { ...row, storageKey: row.storageKey };
}

/**
 * The screenshots a step result names (`details.screenshots`) must be stored screenshots of this call taken for
 * that step (400 otherwise, naming the first that is not); a passed face, ID or security-features step needs
 * enough of them (`screenshotsNeeded`).
 */
export async function checkStepScreenshots(db: DbOrTx, callId: number, step: CallStepFields): Promise<void> {
  const named = step.details.screenshots;
  if (named !== undefined && !Array.isArray(named))
    throw badRequest('details.screenshots: a list of screenshot ids');
  const ids = Array.isArray(named) ? named : [];
  const bad = ids.find((id) => typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2 ** 31 - 1);
  if (bad !== undefined) throw badRequest(SCREENSHOT_DETAILS.notOfCall(bad, step.kind));
  const unique = [...new Set(ids as number[])];
  if (unique.length > 0) {
    const rows = await db
      .select({
        id: videoCallScreenshots.id,
        kind: videoCallScreenshots.kind,
        key: videoCallScreenshots.storageKey,
      })
      .from(videoCallScreenshots)
      .where(and(eq(videoCallScreenshots.callId, callId), inArray(videoCallScreenshots.id, unique)));
    const valid = new Set(rows.filter((r) => r.kind === step.kind && r.key !== null).map((r) => r.id));
    const foreign = unique.find((id) => !valid.has(id));
    if (foreign !== undefined) throw badRequest(SCREENSHOT_DETAILS.notOfCall(foreign, step.kind));
  }
  if (step.result !== 'passed' || !isScreenshotStep(step.kind)) return;
  const categories = step.details.categories;
  const needed = screenshotsNeeded(step.kind, Array.isArray(categories) ? categories.length : 0);
  if (unique.length < needed) throw badRequest(SCREENSHOT_DETAILS.needed(step.kind, needed));
}
