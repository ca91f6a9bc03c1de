import { useTranslation } from 'react-i18next';
import { PASSWORD_RULE_DETAIL } from '#contract/passwords';

/** Server details of the admin paths that the studio translates; anything else is shown as received. */
const KNOWN: Record<string, string> = {
  'A user with this e-mail address already exists': 'duplicateEmail',
  'The company must keep at least one enabled admin': 'lastAdmin',
  'You cannot disable yourself': 'disableSelf',
  'Unknown group': 'unknownGroup',
  'This is not a valid phone number': 'invalidPhone',
  'A group with this name already exists': 'duplicateGroup',
  'Wrong password': 'wrongPassword',
  'This is not a valid e-mail address.': 'invalidEmail',
  'You do not have permission to perform this action': 'noPermission',
  [PASSWORD_RULE_DETAIL]: 'passwordRule',
};

export function useAdminErrorText(): (detail: string | null) => string | null {
  const { t } = useTranslation('admin');
  return (detail) => {
    if (!detail) return null;
    const key = KNOWN[detail];
    return key ? t(`errors.${key}` as 'errors.lastAdmin') : detail;
  };
}
