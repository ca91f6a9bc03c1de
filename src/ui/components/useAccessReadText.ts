import { useTranslation } from 'react-i18next';
import type { AccessEntry } from '#contract/privacy';

/**
 * What an access-log entry says was done: "Opened the profile", or "Opened the profile, 4 times within the
 * second" for identical reads the log keeps as one entry with their count.
 */
export function useAccessReadText(): (read: Pick<AccessEntry, 'kind' | 'count'>) => string {
  const { t } = useTranslation('profile');
  return (read) => {
    const what = t(`privacy.kinds.${read.kind}`);
    return read.count > 1 ? t('privacy.repeated', { what, count: read.count }) : what;
  };
}
