/**
 * Call recordings kept in the browser (IndexedDB) until the server confirms the upload (§8 Video Upload
 * Error: nothing recorded is lost). A reload offers what is still here.
 */
import { createStore, del, get, set, values } from 'idb-keyval';
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

/** Saves the recording as a file; false when the browser refused (§8 Browser denied file download). */
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
      const detail =
        (error as { status?: number; detail?: string }).status === 413
          ? (error as { detail: string }).detail
          : VIDEO_UPLOAD_ERROR;
      options.report({ type: 'UPLOAD.FAILED', detail });
    }
  })();
  return () => controller.abort();
}

export const VIDEO_UPLOAD_ERROR = 'Video Upload Error';
