import { Button, Callout, Card, H4, Intent } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../../machines/failure';
import { checkConfirmation, checkPassword, checkRequired } from '../../../machines/validation';
import { changePassword } from '../../../services/api/users';
import { useValidationText } from '../../components/FieldMessage';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { showSuccess } from '../../toaster';

/** A new password with the current one (§5 rule); "Password successfully changed". */
export function PasswordCard({ userId }: { userId: number }) {
  const { t } = useTranslation('admin', { keyPrefix: 'settings' });
  const { t: tc } = useTranslation();
  const text = useValidationText();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { failures, passes, reset } = useFormCheck(() => ({
    current: checkRequired(current),
    next: checkPassword(next),
    confirmation: checkConfirmation(next, confirmation),
  }));
  const change = useMutation({
    mutationFn: () => changePassword(userId, { password: current, new_password: next }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirmation('');
      reset();
      void showSuccess(tc('success.passwordChanged'));
    },
  });
  const detail = change.isError ? failureOf(change.error).detail : null;
  return (
    <Card className="studio-settings-card">
      <H4>{t('password.title')}</H4>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (passes()) change.mutate();
        }}
      >
        {detail && (
          <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
            {detail === 'Wrong password' ? tc('messages.wrongPassword') : detail}
          </Callout>
        )}
        <TextField
          id="settings-current-password"
          label={t('password.current')}
          message={text(failures.current)}
          type="password"
          autoComplete="current-password"
          value={current}
          onValueChange={setCurrent}
        />
        <TextField
          id="settings-new-password"
          label={t('password.new')}
          message={text(failures.next)}
          type="password"
          autoComplete="new-password"
          value={next}
          onValueChange={setNext}
        />
        <TextField
          id="settings-confirm-password"
          label={t('password.confirm')}
          message={text(failures.confirmation)}
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onValueChange={setConfirmation}
        />
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          text={t('password.submit')}
          loading={change.isPending}
        />
      </form>
    </Card>
  );
}
