import { Button, Callout, Intent, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { fromPromise } from 'xstate';
import type { SsoCallbackBody } from '#contract/sso';
import { SSO_DETAILS } from '#contract/ssoDetails';
import { ssoCallbackMachine } from '../../../machines/ssoCallback.machine';
import { ssoSignInMachine } from '../../../machines/ssoSignIn.machine';
import { accounts } from '../../../services/accounts';
import { loadAccount } from '../../../services/api/auth';
import { rememberSsoSession, ssoFinish, ssoLookup, ssoStart } from '../../../services/api/sso';
import { safeRedirect } from '../../app/redirect';
import type { SsoState } from './SsoSignIn';
import './sso.css';
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

// The SSO steps' own icon, registered when their chunk loads (the sign-in page's first load does not carry it).
registerIcons(
  import.meta.glob<IconPaths>('/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js', {
    import: 'default',
  }),
  import.meta.glob<IconPaths>('/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/log-in.js', {
    import: 'default',
  }),
);

/*
 * The single sign-on steps the sign-in page shows only for an SSO address or on the provider's answer: loaded
 * then, so the sign-in page of everyone else stays as light as before.
 */

type DetailKey = keyof typeof SSO_DETAILS;

/** The reader's words for a refusal of single sign-on, or null for another detail. */
function useSsoDetailText() {
  const { t } = useTranslation('sso');
  return (detail: string | null): string | null => {
    const key = (Object.keys(SSO_DETAILS) as DetailKey[]).find((k) => SSO_DETAILS[k] === detail);
    return key ? t(`details.${key}`) : null;
  };
}

/**
 * The e-mail step of the sign-in form: whether the typed address signs in with single sign-on, and `continue`,
 * which sends the browser to the company's identity provider.
 */
function useSsoSignIn(email: string, returnTo: string | null): SsoState {
  const machine = useMemo(
    () =>
      ssoSignInMachine.provide({
        actors: {
          lookup: fromPromise(({ input, signal }) => ssoLookup(input.email, { signal })),
          start: fromPromise(({ input, signal }) => ssoStart(input.email, input.returnTo, { signal })),
        },
        actions: { redirect: (_, url) => window.location.assign(url) },
      }),
    [],
  );
  const [state, send] = useMachine(machine, { input: { email, returnTo } });
  useEffect(() => send({ type: 'email.changed', email }), [email, send]);
  const current = state.context.checked === email.trim().toLowerCase();
  return {
    sso: current && state.context.sso,
    busy: state.hasTag('busy'),
    error: state.context.error,
    continue: () => send({ type: 'sso.continued' }),
  };
}

/** Runs the e-mail step beside the sign-in form and tells the form where it stands; shows nothing itself. */
export function SsoProbe({
  email,
  returnTo,
  onState,
}: {
  email: string;
  returnTo: string | null;
  onState: (state: SsoState) => void;
}) {
  const state = useSsoSignIn(email, returnTo);
  const { sso, busy, error } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `continue` is a new closure each render over the same actor
  useEffect(() => onState(state), [sso, busy, error, onState]);
  return null;
}

/** The Continue button of an SSO address, and the way to a password (the company's break-glass accounts). */
export function SsoContinue({
  busy,
  error,
  onContinue,
  onUsePassword,
}: {
  busy: boolean;
  error: string | null;
  onContinue: () => void;
  onUsePassword: () => void;
}) {
  const { t } = useTranslation('sso');
  const detailText = useSsoDetailText();
  return (
    <div className="studio-auth-sso">
      <p>{t('hint')}</p>
      {error && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {detailText(error) ?? error}
        </Callout>
      )}
      <Button
        intent={Intent.PRIMARY}
        fill
        icon="log-in"
        text={t('continue')}
        loading={busy}
        onClick={onContinue}
      />
      <Button variant="minimal" fill text={t('usePassword')} disabled={busy} onClick={onUsePassword} />
    </div>
  );
}

/** The provider's answer in the sign-in page's query. */
function ssoAnswerOf(search: URLSearchParams): SsoCallbackBody {
  const answer: SsoCallbackBody = { state: search.get('state') ?? '' };
  for (const key of ['code', 'error', 'error_description', 'iss'] as const) {
    const value = search.get(key);
    if (value !== null) answer[key] = value;
  }
  return answer;
}

/** The provider sent the browser back: the session starts, or the refusal is shown with the way back. */
export function SsoCallback({ search, redirect }: { search: URLSearchParams; redirect: string }) {
  const answer = useMemo(() => ssoAnswerOf(search), [search]);
  const { t } = useTranslation('sso');
  const [, navigate] = useLocation();
  const detailText = useSsoDetailText();
  const machine = useMemo(
    () =>
      ssoCallbackMachine.provide({
        actors: {
          finish: fromPromise(({ input }) => ssoFinish(input)),
          loadAccount: fromPromise(({ input, signal }) => loadAccount(input, { signal })),
        },
        actions: {
          storeAccount: (_, account) => {
            accounts.save(account);
            rememberSsoSession(account.access);
          },
          signedIn: (_, returnTo) =>
            navigate(`~${returnTo ? safeRedirect(returnTo) : redirect}`, { replace: true }),
        },
      }),
    [navigate, redirect],
  );
  const [state] = useMachine(machine, { input: { answer } });
  if (state.hasTag('busy') || state.matches('signedIn'))
    return (
      <div className="studio-auth-sso" role="status">
        <Spinner size={24} aria-label={t('finishing')} />
        <p>{t('finishing')}</p>
      </div>
    );
  return (
    <div className="studio-auth-sso">
      <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('failed')}>
        {detailText(state.context.error) ?? state.context.error}
      </Callout>
      <Link href="~/login" replace>
        {t('backToSignIn')}
      </Link>
    </div>
  );
}
