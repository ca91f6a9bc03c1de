/**
 * A refused document upload says why in the studio's language: the storage quota and the
 * upload limits have their own texts; any other refusal keeps the server's detail.
 */
import { renderHook } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { STORAGE_QUOTA_EXCEEDED, UPLOADS_AT_ONCE, UPLOADS_TOO_FAST } from '#contract/constants';
import { ApiError } from '../../src/services/api/http';
import { switchLanguage } from '../../src/services/i18n';
import { useFailureText } from '../../src/ui/screens/profile/documents/useDocumentAction';

afterAll(async () => {
  await switchLanguage('en-US');
});

describe('document upload refusals', () => {
  it.each([
    ['en-US', /storage quota is used up: the document was not uploaded/, /Wait a minute/, /still running/],
    ['tr', /depolama kotası doldu: belge yüklenmedi/, /Bir dakika bekleyip/, /hâlâ sürüyor/],
  ] as const)('are worded in %s', async (language, quota, tooFast, atOnce) => {
    await switchLanguage(language);
    const { result } = renderHook(() => useFailureText());
    const text = result.current;
    expect(text(new ApiError(413, STORAGE_QUOTA_EXCEEDED))).toMatch(quota);
    expect(text(new ApiError(429, UPLOADS_TOO_FAST))).toMatch(tooFast);
    expect(text(new ApiError(429, UPLOADS_AT_ONCE))).toMatch(atOnce);
    expect(text(new ApiError(400, 'Unsupported file type'))).toBe('Unsupported file type');
  });
});
