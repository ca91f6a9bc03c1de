import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatsFor } from '../../../format';

/** Listed birth dates (`YYYY-MM-DD` or a bare year), country codes and score points, in the interface language. */
export function useAmlFormat() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const { day, country } = formatsFor(i18n.language);
    return {
      birthDate: (value: string) => (/^\d{4}$/.test(value) ? value : day(value)),
      country,
      points: (value: number) => (value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0'),
      percent: (value: number) => `${Math.round(value * 100)}%`,
    };
  }, [i18n.language]);
}
