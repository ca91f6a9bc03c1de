import { useTranslation } from 'react-i18next';
import type { Role } from '#contract/constants';

const ROLE_KEYS = { Admin: 'admin', User: 'user', 'Restricted User': 'restricted' } as const;

/** A role's name in the interface language. */
export function useRoleLabel(): (role: Role) => string {
  const { t } = useTranslation('admin');
  return (role) => t(`roles.${ROLE_KEYS[role]}`);
}
