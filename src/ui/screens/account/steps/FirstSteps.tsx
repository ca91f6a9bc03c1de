import { Button, Callout, Classes, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { clearSignup } from '../../../../services/signupStore';

/** The account is ready: what to do first. */
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
