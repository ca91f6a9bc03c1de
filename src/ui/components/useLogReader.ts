import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogReader, Translate } from '#contract/logText';

/**
 * The reader of logged events: i18next's `t` over the namespaces their sentences and
 * labels live in, and the UI's language. Re-renders with a language change, so logs follow it.
 */
export function useLogReader(): LogReader {
  const { t, i18n } = useTranslation(['logs', 'profile', 'calls', 'documents', 'admin']);
  return useMemo(() => ({ t: t as unknown as Translate, language: i18n.language }), [t, i18n.language]);
}
