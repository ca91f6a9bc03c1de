import { useTranslation } from 'react-i18next';
import type { ProfileStatus, RiskLevel } from '#contract/constants';
import { useProfileLabels } from '../../components/profileLabels';

/** Shown values of the conflict dialog's profile fields: statuses, risk levels and genders translated. */
export function useProfileValueFormat() {
  const labels = useProfileLabels();
  const { t } = useTranslation('profile');
  return (field: string, value: string): string => {
    if (field === 'status') return labels.status(value as ProfileStatus);
    if (field === 'risk_level') return labels.risk(value as RiskLevel);
    if (field === 'gender') return t(`edit.genders.${value}` as 'edit.genders.none', { defaultValue: value });
    return value;
  };
}
