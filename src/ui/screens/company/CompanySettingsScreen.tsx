import { H2, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/usePageTitle';
import { WebhooksTab } from './WebhooksTab';
import './company.css';
import './icons';

/**
 * /company-settings (§2, view_company_page): the company's configuration in tabs. Webhooks today; the
 * IP allow-list and plan-and-payment tabs join here when they are built.
 */
export function CompanySettingsScreen() {
  const { t } = useTranslation('webhooks');
  const title = t('title');
  usePageTitle(title);
  const [tab, setTab] = useState<string>('webhooks');
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
      </Tabs>
    </section>
  );
}
