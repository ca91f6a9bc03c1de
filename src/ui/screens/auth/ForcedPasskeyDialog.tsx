import 'virtual:blueprint-pages.css';
import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { TwoFactorSetupSession } from '../../../machines/session.machine';
import { registerPasskey } from '../../../services/api/passkeys';
import { studioConfig } from '../../../services/config';
import { PasskeyDialog } from '../settings/PasskeyDialog';

/**
 * 400 "Passkey Registration Required" at sign-in: the company requires passkeys and the user has
 * none. The restricted session the server gave registers one (with the password just typed); then the user
 * signs in again with it.
 */
export function ForcedPasskeyDialog({
  isOpen,
  setup,
  password,
  onDone,
  onCancel,
}: {
  isOpen: boolean;
  setup: TwoFactorSetupSession | null;
  password: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  return (
    <PasskeyDialog
      isOpen={isOpen}
      title={t('passkeys.forcedTitle')}
      askPassword={false}
      intro={
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('passkeys.forcedBody')}
        </Callout>
      }
      onRegister={async (name) => {
        if (!setup) throw new Error('no setup session');
        await registerPasskey(
          { name, password },
          { session: { server: setup.server ?? studioConfig().loginHost, token: setup.access } },
        );
        onDone();
      }}
      onCancel={onCancel}
    />
  );
}
