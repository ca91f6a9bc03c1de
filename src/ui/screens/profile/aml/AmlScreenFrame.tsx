import './aml.css';
import { AnchorButton, Callout, H2, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { visibleTabs } from '../../../../machines/profileTabs';
import { getCompanyConfig, profileDetailKeys } from '../../../../services/api/profileDetail';
import { useActiveAccount } from '../../../app/useAccounts';
import { usePageTitle } from '../../../app/usePageTitle';

/**
 * The frame of the AML history and record screens: title, a way back, and the AML gate (docs/product/roles.md#services) — without an
 * AML provider in the company config (or the `aml` service) the screen says so instead of its content.
 */
export function AmlScreenFrame({
  title,
  back,
  children,
}: {
  title: string;
  back: { href: string; label: string };
  children: ReactNode;
}) {
  const { t } = useTranslation('aml');
  const { t: tc } = useTranslation();
  usePageTitle(title);
  const account = useActiveAccount();
  const companyId = account?.company_id ?? 0;
  const config = useQuery({
    queryKey: profileDetailKeys.config(companyId),
    queryFn: ({ signal }) => getCompanyConfig(companyId, { signal }),
    enabled: companyId > 0,
    staleTime: 5 * 60_000,
  });
  let body: ReactNode;
  if (config.isError)
    body = (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {tc('messages.error')}
      </Callout>
    );
  else if (!config.data) body = <Spinner size={24} />;
  else if (!visibleTabs(config.data).includes('aml'))
    body = <NonIdealState icon="info-sign" title={t('title')} description={t('notEnabled')} />;
  else body = children;
  return (
    <section className="studio-page" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <Link href={back.href} asChild>
        <AnchorButton
          role="link"
          variant="minimal"
          icon="arrow-left"
          text={back.label}
          className="studio-back"
        />
      </Link>
      {body}
    </section>
  );
}
