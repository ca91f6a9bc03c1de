import { H2, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { PlanTab, PlanTabTitle } from '../payment/PlanTab';
import { AllowListTab, AllowListTabTitle } from './AllowListTab';
import { CallRoutingTab, CallRoutingTabTitle } from './CallRoutingTab';
import { EvidenceRetentionTab, EvidenceRetentionTabTitle } from './EvidenceRetentionTab';
import { IdentProcedureTab, IdentProcedureTabTitle } from './IdentProcedureTab';
import { PasskeyPolicyTab, PasskeyPolicyTabTitle } from './PasskeyPolicyTab';
import { ReviewDeskTab, ReviewDeskTabTitle } from './ReviewDeskTab';
import { SsoSettingsCard } from './SsoSettingsCard';
import { WebhooksTab } from './WebhooksTab';
import './company.css';
import './icons';

/**
 * /company-settings (view_company_page): the company's configuration in tabs: webhooks, the IP
 * allow-list, plan and payment, sign-in, the identification procedure, evidence retention, call routing and,
 * for Admins, the reviewers' desk.
 */
export function CompanySettingsScreen() {
  const { t } = useTranslation('webhooks');
  const title = t('title');
  usePageTitle(title);
  const isAdmin = useActiveAccount()?.role === 'Admin';
  // `?tab=plan` (the return page's link back) opens that tab.
  const [tab, setTab] = useState<string>(
    () => new URLSearchParams(window.location.search).get('tab') ?? 'webhooks',
  );
  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <Tabs
        id="company-settings-tabs"
        selectedTabId={tab}
        onChange={(id) => setTab(String(id))}
        renderActiveTabPanelOnly
      >
        <Tab disabled={false} id="webhooks" title={t('tabs.webhooks')} panel={<WebhooksTab />} />
        <Tab disabled={false} id="ip-allowlist" title={<AllowListTabTitle />} panel={<AllowListTab />} />
        <Tab disabled={false} id="plan" title={<PlanTabTitle />} panel={<PlanTab />} />
        <Tab
          disabled={false}
          id="sign-in"
          title={<PasskeyPolicyTabTitle />}
          panel={
            <>
              <PasskeyPolicyTab />
              {isAdmin && <SsoSettingsCard />}
            </>
          }
        />
        <Tab
          disabled={false}
          id="ident-procedure"
          title={<IdentProcedureTabTitle />}
          panel={<IdentProcedureTab />}
        />
        <Tab
          disabled={false}
          id="evidence"
          title={<EvidenceRetentionTabTitle />}
          panel={<EvidenceRetentionTab />}
        />
        <Tab disabled={false} id="call-routing" title={<CallRoutingTabTitle />} panel={<CallRoutingTab />} />
        {isAdmin && (
          <Tab disabled={false} id="review-desk" title={<ReviewDeskTabTitle />} panel={<ReviewDeskTab />} />
        )}
      </Tabs>
    </section>
  );
}
