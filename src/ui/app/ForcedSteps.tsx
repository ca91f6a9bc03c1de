import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Account, accounts } from '../../services/accounts';
import { onAppEvent, settleAppEvent } from '../../services/appEvents';
import { ForcedPasswordResetDialog } from '../screens/auth/ForcedPasswordResetDialog';
import { ForcedTwoFactorDialog } from '../screens/auth/ForcedTwoFactorDialog';
import { showSuccess } from '../toaster';
import { reloadPage } from './reload';

type Forced = 'password' | 'twoFactor' | null;

/**
 * The forced steps while signed in (docs/product/errors.md#behaviour-by-status): a 400 "Password Reset Required" opens the reset-password dialog; a 400 "Two Factor
 * Reset Required" opens the two-factor setup, after whose success the session ends. Each opens once.
 */
export function ForcedSteps({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [forced, setForced] = useState<Forced>(null);
  useEffect(
    () =>
      onAppEvent((event) => {
        if (event.type === 'password-reset.required') setForced('password');
        if (event.type === 'two-factor-reset.required') setForced('twoFactor');
      }),
    [],
  );
  const close = useCallback(() => {
    settleAppEvent(forced === 'password' ? 'password-reset.required' : 'two-factor-reset.required');
    setForced(null);
  }, [forced]);
  const passwordChanged = useCallback(() => {
    close();
    void showSuccess(t('success.passwordChanged'));
  }, [close, t]);
  const twoFactorDone = useCallback(() => {
    settleAppEvent('two-factor-reset.required');
    accounts.logout();
    reloadPage();
  }, []);
  return (
    <>
      <ForcedPasswordResetDialog
        isOpen={forced === 'password'}
        email={account.email}
        onDone={passwordChanged}
        onCancel={close}
      />
      <ForcedTwoFactorDialog
        isOpen={forced === 'twoFactor'}
        setup={{ access: account.access, server: account.server, user_id: account.id }}
        onDone={twoFactorDone}
        onCancel={close}
      />
    </>
  );
}
