import { Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '#contract/constants';
import { formatsFor } from '../format';

export { PROFILE_STATUSES, RISK_LEVELS };

/** The genders the studio offers (stored as these values). */
export const GENDERS = ['female', 'male', 'other'] as const;

/** Translation keys of the customer statuses and risk levels (docs/product/states.md) (their values hold dots and spaces). */
const STATUS_KEYS = {
  Created: 'created',
  Incomplete: 'incomplete',
  'Pending Upload': 'pendingUpload',
  'Pending Review': 'pendingReview',
  'Pending Approval': 'pendingApproval',
  'Temporarily Approved': 'temporarilyApproved',
  'Temp. Approval Expired': 'tempApprovalExpired',
  Approved: 'approved',
  Rejected: 'rejected',
  Blacklisted: 'blacklisted',
  Inactive: 'inactive',
} as const satisfies Record<ProfileStatus, string>;

const RISK_KEYS = {
  'Very High': 'veryHigh',
  High: 'high',
  Normal: 'normal',
  Mid: 'mid',
  Low: 'low',
  Unknown: 'unknown',
} as const satisfies Record<RiskLevel, string>;

const STATUS_INTENTS: Record<ProfileStatus, Intent> = {
  Created: Intent.NONE,
  Incomplete: Intent.NONE,
  'Pending Upload': Intent.WARNING,
  'Pending Review': Intent.WARNING,
  'Pending Approval': Intent.WARNING,
  'Temporarily Approved': Intent.PRIMARY,
  'Temp. Approval Expired': Intent.WARNING,
  Approved: Intent.SUCCESS,
  Rejected: Intent.DANGER,
  Blacklisted: Intent.DANGER,
  Inactive: Intent.NONE,
};

const RISK_INTENTS: Record<RiskLevel, Intent> = {
  'Very High': Intent.DANGER,
  High: Intent.DANGER,
  Normal: Intent.PRIMARY,
  Mid: Intent.WARNING,
  Low: Intent.SUCCESS,
  Unknown: Intent.NONE,
};

/** Stored gender values (the studio's own and the one-letter codes of imports and the seed) by their label key. */
const GENDER_KEYS: Record<string, (typeof GENDERS)[number]> = {
  female: 'female',
  f: 'female',
  male: 'male',
  m: 'male',
  other: 'other',
  x: 'other',
};

export function useProfileLabels() {
  const { t, i18n } = useTranslation('profile');
  const language = i18n.language;
  return {
    status: (status: ProfileStatus) => t(`profileStatus.${STATUS_KEYS[status]}`),
    risk: (risk: RiskLevel) => t(`riskLevel.${RISK_KEYS[risk]}`),
    /** A gender by name in the interface language; a value it does not know as it is. */
    gender: (value: string) => {
      const key = GENDER_KEYS[value.trim().toLowerCase()];
      return key ? t(`edit.genders.${key}`) : value;
    },
    /** A country (ISO 3166 code) by name in the interface language; anything else as it is. */
    country: (code: string) => formatsFor(language).country(code),
  };
}

export function StatusTag({ status }: { status: ProfileStatus }) {
  const labels = useProfileLabels();
  return (
    <Tag intent={STATUS_INTENTS[status]} minimal round>
      {labels.status(status)}
    </Tag>
  );
}

export function RiskTag({ risk }: { risk: RiskLevel }) {
  const labels = useProfileLabels();
  return (
    <Tag intent={RISK_INTENTS[risk]} minimal>
      {labels.risk(risk)}
    </Tag>
  );
}
