/**
 * Call recordings kept in the browser (IndexedDB) until the server confirms the upload (Video Upload
 * Error: nothing recorded is lost). A reload offers what is still here.
 */
import i18next from 'i18next';
import { createStore, del, get, set, values } from 'idb-keyval';
import {
  RECORDING_EXISTS,
  STORAGE_QUOTA_EXCEEDED,
  UPLOADS_AT_ONCE,
  UPLOADS_TOO_FAST,
} from '#contract/constants';
import type { UploadReport } from '../machines/recordingUpload.machine';

export interface KeptRecording {
  callId: number;
  profileId: number;
  /** The account the call belongs to (accountKey), so another account is not offered it. */
  account: string;
  blob: Blob;
  size: number;
  createdAt: string;
}

let store: ReturnType<typeof createStore> | null = null;
const recordings = () => {
  store ??= createStore('idv-studio-recordings', 'recordings');
  return store;
};

export async function keepRecording(recording: Omit<KeptRecording, 'size' | 'createdAt'>): Promise<void> {
  await set(
    recording.callId,
    { ...recording, size: recording.blob.size, createdAt: new Date().toISOString() },
    recordings(),
  );
}

export const keptRecording = (callId: number) => get<KeptRecording>(callId, recordings());

export async function pendingRecordings(account: string): Promise<KeptRecording[]> {
  const all = await values<KeptRecording>(recordings());
  return all.filter((r) => r.account === account).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export const forgetRecording = (callId: number) => del(callId, recordings());

/** Saves the recording as a file; false when the browser refused ("Browser denied file download"). */
export function downloadRecording(recording: Pick<KeptRecording, 'callId' | 'blob'>): boolean {
  try {
    const url = URL.createObjectURL(new Blob([recording.blob], { type: 'video/webm' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `call-${recording.callId}.webm`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return true;
  } catch {
    return false;
  }
}

/**
 * Uploads a kept recording with progress (the recordingUpload machine's `upload` actor); it leaves the
 * browser only once the server confirmed it. A failure reports the server's detail (e.g. "Size must be less
 * than 300MB") or "Video Upload Error".
 */
export function runRecordingUpload(options: {
  callId: number;
  upload: (
    blob: Blob,
    progress: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ) => Promise<unknown>;
  report: (event: UploadReport) => void;
}): () => void {
  const controller = new AbortController();
  void (async () => {
    const kept = await keptRecording(options.callId).catch(() => undefined);
    if (!kept) return options.report({ type: 'UPLOAD.FAILED', detail: VIDEO_UPLOAD_ERROR });
    try {
      await options.upload(kept.blob, {
        signal: controller.signal,
        onProgress: (fraction) => options.report({ type: 'UPLOAD.PROGRESS', fraction }),
      });
      await forgetRecording(options.callId);
      options.report({ type: 'UPLOAD.DONE' });
    } catch (error) {
      if (controller.signal.aborted) return;
      options.report({ type: 'UPLOAD.FAILED', detail: uploadRefusal(error) });
    }
  })();
  return () => controller.abort();
}

export const VIDEO_UPLOAD_ERROR = 'Video Upload Error';

/** Refusals whose reason the agent can act on, in the studio's language. */
const REFUSALS: Record<
  string,
  'upload.quotaExceeded' | 'upload.tooFast' | 'upload.atOnce' | 'upload.exists'
> = {
  [STORAGE_QUOTA_EXCEEDED]: 'upload.quotaExceeded',
  [UPLOADS_TOO_FAST]: 'upload.tooFast',
  [UPLOADS_AT_ONCE]: 'upload.atOnce',
  [RECORDING_EXISTS]: 'upload.exists',
};

/**
 * What a failed upload tells the agent: the storage quota, the upload limits and a recording already stored
 * in the studio's language; a recording too large with the server's text; anything else Video Upload Error.
 */
export function uploadRefusal(error: unknown): string {
  const { status, detail } = error as { status?: number; detail?: string };
  if (status === undefined || detail === undefined || ![409, 413, 429].includes(status))
    return VIDEO_UPLOAD_ERROR;
  const key = REFUSALS[detail];
  return key ? i18next.t(key, { ns: 'common' }) : status === 413 ? detail : VIDEO_UPLOAD_ERROR;
}
