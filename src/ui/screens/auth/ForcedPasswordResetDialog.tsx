import 'virtual:blueprint-pages.css';
import { Callout, DialogBody, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { PasswordResetForm } from './PasswordResetForm';

/** 400 "Password Reset Required": the reset-password dialog, opened once. */
export function ForcedPasswordResetDialog({
  isOpen,
  email,
  onDone,
  onCancel,
}: {
  isOpen: boolean;
  email: string;
  onDone: (email: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  return (
    <Dialog
      isOpen={isOpen}
      title={t('reset.forcedTitle')}
      icon="key"
      onClose={onCancel}
      canOutsideClickClose={false}
    >
      <DialogBody>
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('reset.forcedBody')}
        </Callout>
        {isOpen && <PasswordResetForm email={email} onDone={onDone} />}
      </DialogBody>
    </Dialog>
  );
}
