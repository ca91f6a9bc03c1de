import { Button, Callout, H2, Intent, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { CompanyConfig } from '#contract/companies';
import type { Profile } from '#contract/profiles';
import { type ProfileTab, visibleTabs } from '../../../machines/profileTabs';
import { isApiError } from '../../../services/api/http';
import { useProfileLive } from '../../app/realtime/ProfileSocket';
import { useActiveAccount } from '../../app/useAccounts';
import { useAddressQuery } from '../../app/useAddressQuery';
import { usePageTitle } from '../../app/usePageTitle';
import { RiskTag } from '../../components/profileLabels';
import { useFormat } from '../../format';
import {
  companyConfigQuery,
  profileCasesQuery,
  profileChecklistsQuery,
  profileLogsQuery,
  profileQuery,
} from '../../queries';
import { ReportLinks } from '../pdf/ReportLinks';
import { ReviewCasePanel } from '../review/ReviewCasePanel';
import { AiAgentTab } from './AiAgentTab';
import { AmlTab } from './aml/AmlTab';
import { DocumentsTab } from './documents/DocumentsTab';
import { LegalHold } from './LegalHold';
import { AccessLogTab, ErasureBanner, PrivacyActions } from './Privacy';
import { ProfileInfoTab } from './ProfileInfoTab';
import { ProfileChangeNotice, ProfileViewers } from './ProfilePresence';
import { ProfileSidebar } from './ProfileSidebar';
import { QuestionnairesTab } from './QuestionnairesTab';
import { StatusMenu } from './StatusMenu';
import { TransactionsTab } from './TransactionsTab';
import { VerificationStepsTab } from './VerificationStepsTab';
import { VideoCallsTab } from './VideoCallsTab';

/** profile/:id (docs/product/screens.md): the header, the tabs the company's services allow, and the sidebar. */
export function ProfileScreen() {
  const { t } = useTranslation('profile');
  const { t: ts } = useTranslation('screens');
  const { profileID } = useParams<{ profileID: string }>();
  const id = Number(profileID);
  const account = useActiveAccount();
  const companyId = account?.company_id ?? 0;
  // The first queries the navigation started (screens.ts): read from the cache.
  const profile = useQuery(profileQuery(id));
  const config = useQuery(companyConfigQuery(companyId));
  // The review panel above the tabs: waited for like the profile, or the tabs would jump down under the pointer.
  const cases = useQuery(profileCasesQuery(id, account?.permissions.includes('review_profiles') ?? false));
  // The sidebar's first cards, waited for likewise: the cards under them would move down as they filled.
  const checklists = useQuery(profileChecklistsQuery(id));
  const logs = useInfiniteQuery(profileLogsQuery(id));
  // Who else has it open, and live refreshes when someone changes it.
  const live = useProfileLive(Number.isInteger(id) ? id : 0);
  const [query, changeQuery] = useAddressQuery();
  const date = useFormat().dateTime;
  usePageTitle(profile.data?.name ?? t('unnamed'));

  if (
    profile.isError ||
    !profile.data ||
    !config.data ||
    cases.isLoading ||
    checklists.isLoading ||
    logs.isLoading
  ) {
    return (
      <section aria-labelledby="page-title">
        <H2 id="page-title">{ts('profile.title')}</H2>
        {profile.isError ? (
          <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('loadFailed')}>
            {/* Profile fetch errors show the server's detail. */}
            <p>{isApiError(profile.error) ? profile.error.detail : null}</p>
            <Button icon="refresh" text={t('retry')} onClick={() => profile.refetch()} />
          </Callout>
        ) : (
          <Spinner />
        )}
      </section>
    );
  }

  const data = profile.data;
  const tabs = visibleTabs(config.data);
  const requested = query.get('tab') as ProfileTab | 'access' | null;
  const isAdmin = account?.role === 'Admin';
  // "Who viewed this profile" is the Admins' tab, beside the ones the company's services allow.
  const serviceTab = requested !== 'access' && requested && tabs.includes(requested) ? requested : 'info';
  const selected: ProfileTab | 'access' = requested === 'access' && isAdmin ? 'access' : serviceTab;

  return (
    <div className="studio-profile">
      <section className="studio-profile-main" aria-labelledby="page-title">
        <header className="studio-profile-header">
          <H2 id="page-title">{data.name ?? t('unnamed')}</H2>
          <StatusMenu profile={data} />
          <RiskTag risk={data.risk_level} />
          <LegalHold profileId={data.id} />
          {isAdmin && <PrivacyActions profileId={data.id} />}
          <ReportLinks profileId={data.id} />
          <ProfileViewers viewers={live.viewers} />
        </header>
        <ProfileChangeNotice live={live} />
        <ReviewCasePanel profileId={data.id} />
        <ErasureBanner profileId={data.id} />
        <p className="studio-muted studio-profile-meta">
          {[
            t('meta.idCard', { number: data.id_card_number }),
            t('meta.created', { date: date(data.created_at) }),
            t('meta.updated', { date: date(data.updated_at) }),
            data.last_status_date ? t('meta.lastStatus', { date: date(data.last_status_date) }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <Tabs
          id="profile-tabs"
          selectedTabId={selected}
          onChange={(tab) =>
            changeQuery((current) => {
              const next = new URLSearchParams(current);
              if (tab === 'info') next.delete('tab');
              else next.set('tab', String(tab));
              return next;
            })
          }
          renderActiveTabPanelOnly
          // No sliding indicator: its mount measures the selected tab and sets state, a forced layout and a
          // synchronous second render that also runs every effect of the new screen (its subscriptions and a
          // dozen requests) before the first paint, and each later render forces a layout again. The selected
          // tab keeps Blueprint's static underline, which looks the same.
          animate={false}
          aria-label={t('tabs.label')}
        >
          {tabs.map((tab) => (
            <Tab
              disabled={false}
              key={tab}
              id={tab}
              title={t(`tabs.${tab}`)}
              panel={<TabPanel tab={tab} profile={data} config={config.data} />}
            />
          ))}
          {isAdmin && (
            <Tab id="access" title={t('privacy.accessTab')} panel={<AccessLogTab profileId={data.id} />} />
          )}
        </Tabs>
      </section>
      <ProfileSidebar profileId={data.id} bioPay={config.data.active_services.includes('biopay')} />
    </div>
  );
}

function TabPanel({ tab, profile, config }: { tab: ProfileTab; profile: Profile; config: CompanyConfig }) {
  if (tab === 'info') return <ProfileInfoTab profile={profile} />;
  if (tab === 'verification') return <VerificationStepsTab profile={profile} config={config} />;
  if (tab === 'aiAgent') return <AiAgentTab profileId={profile.id} />;
  if (tab === 'aml') return <AmlTab profile={profile} />;
  if (tab === 'transactions') return <TransactionsTab profileId={profile.id} />;
  if (tab === 'questionnaires') return <QuestionnairesTab profileId={profile.id} />;
  if (tab === 'documents') return <DocumentsTab profileId={profile.id} />;
  // The last tab: 'videoCalls'.
  return <VideoCallsTab profileId={profile.id} />;
}
