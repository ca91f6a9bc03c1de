import { Button, Callout, Card, H4, Intent } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../../machines/failure';
import { checkConfirmation, checkPassword, checkRequired } from '../../../machines/validation';
import { changePassword } from '../../../services/api/users';
import { NewPasswordFields, NO_NEW_PASSWORD, PasswordField } from '../../components/CredentialFields';
import { useValidationText } from '../../components/FieldMessage';
import { PasswordRules, passwordRulesIds } from '../../components/PasswordRules';
import { useFormCheck } from '../../components/useFormCheck';
import { showSuccess } from '../../toaster';

/** A new password with the current one (docs/product/validation.md#passwords); "Password successfully changed". */
export function PasswordCard({ userId }: { userId: number }) {
  const { t } = useTranslation('admin', { keyPrefix: 'settings' });
  const { t: tc } = useTranslation();
  const text = useValidationText();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState(NO_NEW_PASSWORD);
  const { failures, passes, reset } = useFormCheck(() => ({
    current: checkRequired(current),
    next: checkPassword(next.password),
    confirmation: checkConfirmation(next.password, next.confirmation),
  }));
  const change = useMutation({
    mutationFn: () => changePassword(userId, { password: current, new_password: next.password }),
    onSuccess: () => {
      setCurrent('');
      setNext(NO_NEW_PASSWORD);
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
        <PasswordField
          id="settings-current-password"
          label={t('password.current')}
          message={text(failures.current)}
          autoComplete="current-password"
          value={current}
          onValueChange={setCurrent}
        />
        <NewPasswordFields
          ids={{ password: 'settings-new-password', confirmation: 'settings-confirm-password' }}
          labels={{ password: t('password.new'), confirmation: t('password.confirm') }}
          messages={{ password: text(failures.next), confirmation: text(failures.confirmation) }}
          value={next}
          onChange={setNext}
          describedBy={passwordRulesIds('settings-new-password')}
        >
          <PasswordRules password={next.password} idPrefix="settings-new-password" />
        </NewPasswordFields>
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
