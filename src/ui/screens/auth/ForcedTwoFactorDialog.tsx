import 'virtual:blueprint-pages.css';
import { Callout, DialogBody, Intent } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorSetupSession } from '../../../machines/session.machine';
import { loadChunk } from '../../../services/chunks';
import { studioConfig } from '../../../services/config';
import { Dialog } from '../../components/Dialog';

const TwoFactorPanel = lazy(() =>
  loadChunk(() => import('../settings/TwoFactorPanel')).then((module) => ({
    default: module.TwoFactorPanel,
  })),
);

/**
 * 400 "Two Factor Reset Required" at sign-in: the two-factor setup with the restricted session the server
 * gave; when it succeeds that session ends and the user signs in again with a code.
 */
export function ForcedTwoFactorDialog({
  isOpen,
  setup,
  onDone,
  onCancel,
}: {
  isOpen: boolean;
  setup: TwoFactorSetupSession | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  return (
    <Dialog
      isOpen={isOpen}
      title={t('twoFactor.forcedTitle')}
      icon="shield"
      onClose={onCancel}
      canOutsideClickClose={false}
    >
      <DialogBody>
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('twoFactor.forcedBody')}
        </Callout>
        {isOpen && setup?.user_id != null ? (
          <Suspense fallback={<div className="studio-loading-bar" />}>
            <TwoFactorPanel
              userId={setup.user_id}
              mfa={false}
              forced
              session={{ server: setup.server ?? studioConfig().loginHost, token: setup.access }}
              onCompleted={onDone}
            />
          </Suspense>
        ) : (
          isOpen && (
            <Callout intent={Intent.DANGER} icon="error" role="alert">
              {tc('messages.error')}
            </Callout>
          )
        )}
      </DialogBody>
    </Dialog>
  );
}
