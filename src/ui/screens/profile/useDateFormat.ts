import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Formats ISO dates in the interface language. */
export function useDateFormat(
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
) {
  const { i18n } = useTranslation();
  const key = JSON.stringify(options);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the options are compared by value through `key`.
  const format = useMemo(() => new Intl.DateTimeFormat(i18n.language, options), [i18n.language, key]);
  return (value: string) => format.format(new Date(value));
}
