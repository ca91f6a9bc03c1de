import {
  Button,
  Callout,
  Card,
  Classes,
  H3,
  H4,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METRICS_DEFAULT_DAYS, METRICS_MAX_DAYS, type ReviewMetrics } from '#contract/reviewMetrics';
import { addDays } from '#contract/statsRange';
import { isApiError } from '../../../services/api/http';
import { listQueues } from '../../../services/api/review';
import { downloadReviewMetrics, getReviewMetrics, reviewAdminKeys } from '../../../services/api/reviewAdmin';
import type { DayRange } from '../../../services/api/stats';
import { hasPermission } from '../../../services/permissions';
import { useActiveAccount } from '../../app/useAccounts';
import { NO_VALUE, useFormat } from '../../format';
import { showError } from '../../toaster';
import { RangePicker } from '../stats/RangePicker';

/**
 * The reviewers' desk on the dashboard, for users with review_profiles: the queues as a
 * supervisor sees them now (open, overdue, awaiting a second review), and the metrics per reviewer and per
 * queue over a date range (the last 7 days by default), with their CSV.
 */
export function ReviewDeskSection({ today }: { today: string }) {
  const account = useActiveAccount();
  if (!account || !hasPermission(account, 'review_profiles')) return null;
  return <ReviewDesk today={today} companyId={account.company_id} />;
}

function ReviewDesk({ today, companyId }: { today: string; companyId: number }) {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const [range, setRange] = useState<DayRange>(() => ({
    start: addDays(today, -(METRICS_DEFAULT_DAYS - 1)),
    end: today,
  }));
  const queues = useQuery({
    queryKey: [...reviewAdminKeys.queues, companyId],
    queryFn: ({ signal }) => listQueues({ signal }),
  });
  const metrics = useQuery({
    queryKey: [...reviewAdminKeys.metrics(range), companyId],
    queryFn: ({ signal }) => getReviewMetrics(range, { signal }),
    placeholderData: keepPreviousData,
  });
  const csv = useMutation({
    mutationFn: () => downloadReviewMetrics(range),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });

  return (
    <section className="studio-review-desk" aria-labelledby="review-desk-title">
      <H3 id="review-desk-title">{t('dashboard.title')}</H3>
      <p className={Classes.TEXT_MUTED}>{t('dashboard.description')}</p>

      <H4 id="review-desk-queues">{t('dashboard.queuesTitle')}</H4>
      {queues.isPending && <Spinner size={24} aria-label={t('dashboard.queuesTitle')} />}
      {queues.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-stats-message">
          {t('dashboard.queuesFailed')}{' '}
          <Button variant="minimal" icon="refresh" text={t('retry')} onClick={() => queues.refetch()} />
        </Callout>
      )}
      {queues.data && (
        <ul className="studio-review-desk-queues" aria-labelledby="review-desk-queues">
          {queues.data.map((queue) => (
            <li key={queue.id}>
              <Card compact className="studio-review-desk-queue">
                <div className="studio-review-desk-queue-name">
                  {queue.name} {queue.senior && <Tag minimal>{t('queues.senior')}</Tag>}
                </div>
                <dl>
                  <div>
                    <dt className={Classes.TEXT_MUTED}>{t('dashboard.open')}</dt>
                    <dd>{queue.open}</dd>
                  </div>
                  <div>
                    <dt className={Classes.TEXT_MUTED}>{t('dashboard.overdue')}</dt>
                    <dd className={queue.overdue > 0 ? 'studio-review-desk-bad' : undefined}>
                      {queue.overdue}
                    </dd>
                  </div>
                  <div>
                    <dt className={Classes.TEXT_MUTED}>{t('dashboard.awaitingSecond')}</dt>
                    <dd>{queue.awaiting_second_review}</dd>
                  </div>
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <H4>{t('dashboard.metricsTitle')}</H4>
      <div className="studio-stats-toolbar">
        <RangePicker value={range} onChange={setRange} maxDays={METRICS_MAX_DAYS} today={today} />
        <Button
          icon="download"
          text={t('dashboard.csv')}
          loading={csv.isPending}
          disabled={!metrics.data}
          onClick={() => csv.mutate()}
        />
        <p className={`studio-stats-note ${Classes.TEXT_MUTED}`}>{t('dashboard.utc')}</p>
      </div>
      {metrics.isPending && <Spinner size={24} aria-label={t('dashboard.metricsTitle')} />}
      {metrics.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-stats-message">
          {t('dashboard.metricsFailed')}{' '}
          <Button variant="minimal" icon="refresh" text={t('retry')} onClick={() => metrics.refetch()} />
        </Callout>
      )}
      {metrics.data && <MetricsTables data={metrics.data} busy={metrics.isFetching} />}
    </section>
  );
}

function MetricsTables({ data, busy }: { data: ReviewMetrics; busy: boolean }) {
  const { t } = useTranslation('reviewAdmin');
  const format = useFormat();
  const count = (value: number) => format.number(value);
  const rate = (value: number | null) => (value === null ? NO_VALUE : format.number(value));
  const time = (value: number | null) => format.duration(value === null ? null : Math.round(value));
  return (
    <div aria-busy={busy} className="studio-review-desk-tables">
      <H4 className="studio-review-desk-subtitle">{t('dashboard.byReviewer')}</H4>
      {data.reviewers.length === 0 ? (
        <NonIdealState icon="people" title={t('dashboard.noReviewers')} />
      ) : (
        <div className="studio-review-desk-scroll">
          <HTMLTable
            compact
            striped
            className="studio-review-desk-table"
            aria-label={t('dashboard.byReviewer')}
          >
            <thead>
              <tr>
                <th scope="col">{t('dashboard.reviewer')}</th>
                <th scope="col">{t('dashboard.decisions')}</th>
                <th scope="col">{t('dashboard.perHour')}</th>
                <th scope="col">{t('dashboard.median')}</th>
                <th scope="col">{t('dashboard.p90')}</th>
                <th scope="col">{t('dashboard.breaches')}</th>
                <th scope="col">{t('dashboard.returns')}</th>
                <th scope="col">{t('dashboard.secondReviews')}</th>
              </tr>
            </thead>
            <tbody>
              {data.reviewers.map((r) => (
                <tr key={r.user}>
                  <th scope="row">{r.name}</th>
                  <td>{count(r.decisions)}</td>
                  <td>{rate(r.decisions_per_hour)}</td>
                  <td>{time(r.median_seconds)}</td>
                  <td>{time(r.p90_seconds)}</td>
                  <td>{count(r.sla_breaches)}</td>
                  <td>{count(r.four_eyes_returns)}</td>
                  <td>{count(r.second_reviews)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <H4 className="studio-review-desk-subtitle">{t('dashboard.byQueue')}</H4>
      <div className="studio-review-desk-scroll">
        <HTMLTable compact striped className="studio-review-desk-table" aria-label={t('dashboard.byQueue')}>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.queue')}</th>
              <th scope="col">{t('dashboard.open')}</th>
              <th scope="col">{t('dashboard.overdue')}</th>
              <th scope="col">{t('dashboard.decided')}</th>
              <th scope="col">{t('dashboard.breaches')}</th>
              <th scope="col">{t('dashboard.medianToDecision')}</th>
            </tr>
          </thead>
          <tbody>
            {data.queues.map((q) => (
              <tr key={q.queue}>
                <th scope="row">{q.name}</th>
                <td>{count(q.open)}</td>
                <td>{count(q.overdue)}</td>
                <td>{count(q.decided)}</td>
                <td>{count(q.sla_breaches)}</td>
                <td>{time(q.median_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <p className={Classes.TEXT_MUTED}>{t('dashboard.definitions')}</p>
    </div>
  );
}
