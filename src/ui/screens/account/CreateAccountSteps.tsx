import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H4,
  HTMLSelect,
  Icon,
  Intent,
  Spinner,
  SpinnerSize,
} from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { SnapshotFrom } from 'xstate';
import { isService } from '#contract/constants';
import { isAcceptablePassword } from '#contract/passwords';
import type { Package } from '#contract/payments';
import { BASE_SERVICES, CUSTOM_PRICE_FROM_VERIFICATIONS } from '#contract/signup';
import type {
  CompanyProfile,
  CreateAccountEvent,
  createAccountMachine,
  SignupOptions,
} from '../../../machines/createAccount.machine';
import { checkCode, checkConfirmation, checkEmail, checkRequired } from '../../../machines/validation';
import { clearSignup } from '../../../services/signupStore';
import {
  CodeField,
  EmailField,
  NewPasswordFields,
  NO_NEW_PASSWORD,
  ResendCode,
} from '../../components/CredentialFields';
import { useValidationText } from '../../components/FieldMessage';
import { PasswordRules, passwordRulesIds } from '../../components/PasswordRules';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { useFormat } from '../../format';

type Send = (event: CreateAccountEvent) => void;

// ---------------------------------------------------------------- e-mail and password

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

// ---------------------------------------------------------------- the e-mailed code

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

export function AlreadyRegistered({ email, send }: { email: string; send: Send }) {
  const { t } = useTranslation('signup');
  const query = `?email=${encodeURIComponent(email)}`;
  return (
    <div>
      <Callout
        intent={Intent.PRIMARY}
        icon="info-sign"
        title={t('registered.title')}
        className="studio-auth-callout"
      >
        {t('registered.body', { email })}
      </Callout>
      <div className="studio-signup-choices">
        <Link
          href={`~/login${query}`}
          className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
          onClick={clearSignup}
        >
          {t('registered.signIn')}
        </Link>
        <Link href={`~/reset-password${query}`} className={Classes.BUTTON} onClick={clearSignup}>
          {t('registered.reset')}
        </Link>
        <Button variant="minimal" text={t('startOver')} onClick={() => send({ type: 'restart' })} />
      </div>
    </div>
  );
}

// ---------------------------------------------------------------- package

export function usePrice() {
  const { money } = useFormat();
  return (pkg: Pick<Package, 'price' | 'currency'>) => money(pkg.price, pkg.currency);
}

export function PackageStep({
  packages,
  loading,
  chosen,
  send,
}: {
  packages: Package[];
  loading: boolean;
  chosen: number | null;
  canGoBack: boolean;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const price = usePrice();
  if (loading) return <Spinner size={SpinnerSize.STANDARD} />;
  if (packages.length === 0) return <Callout intent={Intent.WARNING}>{t('package.empty')}</Callout>;
  return (
    <div>
      <p>{t('package.intro')}</p>
      <ul className="studio-signup-packages">
        {packages.map((pkg) => (
          <li key={pkg.id} aria-label={pkg.name}>
            <Card className={`studio-signup-package${chosen === pkg.id ? ' is-chosen' : ''}`}>
              <H4>{pkg.name}</H4>
              <div className="studio-signup-price">
                {pkg.is_custom ? (
                  t('package.custom')
                ) : (
                  <>
                    <strong>{price(pkg)}</strong>{' '}
                    <span className={Classes.TEXT_MUTED}>
                      {t('package.perPeriod', { days: pkg.period_days })}
                    </span>
                  </>
                )}
              </div>
              <p className={Classes.TEXT_MUTED}>
                {pkg.is_custom
                  ? t('package.customNote', { count: CUSTOM_PRICE_FROM_VERIFICATIONS })
                  : t('package.verifications', { count: pkg.verifications })}
              </p>
              {!pkg.is_custom && (
                <>
                  <div className={Classes.TEXT_MUTED}>{t('package.includes')}</div>
                  <ul className="studio-signup-services">
                    {(pkg.services ?? BASE_SERVICES).filter(isService).map((service) => (
                      <li key={service}>
                        <Icon icon="small-tick" intent={Intent.SUCCESS} />
                        {t(`package.services.${service}`)}
                      </li>
                    ))}
                  </ul>
                  <Button
                    intent={Intent.PRIMARY}
                    fill
                    variant={chosen === pkg.id ? 'solid' : 'outlined'}
                    text={t('package.choose', { name: pkg.name })}
                    onClick={() => send({ type: 'package.chosen', packageId: pkg.id })}
                  />
                </>
              )}
            </Card>
          </li>
        ))}
      </ul>
      <div className="studio-form-actions">
        <Button variant="minimal" text={t('startOver')} onClick={() => send({ type: 'restart' })} />
      </div>
    </div>
  );
}

// ---------------------------------------------------------------- company profile

const PHONE = /^\+?[0-9 ()-]{5,31}$/;

export function ProfileStep({
  profile,
  options,
  loading,
  busy,
  send,
}: {
  profile: CompanyProfile;
  options: SignupOptions | null;
  loading: boolean;
  busy: boolean;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const text = useValidationText();
  const [values, setValues] = useState(profile);
  const set = (key: keyof CompanyProfile) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const { failures, passes } = useFormCheck(() => ({
    company_name: checkRequired(values.company_name),
    first_name: checkRequired(values.first_name),
    last_name: checkRequired(values.last_name),
    phone: checkRequired(values.phone),
    industry: checkRequired(values.industry),
    country: checkRequired(values.country),
  }));
  const [phoneTried, setPhoneTried] = useState(false);
  const phoneInvalid = phoneTried && values.phone.trim() !== '' && !PHONE.test(values.phone.trim());
  if (loading || !options) return <Spinner size={SpinnerSize.STANDARD} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPhoneTried(true);
    if (passes() && PHONE.test(values.phone.trim())) send({ type: 'profile.submitted', profile: values });
  };
  const select = (key: 'industry' | 'country', list: { code: string; name: string }[]) => (
    <FormGroup
      label={t(`profile.${key}`)}
      labelFor={`signup-${key}`}
      // A list asks to choose, not to fill in (issue 27).
      helperText={
        failures[key] ? t(key === 'industry' ? 'profile.chooseIndustry' : 'profile.chooseCountry') : undefined
      }
      intent={failures[key] ? Intent.DANGER : Intent.NONE}
    >
      <HTMLSelect
        id={`signup-${key}`}
        fill
        value={values[key]}
        onChange={(event) => set(key)(event.currentTarget.value)}
        disabled={busy}
        options={[
          { value: '', label: t('profile.choose') },
          ...list.map((o) => ({ value: o.code, label: o.name })),
        ]}
      />
    </FormGroup>
  );
  return (
    <form onSubmit={submit} noValidate>
      <p>{t('profile.intro')}</p>
      <TextField
        id="signup-company"
        label={t('profile.companyName')}
        message={text(failures.company_name)}
        autoComplete="organization"
        autoFocus
        value={values.company_name}
        onValueChange={set('company_name')}
        disabled={busy}
      />
      <div className="studio-signup-row">
        <TextField
          id="signup-first-name"
          label={t('profile.firstName')}
          message={text(failures.first_name)}
          autoComplete="given-name"
          value={values.first_name}
          onValueChange={set('first_name')}
          disabled={busy}
        />
        <TextField
          id="signup-last-name"
          label={t('profile.lastName')}
          message={text(failures.last_name)}
          autoComplete="family-name"
          value={values.last_name}
          onValueChange={set('last_name')}
          disabled={busy}
        />
      </div>
      <TextField
        id="signup-phone"
        label={t('profile.phone')}
        subLabel={t('profile.phoneHelp')}
        message={failures.phone ? text(failures.phone) : phoneInvalid ? t('profile.phoneInvalid') : undefined}
        type="tel"
        autoComplete="tel"
        value={values.phone}
        onValueChange={set('phone')}
        disabled={busy}
      />
      <div className="studio-signup-row">
        {select('industry', options.industries)}
        {select('country', options.countries)}
      </div>
      <div className="studio-form-actions">
        <Button variant="minimal" icon="arrow-left" text={t('back')} onClick={() => send({ type: 'back' })} />
        <Button type="submit" intent={Intent.PRIMARY} text={t('profile.submit')} loading={busy} />
      </div>
    </form>
  );
}

// ---------------------------------------------------------------- payment

export function PaymentStep({
  state,
  send,
}: {
  state: SnapshotFrom<typeof createAccountMachine>;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const price = usePrice();
  const { context } = state;
  const pkg = context.packages.find((p) => p.id === context.packageId);
  const busy = state.hasTag('busy');
  if (state.matches('signingIn'))
    return (
      <Callout intent={Intent.SUCCESS} icon="tick-circle">
        {t('payment.signingIn')}
      </Callout>
    );
  if (state.matches('signInFailed'))
    return (
      <div>
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('payment.signInFailed')}
        </Callout>
        <Button
          intent={Intent.PRIMARY}
          icon="refresh"
          text={t('retry')}
          onClick={() => send({ type: 'retry' })}
        />
      </div>
    );
  const amount = pkg ? price(pkg) : '';
  const checkout = state.matches({ payment: 'atCheckout' });
  const pending = state.matches({ payment: 'pending' });
  return (
    <div>
      {context.error === 'paymentDeclined' && (
        <Callout intent={Intent.DANGER} icon="error" className="studio-auth-callout" role="alert">
          {t('payment.declined')}
        </Callout>
      )}
      {context.error === 'paymentExpired' && (
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout" role="alert">
          {t('payment.expired')}
        </Callout>
      )}
      <p>{t('payment.intro')}</p>
      <Card className="studio-signup-summary">
        <strong>
          {pkg ? t('payment.summary', { plan: pkg.name, price: amount, days: pkg.period_days }) : null}
        </strong>
        <div className={Classes.TEXT_MUTED}>
          {t('payment.company', { name: context.profile.company_name })}
        </div>
      </Card>
      {checkout && <p role="status">{t('payment.atCheckout')}</p>}
      {pending && (
        <Callout intent={Intent.PRIMARY} icon="info-sign" className="studio-auth-callout" role="status">
          {t('payment.pending')}
        </Callout>
      )}
      <div className="studio-form-actions">
        <Button
          variant="minimal"
          icon="arrow-left"
          text={t('payment.changePlan')}
          onClick={() => send({ type: 'back' })}
          disabled={busy}
        />
        {checkout || pending ? (
          <>
            <Button
              text={pending ? t('payment.checkAgain') : t('payment.check')}
              loading={state.matches({ payment: 'checking' })}
              onClick={() => send({ type: 'payment.check' })}
            />
            <Button
              intent={Intent.PRIMARY}
              icon="credit-card"
              text={t('payment.openAgain')}
              onClick={() => send({ type: 'payment.start' })}
            />
          </>
        ) : (
          <Button
            intent={Intent.PRIMARY}
            icon="credit-card"
            text={t('payment.pay', { price: amount })}
            loading={busy}
            onClick={() => send({ type: 'payment.start' })}
          />
        )}
      </div>
    </div>
  );
}

// ---------------------------------------------------------------- first steps

export function FirstSteps({ company }: { company: string }) {
  const { t } = useTranslation('signup');
  const [, navigate] = useLocation();
  // Leaving the first steps ends the flow: the stored place goes, and /create-account is public again.
  const go = (path: string) => () => {
    clearSignup();
    navigate(`~${path}`);
  };
  const steps = [
    { icon: 'new-person', title: t('done.invite'), body: t('done.inviteBody'), path: '/admin?tab=users' },
    { icon: 'exchange', title: t('done.webhook'), body: t('done.webhookBody'), path: '/company-settings' },
    { icon: 'video', title: t('done.call'), body: t('done.callBody'), path: '/customers' },
  ] as const;
  return (
    <div>
      <Callout
        intent={Intent.SUCCESS}
        icon="tick-circle"
        title={t('done.title')}
        className="studio-auth-callout"
      >
        {t('done.body', { company })}
      </Callout>
      <ul className="studio-signup-first-steps">
        {steps.map((step) => (
          <li key={step.path}>
            <Button variant="outlined" icon={step.icon} fill alignText="start" onClick={go(step.path)}>
              <strong>{step.title}</strong>
              <div className={Classes.TEXT_MUTED}>{step.body}</div>
            </Button>
          </li>
        ))}
      </ul>
      <Button intent={Intent.PRIMARY} rightIcon="arrow-right" text={t('done.studio')} onClick={go('/')} />
    </div>
  );
}
