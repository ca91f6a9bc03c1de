import { Callout, H4, Icon, Intent, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CompanyConfig } from '#contract/companies';
import type { Profile } from '#contract/profiles';
import { type StepState, verificationSteps } from '../../../machines/verificationSteps';
import { getAml, listCalls, listDocuments, sidebarKeys, stepKeys } from '../../../services/api/profileDetail';

const STATE_LOOK: Record<StepState, { icon: IconName; intent: Intent }> = {
  done: { icon: 'tick-circle', intent: Intent.SUCCESS },
  failed: { icon: 'error', intent: Intent.DANGER },
  attention: { icon: 'warning-sign', intent: Intent.WARNING },
  waiting: { icon: 'time', intent: Intent.NONE },
  skipped: { icon: 'disable', intent: Intent.NONE },
};

/** Verification Steps: where the profile stands, from its documents, AML result, calls and status. */
export function VerificationStepsTab({ profile, config }: { profile: Profile; config: CompanyConfig }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const amlOn = !!config.aml_provider && config.active_services.includes('aml');
  const callsOn = config.active_services.includes('video_kyc');
  const documents = useQuery({
    queryKey: sidebarKeys.documents(profile.id, { archived: false }),
    queryFn: ({ signal }) => listDocuments(profile.id, { archived: false }, { signal }),
  });
  const aml = useQuery({
    queryKey: stepKeys.aml(profile.id),
    queryFn: ({ signal }) => getAml(profile.id, { signal }),
    enabled: amlOn,
  });
  const calls = useQuery({
    queryKey: stepKeys.calls(profile.id),
    queryFn: ({ signal }) => listCalls(profile.id, { signal }),
    enabled: callsOn,
  });
  if (documents.isError || aml.isError || calls.isError) {
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {tc('messages.error')}
      </Callout>
    );
  }
  if (!documents.data || (amlOn && !aml.data) || (callsOn && !calls.data)) return <Spinner size={24} />;
  const steps = verificationSteps({
    status: profile.status,
    documents: documents.data,
    aml: amlOn ? (aml.data ?? null) : 'off',
    calls: callsOn ? (calls.data?.results.map((call) => call.status) ?? []) : 'off',
  });
  return (
    <section aria-labelledby="steps-title">
      <H4 id="steps-title">{t('steps.title')}</H4>
      <ol className="studio-steps">
        {steps.map((step) => (
          <li key={step.name} className="studio-step">
            <Icon icon={STATE_LOOK[step.state].icon} intent={STATE_LOOK[step.state].intent} />
            <span className="studio-step-name">{t(`steps.${step.name}`)}</span>
            <span className="studio-muted">{t(`steps.states.${step.state}`)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
