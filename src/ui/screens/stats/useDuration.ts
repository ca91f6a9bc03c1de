import { useTranslation } from 'react-i18next';
import { durationParts } from '../../../machines/statsFigures';

/** Seconds as text in the user's language ("4 min 12 s"), or a dash when there is no figure. */
export function useDuration(): (seconds: number | null) => string {
  const { t } = useTranslation('stats');
  return (seconds) => {
    const parts = durationParts(seconds);
    if (!parts) return t('duration.none');
    if (parts.kind === 'seconds') return t('duration.seconds', { s: parts.s });
    if (parts.kind === 'minutes') return t('duration.minutes', { m: parts.m, s: parts.s });
    return t('duration.hours', { h: parts.h, m: parts.m });
  };
}
