import './admin.css';
import { H2, Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { usePageTitle } from '../../app/usePageTitle';
import { AuditTab } from './AuditTab';
import { GroupsTab } from './GroupsTab';
import { MailTab } from './MailTab';
import { UsersTab } from './UsersTab';

const TABS = ['users', 'groups', 'audit', 'mail'] as const;
type TabId = (typeof TABS)[number];

/** /admin (Admin role and view_admin_page): users, groups, the audit log and e-mail, the tab kept in the URL. */
export function AdminScreen() {
  const { t } = useTranslation('admin');
  const { t: ts } = useTranslation('screens');
  const title = ts('admin.title');
  usePageTitle(title);
  const [query, setQuery] = useSearchParams();
  const tab: TabId = TABS.includes(query.get('tab') as TabId) ? (query.get('tab') as TabId) : 'users';
  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <Tabs
        id="admin-tabs"
        selectedTabId={tab}
        onChange={(next) => setQuery(next === 'users' ? {} : { tab: String(next) }, { replace: true })}
        renderActiveTabPanelOnly
        large
      >
        <Tab disabled={false} id="users" title={t('tabs.users')} panel={<UsersTab />} />
        <Tab disabled={false} id="groups" title={t('tabs.groups')} panel={<GroupsTab />} />
        <Tab disabled={false} id="audit" title={t('tabs.audit')} panel={<AuditTab />} />
        <Tab disabled={false} id="mail" title={t('tabs.mail')} panel={<MailTab />} />
      </Tabs>
    </section>
  );
}
