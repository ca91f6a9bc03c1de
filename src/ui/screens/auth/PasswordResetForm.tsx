import { Button, Callout, Intent } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '../../../machines/passwordReset.machine';
import { checkCode, checkConfirmation, checkEmail, checkPassword } from '../../../machines/validation';
import { sendResetCode, submitReset } from '../../../services/api/passwordReset';
import { useValidationText } from '../../components/FieldMessage';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';

/** E-mail → code → new password (§5 rules); used on /reset-password and in the forced reset dialog. */
export function PasswordResetForm({
  email: initialEmail,
  code: initialCode = '',
  onDone,
}: {
  email: string;
  /** A code from a link (an invitation): the form starts at the new password with it filled in. */
  code?: string;
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
          <p>{t('reset.codeSent', { email: context.email })}</p>
          <NewPasswordStep
            initialCode={initialCode}
            busy={busy}
            onSubmit={(code, password) => send({ type: 'reset.submitted', code, password })}
          />
          <div className="studio-form-actions">
            <Button
              variant="minimal"
              text={t('reset.changeEmail')}
              onClick={() => send({ type: 'email.change' })}
            />
            {state.matches({ enteringCode: 'resendable' }) || state.matches('resending') ? (
              <Button
                variant="minimal"
                icon="refresh"
                text={t('reset.resend')}
                loading={state.matches('resending')}
                onClick={() => send({ type: 'code.resend' })}
              />
            ) : (
              <span className="studio-muted" role="timer">
                {t('reset.resendIn', { seconds: context.countdown })}
              </span>
            )}
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
      <TextField
        id="reset-email"
        label={t('reset.email')}
        message={text(failures.email)}
        type="email"
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
  busy,
  onSubmit,
}: {
  initialCode: string;
  busy: boolean;
  onSubmit: (code: string, password: string) => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [code, setCode] = useState(initialCode);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { failures, passes } = useFormCheck(() => ({
    code: checkCode(code),
    password: checkPassword(password),
    confirmation: checkConfirmation(password, confirmation),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (passes()) onSubmit(code, password);
  };
  return (
    <form noValidate onSubmit={submit}>
      <TextField
        id="reset-code"
        label={t('reset.code')}
        message={text(failures.code)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        autoFocus
        value={code}
        onValueChange={setCode}
      />
      <TextField
        id="reset-password"
        label={t('reset.newPassword')}
        message={text(failures.password)}
        type="password"
        autoComplete="new-password"
        value={password}
        onValueChange={setPassword}
      />
      <TextField
        id="reset-confirm"
        label={t('reset.confirm')}
        message={text(failures.confirmation)}
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onValueChange={setConfirmation}
      />
      <Button type="submit" intent={Intent.PRIMARY} fill text={t('reset.submit')} loading={busy} />
    </form>
  );
}
