import { Button, Classes, Intent } from '@blueprintjs/core';
import { type FormEvent, lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { SESSION_END_REASONS, type SessionEndReason } from '#contract/sessionEnd';
import { SSO_PASSWORD_OFF } from '#contract/ssoDetails';
import type { SessionError, SessionEvent } from '../../../machines/session.machine';
import { checkCode, checkEmail, checkRequired } from '../../../machines/validation';
import { loadChunk } from '../../../services/chunks';
import { passkeysAvailable } from '../../../services/passkeySupport';
import { ADD_ACCOUNT_QUERY, SESSION_ENDED_QUERY } from '../../app/loginQuery';
import { safeRedirect } from '../../app/redirect';
import { CodeField, EmailField, PasswordField } from '../../components/CredentialFields';
import { useValidationText } from '../../components/FieldMessage';
import { useFormCheck } from '../../components/useFormCheck';
import { AuthLayout } from './AuthLayout';
import { Notice } from './Notice';
import { isSsoAnswer, NO_SSO, type SsoState } from './SsoSignIn';
import type { SessionActor } from './signInSession';
import { useSignInSession } from './useSignInSession';

/** The camera, the forced steps and single sign-on are rare: they load when needed. */
const ssoSteps = () => loadChunk(() => import('./SsoSteps'));
const SsoProbe = lazy(() => ssoSteps().then((m) => ({ default: m.SsoProbe })));
const SsoContinue = lazy(() => ssoSteps().then((m) => ({ default: m.SsoContinue })));
const SsoCallback = lazy(() => ssoSteps().then((m) => ({ default: m.SsoCallback })));
const RegionChoice = lazy(() =>
  loadChunk(() => import('./RegionChoice')).then((m) => ({ default: m.RegionChoice })),
);
const CameraCapture = lazy(() =>
  loadChunk(() => import('../../components/CameraCapture')).then((m) => ({ default: m.CameraCapture })),
);
const ForcedPasswordResetDialog = lazy(() =>
  loadChunk(() => import('./ForcedPasswordResetDialog')).then((m) => ({
    default: m.ForcedPasswordResetDialog,
  })),
);
const ForcedPasskeyDialog = lazy(() =>
  loadChunk(() => import('./ForcedPasskeyDialog')).then((m) => ({ default: m.ForcedPasskeyDialog })),
);
const ForcedTwoFactorDialog = lazy(() =>
  loadChunk(() => import('./ForcedTwoFactorDialog')).then((m) => ({ default: m.ForcedTwoFactorDialog })),
);

/** Why the session that sent the user here ended (the `ended` query), or null when none did. */
function endedReason(value: string | null): SessionEndReason | 'unknown' | null {
  if (value === null) return null;
  return SESSION_END_REASONS.includes(value as SessionEndReason) ? (value as SessionEndReason) : 'unknown';
}

type Step = 'credentials' | 'choosingRegion' | 'askingCode' | 'askingPasskey' | 'askingPhoto';

function useSessionErrorText() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  return (error: SessionError | null, detail: string | null): string | null => {
    switch (error) {
      case null:
        return null;
      case 'invalidCredentials':
        return tc('messages.invalidCredentials');
      case 'accountDisabled':
        return t('login.errors.accountDisabled');
      case 'invalidCode':
        return t('login.errors.invalidCode');
      case 'photoRejected':
        return t('login.errors.photoRejected');
      case 'photoUnavailable':
        return t('login.errors.photoUnavailable');
      case 'noCameraPermission':
        return tc('messages.noCameraPermission');
      case 'apiUser':
        return t('login.errors.apiUser');
      case 'passkeyFailed':
        return t('passkeys.failed');
      case 'server':
        if (detail === SSO_PASSWORD_OFF) return t('ssoPasswordOff');
        return detail || tc('messages.serverError');
    }
  };
}

/** /login (docs/product/states.md#sign-in): credentials, then a region, a code or a photo when the server asks for them. */
export function LoginScreen() {
  const { t } = useTranslation('auth');
  const { t: ts } = useTranslation('screens');
  const { t: tc } = useTranslation();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const redirect = safeRedirect(search.get('redirect'));
  const addingAccount = search.has(ADD_ACCOUNT_QUERY);

  // The form draws and takes typing at once; the machine (XState, the HTTP client) loads after the first
  // paint.
  const { state, send, waiting } = useSignInSession(search.get('email') ?? '', () =>
    navigate(`~${redirect}`, { replace: true }),
  );
  const context = state?.context;
  const email = context?.email ?? search.get('email') ?? '';
  const busy = waiting || !!state?.hasTag('busy');
  const errorText = useSessionErrorText()(context?.error ?? null, context?.errorDetail ?? null);
  const ended = endedReason(search.get(SESSION_ENDED_QUERY));
  // While a request runs, the step the user came from stays on screen (busy).
  const step = useRef<Step>('credentials');
  if (state?.matches('signedOut')) step.current = (state.value as { signedOut: Step }).signedOut;
  const showing = (name: Step) => step.current === name && (!state || state.matches('signedOut') || busy);

  // The identity provider sent the browser back here with its answer.
  if (isSsoAnswer(search))
    return (
      <AuthLayout title={ts('login.title')}>
        <Suspense fallback={<div className="studio-loading-bar" />}>
          <SsoCallback search={search} redirect={redirect} />
        </Suspense>
      </AuthLayout>
    );

  return (
    <AuthLayout title={ts('login.title')}>
      {addingAccount && (
        <Notice intent={Intent.PRIMARY} icon="info-sign" className="studio-auth-callout">
          {t('login.addAccount')} <Link href="~/">{t('login.backToStudio')}</Link>
        </Notice>
      )}
      {context?.notice && (
        <Notice intent={Intent.SUCCESS} icon="tick" className="studio-auth-callout" role="status">
          {context.notice === 'passwordChanged'
            ? tc('success.passwordChanged')
            : context.notice === 'passkeyRegistered'
              ? t('passkeys.registered')
              : t('login.notices.twoFactorEnabled')}
        </Notice>
      )}
      {ended && !errorText && (
        <Notice intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout" role="status">
          {t(`login.ended.${ended}`)}
        </Notice>
      )}
      {errorText && (
        <Notice intent={Intent.DANGER} icon="error" className="studio-auth-callout" role="alert">
          {errorText}
        </Notice>
      )}

      {showing('credentials') && (
        <CredentialsForm
          initialEmail={email}
          busy={busy}
          returnTo={redirect}
          onSubmit={(email, password) => send({ type: 'credentials.submitted', email, password })}
        />
      )}
      {showing('credentials') && passkeysAvailable() && (
        <div className="studio-auth-passkey">
          <span className={Classes.TEXT_MUTED}>{t('passkeys.or')}</span>
          <Button
            icon="key"
            fill
            text={t('passkeys.signIn')}
            disabled={busy}
            onClick={() => send({ type: 'passkey.requested' })}
          />
        </div>
      )}

      {state && <LaterSteps state={state} send={send} busy={busy} showing={showing} />}

      <div className="studio-auth-links">
        <Link href={`~/reset-password${email ? `?email=${encodeURIComponent(email)}` : ''}`}>
          {t('login.forgot')}
        </Link>
        <Link href="~/create-account">{t('login.createAccount')}</Link>
      </div>
    </AuthLayout>
  );
}

/** The steps after the credentials (passkey, region, code, photo, the forced dialogs), once the machine runs. */
function LaterSteps({
  state,
  send,
  busy,
  showing,
}: {
  state: ReturnType<SessionActor['getSnapshot']>;
  send: (event: SessionEvent) => void;
  busy: boolean;
  showing: (name: Step) => boolean;
}) {
  const { t } = useTranslation('auth');
  const { context } = state;
  const onCameraDenied = useCallback(() => send({ type: 'camera.denied' }), [send]);
  return (
    <>
      {showing('askingPasskey') && (
        <section aria-label={t('passkeys.askTitle')}>
          <p>{t('passkeys.askBody')}</p>
          {!passkeysAvailable() && (
            <Notice intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
              {t('passkeys.unavailableHere')}
            </Notice>
          )}
          <Button
            icon="key"
            intent={Intent.PRIMARY}
            fill
            text={t('passkeys.use')}
            loading={busy}
            disabled={!passkeysAvailable()}
            onClick={() => send({ type: 'passkey.chosen' })}
          />
          <div className="studio-form-actions">
            <Button
              variant="minimal"
              icon="arrow-left"
              text={t('login.back')}
              onClick={() => send({ type: 'back' })}
            />
            {context.otpAllowed && (
              <Button
                variant="minimal"
                text={t('passkeys.useCode')}
                onClick={() => send({ type: 'code.chosen' })}
              />
            )}
          </div>
        </section>
      )}

      {showing('choosingRegion') && (
        <Suspense fallback={<div className="studio-loading-bar" />}>
          <RegionChoice
            regions={context.regions}
            onChoose={(server) => send({ type: 'region.chosen', server })}
            onBack={() => send({ type: 'back' })}
          />
        </Suspense>
      )}

      {showing('askingCode') && (
        <CodeForm
          busy={busy}
          onSubmit={(otp) => send({ type: 'code.submitted', otp })}
          onBack={() => send({ type: 'back' })}
        />
      )}
      {showing('askingCode') && context.otpAllowed && passkeysAvailable() && (
        <Button
          variant="minimal"
          icon="key"
          text={t('passkeys.useInstead')}
          onClick={() => send({ type: 'passkey.chosen' })}
        />
      )}

      {showing('askingPhoto') && (
        <>
          <p>{t('login.photo.body')}</p>
          {context.error !== 'noCameraPermission' && (
            <Suspense fallback={<div className="studio-loading-bar" />}>
              <CameraCapture
                busy={busy}
                onPhoto={(photo) => send({ type: 'photo.taken', photo })}
                onDenied={onCameraDenied}
              />
            </Suspense>
          )}
          <Button
            variant="minimal"
            icon="arrow-left"
            text={t('login.back')}
            onClick={() => send({ type: 'back' })}
          />
        </>
      )}

      <Suspense fallback={<div className="studio-loading-bar" />}>
        {state.matches('forcedPasswordReset') && (
          <ForcedPasswordResetDialog
            isOpen
            email={context.email}
            onDone={() => send({ type: 'passwordReset.completed' })}
            onCancel={() => send({ type: 'forced.cancelled' })}
          />
        )}
        {state.matches('forcedPasskey') && (
          <ForcedPasskeyDialog
            isOpen
            setup={context.setup}
            password={context.password}
            onDone={() => send({ type: 'passkey.registered' })}
            onCancel={() => send({ type: 'forced.cancelled' })}
          />
        )}
        {state.matches('forcedTwoFactor') && (
          <ForcedTwoFactorDialog
            isOpen
            setup={context.setup}
            onDone={() => send({ type: 'twoFactor.completed' })}
            onCancel={() => send({ type: 'forced.cancelled' })}
          />
        )}
      </Suspense>
    </>
  );
}

function CredentialsForm({
  initialEmail,
  busy,
  returnTo,
  onSubmit,
}: {
  initialEmail: string;
  busy: boolean;
  returnTo: string;
  onSubmit: (email: string, password: string) => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  // The e-mail first: an address of a single sign-on company goes to its identity provider, unless the user
  // asks for the password (the company's break-glass accounts).
  // The look-up loads after the page has shown: a password sign-in never waits for it.
  const [sso, setSso] = useState<SsoState>(NO_SSO);
  const [withPassword, setWithPassword] = useState(false);
  const bySso = sso.sso && !withPassword;
  const { failures, passes } = useFormCheck(() => ({
    email: checkEmail(email),
    password: checkRequired(password),
  }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (bySso) sso.continue();
    else if (passes()) onSubmit(email, password);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Suspense fallback={null}>
        <SsoProbe email={email} returnTo={returnTo} onState={setSso} />
      </Suspense>
      <EmailField
        id="login-email"
        label={t('login.email')}
        message={text(failures.email)}
        autoComplete="username"
        autoFocus
        value={email}
        onValueChange={(value) => {
          setEmail(value);
          setWithPassword(false);
        }}
        disabled={busy}
      />
      {bySso ? (
        <Suspense fallback={<div className="studio-loading-bar" />}>
          <SsoContinue
            busy={sso.busy}
            error={sso.error}
            onContinue={sso.continue}
            onUsePassword={() => setWithPassword(true)}
          />
        </Suspense>
      ) : (
        <>
          <PasswordField
            id="login-password"
            label={t('login.password')}
            message={text(failures.password)}
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
            disabled={busy}
          />
          <Button type="submit" intent={Intent.PRIMARY} fill text={t('login.submit')} loading={busy} />
        </>
      )}
    </form>
  );
}

function CodeForm({
  busy,
  onSubmit,
  onBack,
}: {
  busy: boolean;
  onSubmit: (otp: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const text = useValidationText();
  const [code, setCode] = useState('');
  const { failures, passes } = useFormCheck(() => ({ code: checkCode(code) }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (passes()) onSubmit(code);
      }}
      noValidate
    >
      <CodeField
        id="login-code"
        label={t('login.code.label')}
        message={text(failures.code)}
        subLabel={t('login.code.body')}
        value={code}
        onValueChange={setCode}
      />
      <div className="studio-form-actions">
        <Button variant="minimal" icon="arrow-left" text={t('login.back')} onClick={onBack} />
        <Button type="submit" intent={Intent.PRIMARY} text={t('login.code.submit')} loading={busy} />
      </div>
    </form>
  );
}
