import { Button, Callout, Intent, Tag } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { twoFactorMachine } from '../../../machines/twoFactor.machine';
import { checkCode } from '../../../machines/validation';
import { ApiError } from '../../../services/api/http';
import { otpauthUri, resetOtp, type Session, verifyOtp } from '../../../services/api/users';
import { CodeField } from '../../components/CredentialFields';
import { useValidationText } from '../../components/FieldMessage';
import { useFormCheck } from '../../components/useFormCheck';
import { PasswordPrompt } from './PasswordPrompt';
import { QrCode } from './QrCode';

/**
 * The two-factor panel (docs/product/screens.md): enabled (Disable 2FA), QR code with code entry (Verify), or not started (Get QR
 * Code). `forced` is the setup a 400 "Two Factor Reset Required" asks for, with its restricted `session`.
 */
export function TwoFactorPanel({
  userId,
  email = '',
  mfa,
  forced = false,
  session,
  onRefresh = async () => {},
  onCompleted = () => {},
}: {
  userId: number;
  email?: string;
  mfa: boolean;
  forced?: boolean;
  session?: Session;
  onRefresh?: () => Promise<unknown>;
  onCompleted?: () => void;
}) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const machine = useMemo(
    () =>
      twoFactorMachine.provide({
        actors: {
          requestSecret: fromPromise(async ({ input, signal }) => {
            const secret = await resetOtp(
              userId,
              { password: input.password, disable: false },
              { signal, session },
            );
            if (!secret) throw new ApiError(0, 'No secret');
            return secret;
          }),
          verifyCode: fromPromise(({ input, signal }) =>
            verifyOtp(
              userId,
              { base32_secret: input.secret, code: input.code, password: input.password },
              { signal, session },
            ),
          ),
          disable: fromPromise(async ({ input, signal }) => {
            await resetOtp(userId, { password: input.password, disable: true }, { signal, session });
          }),
          refreshUser: fromPromise(async () => {
            await onRefresh();
          }),
        },
      }),
    [userId, session, onRefresh],
  );
  const [state, send] = useMachine(machine, { input: { mfa, forced } });
  const { context } = state;
  const busy = state.hasTag('busy');

  // The panel stays mounted while the user is loaded again: a click between this machine's own refresh and
  // the new data is never lost to a remount.
  useEffect(() => send({ type: 'mfa.loaded', mfa }), [mfa, send]);

  useEffect(() => {
    if (state.status === 'done') onCompleted();
  }, [state.status, onCompleted]);

  return (
    <section aria-label={t('twoFactor.title')} className="studio-two-factor">
      {context.error === 'failed' && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
          {tc('messages.error')}
        </Callout>
      )}
      {(state.matches('enabled') ||
        (state.matches('confirmingPassword') && context.intent === 'disable') ||
        state.matches('disabling')) && (
        <div className="studio-two-factor-row">
          <Tag intent={Intent.SUCCESS} icon="shield" large>
            {t('twoFactor.enabled')}
          </Tag>
          <Button
            intent={Intent.DANGER}
            variant="outlined"
            text={t('twoFactor.disable')}
            onClick={() => send({ type: 'disable.requested' })}
          />
        </div>
      )}
      {(state.matches('notStarted') ||
        (state.matches('confirmingPassword') && context.intent === 'enable') ||
        state.matches('requestingSecret')) && (
        <div className="studio-two-factor-row">
          <span>{t('twoFactor.notStarted')}</span>
          <Button
            intent={Intent.PRIMARY}
            icon="key"
            text={t('twoFactor.getQr')}
            onClick={() => send({ type: 'qr.requested' })}
          />
        </div>
      )}
      {(state.matches('showingQr') || state.matches('verifying') || state.matches('refreshing')) &&
        context.secret && (
          <QrStep
            uri={otpauthUri(email, context.secret)}
            secret={context.secret}
            busy={busy}
            invalid={context.error === 'invalidCode'}
            onSubmit={(code) => send({ type: 'code.submitted', code })}
            onCancel={() => send({ type: 'setup.cancelled' })}
          />
        )}
      <PasswordPrompt
        isOpen={state.hasTag('prompt')}
        busy={busy}
        error={context.error === 'wrongPassword' ? tc('messages.wrongPassword') : null}
        onConfirm={(password) => send({ type: 'password.confirmed', password })}
        onCancel={() => send({ type: 'password.cancelled' })}
      />
    </section>
  );
}

function QrStep({
  uri,
  secret,
  busy,
  invalid,
  onSubmit,
  onCancel,
}: {
  uri: string;
  secret: string;
  busy: boolean;
  invalid: boolean;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [code, setCode] = useState('');
  const { failures, passes } = useFormCheck(() => ({ code: checkCode(code) }));
  const message = text(failures.code) ?? (invalid ? t('twoFactor.invalidCode') : undefined);
  return (
    <form
      noValidate
      className="studio-qr-step"
      onSubmit={(event) => {
        event.preventDefault();
        if (passes()) onSubmit(code);
      }}
    >
      <p>{t('twoFactor.scan')}</p>
      <QrCode value={uri} size={200} alt={t('twoFactor.qrAlt')} />
      <p className="studio-muted">
        {t('twoFactor.secret')} <code data-testid="two-factor-secret">{secret}</code>
      </p>
      <CodeField
        id="two-factor-code"
        label={t('twoFactor.code')}
        message={message}
        value={code}
        onValueChange={setCode}
      />
      <div className="studio-form-actions">
        <Button text={t('twoFactor.cancel')} onClick={onCancel} />
        <Button type="submit" intent={Intent.PRIMARY} text={t('twoFactor.verify')} loading={busy} />
      </div>
    </form>
  );
}
