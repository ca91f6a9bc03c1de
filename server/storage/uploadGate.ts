import { STORAGE_QUOTA_EXCEEDED, UPLOADS_AT_ONCE, UPLOADS_TOO_FAST } from '#contract/constants';
import { type LimiterFactory, take } from '../auth/attemptLimiter';
import { HttpError } from '../errors';
import { FileTooLargeError } from './storage';

/** Thrown for an upload past the company's storage quota (COMPANY_STORAGE_QUOTA_GB). */
export class StorageQuotaError extends Error {
  constructor() {
    super(STORAGE_QUOTA_EXCEEDED);
  }
}

/** An upload's failure as the answer: 413 for a file over `tooLarge`'s limit or past the quota. */
export function uploadError(error: unknown, tooLarge: string): unknown {
  if (error instanceof StorageQuotaError) return new HttpError(413, STORAGE_QUOTA_EXCEEDED);
  const code = (error as { code?: string }).code;
  if (error instanceof FileTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE')
    return new HttpError(413, tooLarge);
  return error;
}

/**
 * Uploads per user: at most `perMinute` started in a minute and `atOnce` running at the
 * same time; past either, 429 with a detail (and Retry-After for the rate). The rate is counted by the shared
 * limiters (Redis when REDIS_URL is set); the uploads running at once are this process's own.
 */
export function createUploadGate(limits: { perMinute: number; atOnce: number }, limiters: LimiterFactory) {
  const rate = limiters('upload', limits.perMinute, 60);
  const running = new Map<number, number>();
  return {
    /** Lets user `userId` start an upload, or throws 429; the answer ends it (call it exactly once). */
    async enter(userId: number): Promise<() => void> {
      if ((running.get(userId) ?? 0) >= limits.atOnce) throw new HttpError(429, UPLOADS_AT_ONCE);
      const wait = await take(rate, String(userId));
      if (wait > 0) throw new HttpError(429, UPLOADS_TOO_FAST, { retry_after: wait });
      const now = running.get(userId) ?? 0;
      if (now >= limits.atOnce) throw new HttpError(429, UPLOADS_AT_ONCE);
      running.set(userId, now + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (running.get(userId) ?? 1) - 1;
        if (left <= 0) running.delete(userId);
        else running.set(userId, left);
      };
    },
  };
}
export type UploadGate = ReturnType<typeof createUploadGate>;
