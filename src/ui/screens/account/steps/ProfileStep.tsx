import { Button, FormGroup, HTMLSelect, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyProfile, SignupOptions } from '../../../../machines/createAccount.machine';
import { checkRequired } from '../../../../machines/validation';
import { useValidationText } from '../../../components/FieldMessage';
import { TextField } from '../../../components/TextField';
import { useFormCheck } from '../../../components/useFormCheck';
import type { Send } from './shared';

const PHONE = /^\+?[0-9 ()-]{5,31}$/;

/** The company's name, industry and country, and its first admin's name and phone. */
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
      // A list asks to choose, not to fill in.
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
