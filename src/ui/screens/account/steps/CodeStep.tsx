import { Button, Classes, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkCode } from '../../../../machines/validation';
import { CodeField, ResendCode } from '../../../components/CredentialFields';
import { useValidationText } from '../../../components/FieldMessage';
import { useFormCheck } from '../../../components/useFormCheck';
import type { Send } from './shared';

/** The code e-mailed to the address of the first step. */
export function CodeStep({
  email,
  busy,
  countdown,
  canResend,
  resending,
  send,
}: {
  email: string;
  busy: boolean;
  countdown: number;
  canResend: boolean;
  resending: boolean;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const text = useValidationText();
  const [code, setCode] = useState('');
  const { failures, passes } = useFormCheck(() => ({ code: checkCode(code) }));
  const message =
    failures.code === 'code' ? t('code.invalid') : failures.code ? text(failures.code) : undefined;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (passes()) send({ type: 'code.submitted', code });
      }}
    >
      <p>{t('code.sent', { email })}</p>
      <CodeField
        id="signup-code"
        label={t('code.label')}
        subLabel={t('code.help')}
        message={message}
        value={code}
        onValueChange={setCode}
        disabled={busy && !resending}
      />
      <div className="studio-form-actions">
        <Button
          variant="minimal"
          icon="arrow-left"
          text={t('code.changeEmail')}
          onClick={() => send({ type: 'back' })}
        />
        <Button type="submit" intent={Intent.PRIMARY} text={t('code.submit')} loading={busy && !resending} />
      </div>
      <div className="studio-signup-resend">
        <ResendCode
          available={canResend}
          resending={resending}
          label={t('code.resend')}
          waiting={t('code.resendIn', { count: countdown })}
          className={Classes.TEXT_MUTED}
          onResend={() => send({ type: 'code.resend' })}
        />
      </div>
      <p className={Classes.TEXT_MUTED}>{t('code.notReceived')}</p>
    </form>
  );
}
