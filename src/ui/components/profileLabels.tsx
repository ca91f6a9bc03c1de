import { Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '../../contract/constants';

export { PROFILE_STATUSES, RISK_LEVELS };

/** The genders the studio offers (stored as these values). */
export const GENDERS = ['female', 'male', 'other'] as const;

/** Translation keys of the §4 customer statuses and risk levels (their values hold dots and spaces). */
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

export function useProfileLabels() {
  const { t } = useTranslation('profile');
  return {
    status: (status: ProfileStatus) => t(`profileStatus.${STATUS_KEYS[status]}`),
    risk: (risk: RiskLevel) => t(`riskLevel.${RISK_KEYS[risk]}`),
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
