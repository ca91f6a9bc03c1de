import 'virtual:blueprint-pages.css';
import './icons';
import './createAccount.css';
import { Button, Callout, Intent, ProgressBar } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { createActor, fromPromise } from 'xstate';
import {
  type CreateAccountError,
  createAccountMachine,
  STEPS,
  type Step,
  stepOf,
} from '../../../machines/createAccount.machine';
import { accounts } from '../../../services/accounts';
import { loadAccount } from '../../../services/api/auth';
import {
  buyPackage,
  createCompany,
  getPackages,
  getSignupOptions,
  paymentStatus,
  register,
  sendVerificationCode,
  verifyEmail,
} from '../../../services/api/signup';
import {
  clearSignup,
  loadSignupSnapshot,
  markSignupFinishing,
  saveSignupSnapshot,
} from '../../../services/signupStore';
import { AuthLayout } from '../auth/AuthLayout';
import { AccountStep } from './steps/AccountStep';
import { AlreadyRegistered } from './steps/AlreadyRegistered';
import { CodeStep } from './steps/CodeStep';
import { FirstSteps } from './steps/FirstSteps';
import { PackageStep } from './steps/PackageStep';
import { PaymentStep } from './steps/PaymentStep';
import { ProfileStep } from './steps/ProfileStep';

/** A stored snapshot the machine can take up again; an outdated or broken one is dropped. */
function restoredSnapshot(): unknown {
  const snapshot = loadSignupSnapshot();
  if (snapshot === undefined) return undefined;
  try {
    createActor(createAccountMachine, { snapshot: snapshot as never, input: {} });
    return snapshot;
  } catch {
    clearSignup();
    return undefined;
  }
}

export type SignupActor = ReturnType<typeof useSignupActor>;

function useSignupActor() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const machine = useMemo(
    () =>
      createAccountMachine.provide({
        actors: {
          register: fromPromise(({ input, signal }) => register(input, { signal })),
          sendCode: fromPromise(({ input, signal }) => sendVerificationCode(input, { signal })),
          verifyCode: fromPromise(({ input, signal }) => verifyEmail(input, { signal })),
          loadPackages: fromPromise(({ signal }) => getPackages({ signal })),
          loadOptions: fromPromise(({ signal }) => getSignupOptions(language, { signal })),
          createCompany: fromPromise(({ input, signal }) =>
            createCompany(input.token, { ...input.profile, package: input.packageId }, { signal }),
          ),
          buyPackage: fromPromise(({ input, signal }) =>
            buyPackage(
              input.company,
              {
                package: input.packageId,
                studio_url: `${window.location.origin}/create-account`,
                locale: language === 'tr' ? 'tr' : 'en-US',
              },
              { signal },
            ),
          ),
          paymentStatus: fromPromise(({ input, signal }) =>
            paymentStatus(input.company, input.sessionId, { signal }),
          ),
          loadAccount: fromPromise(({ input, signal }) =>
            loadAccount({ login: input.company, email: input.email }, { signal }),
          ),
        },
        actions: {
          openCheckout: (_, url) => window.location.assign(url),
          storeAccount: (_, account) => {
            markSignupFinishing();
            accounts.save(account);
          },
        },
      }),
    [language],
  );
  const [snapshot] = useState(restoredSnapshot);
  const actor = useActorRef(machine, snapshot ? { snapshot: snapshot as never, input: {} } : { input: {} });
  useEffect(() => {
    const subscription = actor.subscribe((state) => {
      // Steady steps and reads are kept: a reload never repeats a write from its middle, but a step that
      // is still loading (shown already) stays that step and loads again.
      if (!state.hasTag('busy') || state.hasTag('repeatable'))
        saveSignupSnapshot(actor.getPersistedSnapshot());
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  return actor;
}

export function useErrorText() {
  const { t } = useTranslation('signup');
  const { t: tc } = useTranslation();
  return (error: CreateAccountError | null, detail: string | null): string | null => {
    switch (error) {
      case null:
      case 'paymentDeclined':
      case 'paymentExpired':
        return null;
      case 'connection':
        return tc('messages.connectionLost');
      case 'invalidCode':
      case 'signupExpired':
      case 'noSignup':
        return t(`errors.${error}`);
      case 'server':
        return detail || tc('messages.error');
    }
  };
}

/** /create-account: self-service account creation, a public route (docs/product/screens.md#routes). */
export function CreateAccountScreen() {
  const { t } = useTranslation('signup');
  const { t: ts } = useTranslation('screens');
  const actor = useSignupActor();
  const step = useSelector(actor, stepOf);
  const error = useSelector(actor, (s) => s.context.error);
  const errorDetail = useSelector(actor, (s) => s.context.errorDetail);
  const paying = useSelector(actor, (s) => s.matches('payment'));
  const errorText = useErrorText()(error, errorDetail);
  const search = useSearch();
  const [, navigate] = useLocation();

  // Back from the hosted checkout: /create-account?session_id=…. Without the flow's place (another tab or
  // browser), the payment's own return page answers after signing in. Decided once per session: the query
  // may still be on show (its removal renders in a transition) when the flow has already moved past payment.
  const returnedSession = new URLSearchParams(search).get('session_id');
  const handledSession = useRef<string | null>(null);
  useEffect(() => {
    if (!returnedSession || handledSession.current === returnedSession) return;
    handledSession.current = returnedSession;
    if (paying) {
      actor.send({ type: 'checkout.returned', sessionId: returnedSession });
      navigate('/create-account', { replace: true });
    } else navigate(`~/return?session_id=${encodeURIComponent(returnedSession)}`, { replace: true });
  }, [returnedSession, paying, actor, navigate]);

  const index = STEPS.indexOf(step);
  return (
    <AuthLayout title={ts('createAccount.title')} wide>
      <StepProgress step={step} />
      {errorText && (
        <Callout intent={Intent.DANGER} icon="error" className="studio-auth-callout" role="alert">
          {errorText}
        </Callout>
      )}
      {/* One mount per step: what was typed survives a failed request on the same step. */}
      <div key={step} className="studio-signup-step">
        <StepBody actor={actor} />
      </div>
      {index < STEPS.indexOf('package') && (
        <div className="studio-auth-links">
          <span>
            {t('haveAccount')} <Link href="~/login">{t('signIn')}</Link>
          </span>
        </div>
      )}
    </AuthLayout>
  );
}

function StepProgress({ step }: { step: Step }) {
  const { t } = useTranslation('signup');
  const current = STEPS.indexOf(step);
  const progress = t('progress', { current: current + 1, total: STEPS.length, name: t(`steps.${step}`) });
  return (
    <nav className="studio-signup-progress" aria-label={t('title')}>
      <p className="studio-muted" aria-live="polite">
        {progress}
      </p>
      <ProgressBar
        aria-label={progress}
        value={(current + 1) / STEPS.length}
        animate={false}
        stripes={false}
        intent={Intent.PRIMARY}
      />
      <ol className="studio-signup-steps">
        {STEPS.map((name, i) => (
          <li
            key={name}
            aria-current={i === current ? 'step' : undefined}
            className={i < current ? 'is-done' : i === current ? 'is-current' : undefined}
          >
            {t(`steps.${name}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function StepBody({ actor }: { actor: SignupActor }) {
  const { t } = useTranslation('signup');
  const state = useSelector(actor, (s) => s);
  const busy = state.hasTag('busy');
  const send = actor.send;
  if (state.matches('alreadyRegistered'))
    return <AlreadyRegistered email={state.context.email} send={send} />;
  switch (stepOf(state)) {
    case 'account':
      return <AccountStep email={state.context.email} busy={busy} send={send} />;
    case 'code':
      return (
        <CodeStep
          email={state.context.email}
          busy={busy}
          countdown={state.context.countdown}
          canResend={state.matches({ code: 'resendable' })}
          resending={state.matches('resending')}
          send={send}
        />
      );
    case 'package':
      if (state.matches({ packages: 'failed' })) return <RetryButton send={send} />;
      return (
        <PackageStep
          packages={state.context.packages}
          loading={state.matches({ packages: 'loading' })}
          chosen={state.context.packageId}
          canGoBack={false}
          send={send}
        />
      );
    case 'profile':
      if (state.matches({ profile: 'failed' }))
        return (
          <>
            <RetryButton send={send} />
            <Button
              variant="minimal"
              icon="arrow-left"
              text={t('back')}
              onClick={() => send({ type: 'back' })}
            />
          </>
        );
      return (
        <ProfileStep
          profile={state.context.profile}
          options={state.context.options}
          loading={state.matches({ profile: 'loading' })}
          busy={busy}
          send={send}
        />
      );
    case 'payment':
      return <PaymentStep state={state} send={send} />;
    case 'done':
      return <FirstSteps company={state.context.profile.company_name} />;
  }
}

function RetryButton({ send }: { send: SignupActor['send'] }) {
  const { t } = useTranslation('signup');
  return (
    <Button
      intent={Intent.PRIMARY}
      icon="refresh"
      text={t('retry')}
      onClick={() => send({ type: 'retry' })}
    />
  );
}
