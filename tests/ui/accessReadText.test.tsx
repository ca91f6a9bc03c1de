/**
 * An access-log entry that stands for identical reads within one second says how many, in both languages; a single
 * read reads as before.
 */
import { renderHook } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { switchLanguage } from '../../src/services/i18n';
import { useAccessReadText } from '../../src/ui/components/useAccessReadText';

afterAll(async () => {
  await switchLanguage('en-US');
});

describe('the text of an access-log entry', () => {
  it('names the read, and the count when it stands for several', async () => {
    await switchLanguage('en-US');
    const english = renderHook(() => useAccessReadText()).result.current;
    expect(english({ kind: 'profile_viewed', count: 1 })).toBe('Opened the profile');
    expect(english({ kind: 'document_page_viewed', count: 4 })).toBe(
      'Viewed a document page, 4 times within the second',
    );

    await switchLanguage('tr');
    const turkish = renderHook(() => useAccessReadText()).result.current;
    expect(turkish({ kind: 'profile_viewed', count: 1 })).toBe('Profili açtı');
    expect(turkish({ kind: 'profile_viewed', count: 12 })).toBe('Profili açtı, aynı saniye içinde 12 kez');
  });
});
