import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { UploadReport } from '../../../src/machines/recordingUpload.machine';
import {
  forgetRecording,
  keepRecording,
  keptRecording,
  pendingRecordings,
  runRecordingUpload,
  uploadRefusal,
} from '../../../src/services/recordings';

const webm = (text: string) => new Blob([text], { type: 'video/webm' });

/** Runs an upload to its end and returns what it reported. */
function upload(callId: number, send: (blob: Blob, onProgress: (f: number) => void) => Promise<unknown>) {
  return new Promise<UploadReport[]>((resolve) => {
    const reports: UploadReport[] = [];
    runRecordingUpload({
      callId,
      upload: (blob, { onProgress }) => send(blob, onProgress),
      report: (event) => {
        reports.push(event);
        if (event.type !== 'UPLOAD.PROGRESS') resolve(reports);
      },
    });
  });
}

describe('recordings kept in the browser', () => {
  it('keeps recordings per account until they are forgotten', async () => {
    await keepRecording({ callId: 1, profileId: 10, account: 'a', blob: webm('one') });
    await keepRecording({ callId: 2, profileId: 20, account: 'b', blob: webm('two') });
    expect((await pendingRecordings('a')).map((r) => [r.callId, r.size])).toEqual([[1, 3]]);
    expect(await (await keptRecording(2))?.blob.text()).toBe('two');
    await forgetRecording(1);
    expect(await pendingRecordings('a')).toEqual([]);
  });

  it('forgets a recording only once the server has it; a failure keeps it for another try', async () => {
    await keepRecording({ callId: 3, profileId: 30, account: 'a', blob: webm('three') });
    const failed = await upload(3, async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(failed).toEqual([{ type: 'UPLOAD.FAILED', detail: 'Video Upload Error' }]);
    expect(await keptRecording(3)).toBeDefined();

    const tooLarge = await upload(3, async () => {
      throw Object.assign(new Error('413'), { status: 413, detail: 'Size must be less than 300MB' });
    });
    expect(tooLarge).toEqual([{ type: 'UPLOAD.FAILED', detail: 'Size must be less than 300MB' }]);

    const sent: string[] = [];
    const done = await upload(3, async (blob, onProgress) => {
      sent.push(await blob.text());
      onProgress(0.5);
      onProgress(1);
    });
    expect(sent).toEqual(['three']);
    expect(done).toEqual([
      { type: 'UPLOAD.PROGRESS', fraction: 0.5 },
      { type: 'UPLOAD.PROGRESS', fraction: 1 },
      { type: 'UPLOAD.DONE' },
    ]);
    expect(await keptRecording(3)).toBeUndefined();
  });

  it('says Video Upload Error when nothing is kept for the call', async () => {
    expect(await upload(404, async () => undefined)).toEqual([
      { type: 'UPLOAD.FAILED', detail: 'Video Upload Error' },
    ]);
  });
});

describe('an upload the server refuses', () => {
  it('tells the agent the quota, the upload limits or a stored recording in the studio language', async () => {
    const { default: i18next } = await import('i18next');
    const { readFileSync } = await import('node:fs');
    const common = (lng: string) => JSON.parse(readFileSync(`locales/${lng}/common.json`, 'utf8'));
    const instance = i18next;
    await instance.init({
      lng: 'tr',
      resources: { tr: { common: common('tr') }, 'en-US': { common: common('en-US') } },
      defaultNS: 'common',
    });
    const refusal = (status: number, detail: string) =>
      uploadRefusal(Object.assign(new Error(detail), { status, detail }));
    expect(refusal(413, "Your company's storage quota is used up")).toBe(common('tr').upload.quotaExceeded);
    expect(refusal(429, 'Too many uploads, try again later')).toBe(common('tr').upload.tooFast);
    expect(refusal(429, 'Too many uploads at once, wait for one to finish')).toBe(common('tr').upload.atOnce);
    expect(refusal(409, 'The call already has a recording')).toBe(common('tr').upload.exists);
    await instance.changeLanguage('en-US');
    expect(refusal(413, "Your company's storage quota is used up")).toMatch(/storage quota is used up/);
    expect(refusal(413, 'Size must be less than 300MB')).toBe('Size must be less than 300MB');
    expect(refusal(500, 'An error occured')).toBe('Video Upload Error');
    expect(uploadRefusal(new TypeError('Failed to fetch'))).toBe('Video Upload Error');
  });
});
