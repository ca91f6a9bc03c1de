import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callKeys, getCallEntries } from '../../services/api/videocalls';

/** The language of a call's question texts for the interface language. */
export const callLang = (language: string) => (language.startsWith('tr') ? 'TR' : 'EN');

/**
 * A call's saved answers and notes with the question texts in the interface language; on a language change the
 * previous list shows until the new one is in (nothing blinks away).
 */
export function useCallEntries(callId: number) {
  const { i18n } = useTranslation();
  const lang = callLang(i18n.language);
  return useQuery({
    queryKey: callKeys.entries(callId, lang),
    queryFn: ({ signal }) => getCallEntries(callId, lang, { signal }),
    placeholderData: keepPreviousData,
  });
}
