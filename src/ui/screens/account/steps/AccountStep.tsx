import { Button, Intent } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAcceptablePassword } from '#contract/passwords';
import { checkConfirmation, checkEmail } from '../../../../machines/validation';
import { EmailField, NewPasswordFields, NO_NEW_PASSWORD } from '../../../components/CredentialFields';
import { useValidationText } from '../../../components/FieldMessage';
import { PasswordRules, passwordRulesIds } from '../../../components/PasswordRules';
import { useFormCheck } from '../../../components/useFormCheck';
import type { Send } from './shared';

/** The first step: the e-mail address and the password of the account. */
export function AccountStep({
  email: initialEmail,
  busy,
  send,
}: {
  email: string;
  busy: boolean;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const text = useValidationText();
  const [email, setEmail] = useState(initialEmail);
  const [fresh, setFresh] = useState(NO_NEW_PASSWORD);
  const { password } = fresh;
  const { failures, passes } = useFormCheck(() => ({
    email: checkEmail(email),
    password: password ? null : ('required' as const),
    rule: password && !isAcceptablePassword(password) ? ('password' as const) : null,
    confirmation: checkConfirmation(password, fresh.confirmation),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (passes()) send({ type: 'account.submitted', email, password });
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{t('account.intro')}</p>
      <EmailField
        id="signup-email"
        label={t('account.email')}
        message={text(failures.email)}
        autoComplete="email"
        autoFocus
        value={email}
        onValueChange={setEmail}
        disabled={busy}
      />
      <NewPasswordFields
        ids={{ password: 'signup-password', confirmation: 'signup-confirmation' }}
        labels={{ password: t('account.password'), confirmation: t('account.confirmation') }}
        messages={{
          password: text(failures.password ?? failures.rule),
          confirmation: text(failures.confirmation),
        }}
        value={fresh}
        onChange={setFresh}
        disabled={busy}
        describedBy={passwordRulesIds('signup-password')}
      >
        <PasswordRules password={password} idPrefix="signup-password" />
      </NewPasswordFields>
      <Button
        type="submit"
        intent={Intent.PRIMARY}
        fill
        icon="envelope"
        text={t('account.submit')}
        loading={busy}
      />
    </form>
  );
}
