import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import {
  type RecordingUploadEvent,
  recordingUploadMachine,
} from '../../../src/machines/recordingUpload.machine';
import { modelCases } from './modelPaths';

const events = [
  { type: 'UPLOAD.PROGRESS', fraction: 0.5 },
  { type: 'UPLOAD.DONE' },
  { type: 'UPLOAD.FAILED', detail: 'Video Upload Error' },
  { type: 'RETRY' },
  { type: 'DOWNLOAD' },
] as const;

function sut() {
  const starts: number[] = [];
  const downloads: number[] = [];
  let report: (event: RecordingUploadEvent) => void = () => {};
  const actor = createActor(
    recordingUploadMachine.provide({
      actors: {
        upload: fromCallback<RecordingUploadEvent, { callId: number }>(({ input, sendBack }) => {
          starts.push(input.callId);
          report = sendBack;
        }),
      },
      actions: { download: (_, callId) => downloads.push(callId) },
    }),
    { input: { callId: 4 } },
  );
  return { actor, starts, downloads, report: (e: RecordingUploadEvent) => report(e) };
}

describe('recording upload machine', () => {
  it('reaches every state of its model', () => {
    const cases = modelCases(recordingUploadMachine, { events: events as never, input: { callId: 4 } });
    const reached = new Set(cases.map((c) => c.steps.at(-1)?.state.value));
    for (const state of ['uploading', 'failed', 'done']) expect(reached.has(state), state).toBe(true);
  });

  it('reports progress, offers Try Again and Download File on failure, and finishes', () => {
    const { actor, starts, downloads, report } = sut();
    actor.start();
    report({ type: 'UPLOAD.PROGRESS', fraction: 0.4 });
    expect(actor.getSnapshot().context.progress).toBe(0.4);
    report({ type: 'UPLOAD.FAILED', detail: 'Video Upload Error' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Video Upload Error');
    actor.send({ type: 'DOWNLOAD' });
    expect(downloads).toEqual([4]);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().context).toMatchObject({ progress: 0, error: null });
    expect(starts).toEqual([4, 4]);
    report({ type: 'UPLOAD.DONE' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
