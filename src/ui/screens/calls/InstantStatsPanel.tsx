import { Card, H3, Intent, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AGENT_STATUSES } from '#contract/constants';
import type { InstantStats } from '#contract/socket';
import { agentsByStatus, agentsInCall, waitFigures } from '../../../machines/instantStats';
import { formatDuration } from '../../components/useWaited';

/** The current time, moving every second. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="studio-figure">
      <dt className="studio-figure-label">{label}</dt>
      <dd className="studio-figure-value" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Instant stats: pushed by the server as they change; waits count up between pushes. */
export function InstantStatsPanel({ stats }: { stats: InstantStats | null }) {
  const { t } = useTranslation('calls');
  const now = useNow();
  if (!stats)
    return (
      <Card className="studio-calls-stats">
        <H3>{t('stats.title')}</H3>
        <p className="studio-muted">{t('stats.loading')}</p>
      </Card>
    );
  const waits = waitFigures(stats.waiting, now);
  const byStatus = agentsByStatus(stats.agents);
  const none = t('stats.none');
  return (
    <Card className="studio-calls-stats">
      <H3>{t('stats.title')}</H3>
      <dl className="studio-figures">
        <Figure testId="stat-waiting" label={t('stats.waiting')} value={String(waits.waiting)} />
        <Figure
          testId="stat-longest"
          label={t('stats.longestWait')}
          value={waits.waiting ? formatDuration(waits.longest) : none}
        />
        <Figure
          testId="stat-average"
          label={t('stats.averageWait')}
          value={waits.waiting ? formatDuration(waits.average) : none}
        />
        <Figure testId="stat-talking" label={t('stats.inProgress')} value={String(stats.talking)} />
        <Figure
          testId="stat-answered"
          label={t('stats.answeredToday')}
          value={String(stats.answered_today)}
        />
        <Figure testId="stat-missed" label={t('stats.missedToday')} value={String(stats.missed_today)} />
        <Figure
          testId="stat-handling"
          label={t('stats.averageHandling')}
          value={stats.average_handling_s === null ? none : formatDuration(stats.average_handling_s)}
        />
      </dl>
      <ul className="studio-agent-counts" aria-label={t('stats.agentsByStatus')}>
        {AGENT_STATUSES.map((status) => (
          <li key={status}>
            <Tag
              key={status}
              minimal
              round
              intent={status === 'Online' ? Intent.SUCCESS : Intent.NONE}
              data-testid={`agents-${status}`}
            >
              {`${t(`realtime.status.${status}`)}: ${byStatus[status]}`}
            </Tag>
          </li>
        ))}
        <li>
          <Tag minimal round intent={Intent.PRIMARY} data-testid="agents-in-call">
            {`${t('stats.inCall')}: ${agentsInCall(stats.agents)}`}
          </Tag>
        </li>
      </ul>
    </Card>
  );
}
