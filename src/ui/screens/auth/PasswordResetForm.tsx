import { Button, Callout, Intent } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '../../../machines/passwordReset.machine';
import { checkCode, checkConfirmation, checkEmail, checkPassword } from '../../../machines/validation';
import { sendResetCode, submitReset } from '../../../services/api/passwordReset';
import {
  CodeField,
  EmailField,
  NewPasswordFields,
  NO_NEW_PASSWORD,
  ResendCode,
} from '../../components/CredentialFields';
import { useValidationText } from '../../components/FieldMessage';
import { PasswordRules, passwordRulesIds } from '../../components/PasswordRules';
import { useFormCheck } from '../../components/useFormCheck';

/** E-mail → code → new password (docs/product/validation.md#passwords); used on /reset-password and in the forced reset dialog. */
export function PasswordResetForm({
  email: initialEmail,
  code: initialCode = '',
  invitation = false,
  onDone,
}: {
  email: string;
  /** A code from a link (an invitation): the form starts at the new password with it filled in. */
  code?: string;
  /** A new user's first password (the invitation link): worded as setting it, not changing it. */
  invitation?: boolean;
  onDone: (email: string) => void;
}) {
  const { t } = useTranslation('auth');
  const machine = useMemo(
    () =>
      passwordResetMachine.provide({
        actors: {
          sendCode: fromPromise(({ input, signal }) => sendResetCode(input, { signal })),
          submitReset: fromPromise(({ input, signal }) => submitReset(input, { signal })),
        },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { email: initialEmail } });
  const { context } = state;
  const busy = state.hasTag('busy');

  useEffect(() => {
    if (initialCode && initialEmail) send({ type: 'code.received', email: initialEmail });
  }, [initialCode, initialEmail, send]);

  useEffect(() => {
    if (state.status === 'done') onDone(context.email);
  }, [state.status, context.email, onDone]);

  return (
    <div>
      {context.error && (
        <Callout intent={Intent.DANGER} icon="error" className="studio-auth-callout" role="alert">
          {context.error}
        </Callout>
      )}
      {state.matches('enteringEmail') || state.matches('sending') ? (
        <EmailStep
          initialEmail={context.email}
          busy={busy}
          onSubmit={(email) => send({ type: 'email.submitted', email })}
        />
      ) : (
        <>
          <p>
            {invitation
              ? t('invitation.intro', { email: context.email })
              : t('reset.codeSent', { email: context.email })}
          </p>
          <NewPasswordStep
            initialCode={initialCode}
            submitLabel={invitation ? t('invitation.submit') : t('reset.submit')}
            busy={busy}
            onSubmit={(code, password) => send({ type: 'reset.submitted', code, password })}
          />
          <div className="studio-form-actions">
            <Button
              variant="minimal"
              text={t('reset.changeEmail')}
              onClick={() => send({ type: 'email.change' })}
            />
            <ResendCode
              available={state.matches({ enteringCode: 'resendable' })}
              resending={state.matches('resending')}
              label={t('reset.resend')}
              waiting={t('reset.resendIn', { seconds: context.countdown })}
              className="studio-muted"
              onResend={() => send({ type: 'code.resend' })}
            />
          </div>
        </>
      )}
    </div>
  );
}

function EmailStep({
  initialEmail,
  busy,
  onSubmit,
}: {
  initialEmail: string;
  busy: boolean;
  onSubmit: (email: string) => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [email, setEmail] = useState(initialEmail);
  const { failures, passes } = useFormCheck(() => ({ email: checkEmail(email) }));
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (passes()) onSubmit(email);
      }}
    >
      <p>{t('reset.intro')}</p>
      <EmailField
        id="reset-email"
        label={t('reset.email')}
        message={text(failures.email)}
        autoComplete="username"
        autoFocus
        value={email}
        onValueChange={setEmail}
      />
      <Button type="submit" intent={Intent.PRIMARY} fill text={t('reset.send')} loading={busy} />
    </form>
  );
}

function NewPasswordStep({
  initialCode,
  submitLabel,
  busy,
  onSubmit,
}: {
  initialCode: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (code: string, password: string) => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [code, setCode] = useState(initialCode);
  const [fresh, setFresh] = useState(NO_NEW_PASSWORD);
  const { failures, passes } = useFormCheck(() => ({
    code: checkCode(code),
    password: checkPassword(fresh.password),
    confirmation: checkConfirmation(fresh.password, fresh.confirmation),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (passes()) onSubmit(code, fresh.password);
  };
  return (
    <form noValidate onSubmit={submit}>
      <CodeField
        id="reset-code"
        label={t('reset.code')}
        message={text(failures.code)}
        value={code}
        onValueChange={setCode}
      />
      <NewPasswordFields
        ids={{ password: 'reset-password', confirmation: 'reset-confirm' }}
        labels={{ password: t('reset.newPassword'), confirmation: t('reset.confirm') }}
        messages={{ password: text(failures.password), confirmation: text(failures.confirmation) }}
        value={fresh}
        onChange={setFresh}
        describedBy={passwordRulesIds('reset-password')}
      >
        <PasswordRules password={fresh.password} idPrefix="reset-password" />
      </NewPasswordFields>
      <Button type="submit" intent={Intent.PRIMARY} fill text={submitLabel} loading={busy} />
    </form>
  );
}
