import { Callout, H2, Intent, Tab, Tabs } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { type RealtimeDesk, useRealtime } from '../../app/realtime/RealtimeProvider';
import { usePageTitle } from '../../app/usePageTitle';
import { CallReport } from '../stats/CallReport';
import { AgentBoard } from './AgentBoard';
import { InstantStatsPanel } from './InstantStatsPanel';
import { PendingUploads } from './PendingUploads';
import { useInstantStats } from './useInstantStats';
import { WaitingQueue } from './WaitingQueue';
import './calls.css';

/** calls (docs/product/screens.md): live (queue, instant stats, agents, recordings to upload) and the detailed statistics. */
export function CallsScreen() {
  const { t } = useTranslation('screens');
  const { t: tc } = useTranslation('calls');
  const realtime = useRealtime();
  const [query, setQuery] = useSearchParams();
  usePageTitle(t('calls.title'));
  const tab = query.get('tab') === 'report' ? 'report' : 'live';
  return (
    <section className="studio-calls" aria-labelledby="page-title">
      <H2 id="page-title">{t('calls.title')}</H2>
      <Tabs
        id="calls-tabs"
        selectedTabId={tab}
        onChange={(next) => setQuery(next === 'report' ? { tab: 'report' } : {}, { replace: true })}
        renderActiveTabPanelOnly
        aria-label={tc('tabs.label')}
      >
        <Tab
          disabled={false}
          id="live"
          title={tc('tabs.live')}
          panel={realtime ? <Live realtime={realtime} /> : <PendingUploads />}
        />
        <Tab disabled={false} id="report" title={tc('tabs.report')} panel={<CallReport />} />
      </Tabs>
    </section>
  );
}

function Live({ realtime }: { realtime: RealtimeDesk }) {
  const { t } = useTranslation('calls');
  const status = useSelector(realtime.availability, (s) => s.context.status);
  const stats = useInstantStats(realtime);
  return (
    <div className="studio-calls-live">
      {status !== null && status !== 'Online' && (
        <Callout intent={Intent.PRIMARY} icon="info-sign">
          {t('queue.offline')}
        </Callout>
      )}
      <InstantStatsPanel stats={stats} />
      <WaitingQueue desk={realtime.desk} />
      <AgentBoard agents={stats?.agents ?? []} />
      <PendingUploads />
    </div>
  );
}
