/**
 * Uploading a call's recording (PATCH /videocall/{id}, at most 300 MB). The recording stays in the browser
 * until the server confirms it; a failure shows "Video Upload Error" with Try Again and Download File (docs/product/errors.md).
 * Pure: the upload (with progress) and the download come in through `provide`.
 */
import { assign, fromCallback, setup } from 'xstate';

export type UploadReport =
  | { type: 'UPLOAD.PROGRESS'; fraction: number }
  | { type: 'UPLOAD.DONE' }
  | { type: 'UPLOAD.FAILED'; detail: string };

export type RecordingUploadEvent = UploadReport | { type: 'RETRY' } | { type: 'DOWNLOAD' };

export interface RecordingUploadContext {
  callId: number;
  /** 0..1 */
  progress: number;
  error: string | null;
}

export const recordingUploadMachine = setup({
  types: {
    context: {} as RecordingUploadContext,
    events: {} as RecordingUploadEvent,
    input: {} as { callId: number },
  },
  actors: {
    /** Uploads the kept recording and reports UPLOAD.PROGRESS, then UPLOAD.DONE or UPLOAD.FAILED. */
    upload: fromCallback<RecordingUploadEvent, { callId: number }>(() => {
      throw new Error('upload is provided by the app');
    }),
  },
  actions: {
    /** Saves the kept recording as a file ("Browser denied file download" when refused). */
    download: (_, _callId: number) => {},
  },
}).createMachine({
  id: 'recordingUpload',
  context: ({ input }) => ({ callId: input.callId, progress: 0, error: null }),
  initial: 'uploading',
  states: {
    uploading: {
      entry: assign({ progress: 0, error: null }),
      invoke: { src: 'upload', id: 'upload', input: ({ context }) => ({ callId: context.callId }) },
      on: {
        'UPLOAD.PROGRESS': { actions: assign(({ event }) => ({ progress: event.fraction })) },
        'UPLOAD.DONE': { target: 'done', actions: assign({ progress: 1 }) },
        'UPLOAD.FAILED': { target: 'failed', actions: assign(({ event }) => ({ error: event.detail })) },
      },
    },
    failed: {
      on: {
        RETRY: { target: 'uploading' },
        DOWNLOAD: { actions: { type: 'download', params: ({ context }) => context.callId } },
      },
    },
    done: { type: 'final' },
  },
});
