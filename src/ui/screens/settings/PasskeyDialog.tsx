import { Callout, DialogBody, Intent } from '@blueprintjs/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PASSKEY_NAME } from '#contract/passkeys';
import { checkLength, checkRequired } from '../../../machines/validation';
import { isApiError } from '../../../services/api/http';
import { PasswordField } from '../../components/CredentialFields';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';

/**
 * Registers a passkey of this device: its name (and the account password, unless the forced
 * registration already has it), then the browser's ceremony. The server's detail, or "could not be used"
 * when the browser's ceremony fails or is cancelled, stays in the dialog with what was typed.
 */
export function PasskeyDialog({
  isOpen,
  title,
  intro,
  askPassword,
  onRegister,
  onCancel,
}: {
  isOpen: boolean;
  title: string;
  intro: ReactNode;
  askPassword: boolean;
  onRegister: (name: string, password: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { failures, passes } = useFormCheck(() => ({
    name: checkLength(name, 1, MAX_PASSKEY_NAME),
    password: askPassword ? checkRequired(password) : null,
  }));
  const submit = async () => {
    if (!passes()) return;
    setBusy(true);
    setError(null);
    try {
      await onRegister(name.trim(), password);
      setName('');
    } catch (failure) {
      setError(
        isApiError(failure) && failure.status === 400 && failure.detail !== 'Passkey Not Accepted'
          ? failure.detail
          : t('passkeys.failed'),
      );
    } finally {
      setPassword('');
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen={isOpen} title={title} icon="key" onClose={onCancel} canOutsideClickClose={false}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          {intro}
          {error && (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
              {error}
            </Callout>
          )}
          <TextField
            id="passkey-name"
            label={t('passkeys.name')}
            placeholder={t('passkeys.namePlaceholder')}
            message={text(failures.name)}
            maxLength={MAX_PASSKEY_NAME}
            autoFocus
            value={name}
            onValueChange={setName}
            disabled={busy}
          />
          {askPassword && (
            <PasswordField
              id="passkey-password"
              label={t('twoFactor.password')}
              message={text(failures.password)}
              autoComplete="current-password"
              value={password}
              onValueChange={setPassword}
              disabled={busy}
            />
          )}
        </DialogBody>
        <FormDialogFooter
          cancel={t('twoFactor.cancel')}
          onCancel={onCancel}
          submit={t('passkeys.add')}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
