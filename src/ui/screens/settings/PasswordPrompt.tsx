import { DialogBody } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRequired } from '../../../machines/validation';
import { PasswordField } from '../../components/CredentialFields';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { useFormCheck } from '../../components/useFormCheck';

/**
 * Asks for the account password before a two-factor action (docs/product/validation.md); can be cancelled. The admin screen reuses
 * it for every administrative change, with its own `title` and `body`.
 */
export function PasswordPrompt({
  isOpen,
  busy,
  error,
  onConfirm,
  onCancel,
  title,
  body,
}: {
  isOpen: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: (password: string) => void;
  onCancel: () => void;
  title?: string;
  body?: string;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [password, setPassword] = useState('');
  const { failures, passes, reset } = useFormCheck(() => ({ password: checkRequired(password) }));
  const message = text(failures.password) ?? error ?? undefined;
  const close = () => {
    setPassword('');
    reset();
    onCancel();
  };
  return (
    <Dialog isOpen={isOpen} title={title ?? t('twoFactor.passwordTitle')} icon="lock" onClose={close}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!passes()) return;
          onConfirm(password);
          setPassword('');
          reset();
        }}
      >
        <DialogBody>
          <p>{body ?? t('twoFactor.passwordBody')}</p>
          <PasswordField
            id="two-factor-password"
            label={t('twoFactor.password')}
            message={message}
            autoComplete="current-password"
            autoFocus
            value={password}
            onValueChange={setPassword}
          />
        </DialogBody>
        <FormDialogFooter
          cancel={t('twoFactor.cancel')}
          onCancel={close}
          submit={t('twoFactor.confirm')}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
