import { Button, Callout, Card, Classes, H2, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_STATUSES, PROFILE_STATUSES } from '#contract/constants';
import type { Bitool } from '#contract/stats';
import { BITOOL_MAX_DAYS, dayOf, lastMonths } from '#contract/statsRange';
import { periodLabel } from '../../../machines/statsFigures';
import { type DayRange, getBitool, statsKeys } from '../../../services/api/stats';
import { usePageTitle } from '../../app/usePageTitle';
import { BarChartCard } from '../stats/BarChartCard';
import { CALL_STATUS_COLORS, OUTCOME_COLORS, PROFILE_STATUS_COLORS } from '../stats/chartColors';
import { RangePicker } from '../stats/RangePicker';
import '../stats/stats.css';
import { ReviewDeskSection } from './ReviewDeskSection';
import './reviewDesk.css';

/**
 * /dashboard: GET /bitool, the last 6 months by default (docs/product/constants.md), with a date range
 * picker; charts of new profiles by status, approvals and rejections, document checks, AML screenings
 * and call outcomes; for reviewers, the reviewers' desk.
 */
export function DashboardScreen() {
  const { t } = useTranslation('stats');
  const title = t('dashboard.title');
  usePageTitle(title);
  const [today] = useState(() => dayOf(new Date()));
  const [range, setRange] = useState<DayRange>(() => lastMonths(today));
  const bitool = useQuery({
    queryKey: statsKeys.bitool(range),
    queryFn: ({ signal }) => getBitool(range, { signal }),
    placeholderData: keepPreviousData,
  });
  const data = bitool.data;
  const empty =
    data &&
    data.totals.profiles +
      data.totals.documents +
      data.totals.aml_screenings +
      data.totals.calls +
      data.totals.approved +
      data.totals.rejected ===
      0;

  return (
    <section className="studio-page studio-page-wide studio-stats" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <p className={Classes.TEXT_MUTED}>{t('dashboard.description')}</p>
      <div className="studio-stats-toolbar">
        <RangePicker value={range} onChange={setRange} maxDays={BITOOL_MAX_DAYS} today={today} />
        {data && (
          <Tag minimal className="studio-stats-note">
            {data.bucket === 'week' ? t('dashboard.byWeek') : t('dashboard.byMonth')}
          </Tag>
        )}
        <p className={`studio-stats-note ${Classes.TEXT_MUTED}`}>{t('range.utc')}</p>
      </div>
      {bitool.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-stats-message">
          {t('dashboard.failed')}{' '}
          <Button
            variant="minimal"
            icon="refresh"
            text={t('dashboard.retry')}
            onClick={() => bitool.refetch()}
          />
        </Callout>
      )}
      {bitool.isPending && <Spinner className="studio-stats-message" aria-label={t('dashboard.loading')} />}
      {empty && (
        <NonIdealState
          icon="dashboard"
          title={t('dashboard.empty.title')}
          description={t('dashboard.empty.body')}
          className="studio-stats-message"
        />
      )}
      {data && !empty && <DashboardBody data={data} busy={bitool.isFetching} />}
      <ReviewDeskSection today={today} />
    </section>
  );
}

function DashboardBody({ data, busy }: { data: Bitool; busy: boolean }) {
  const { t, i18n } = useTranslation('stats');
  const number = new Intl.NumberFormat(i18n.language);
  const label = (period: string) => periodLabel(period, data.bucket, i18n.language);
  const { totals } = data;
  const cards = [
    { key: 'profiles', label: t('dashboard.totals.profiles'), value: totals.profiles },
    { key: 'approved', label: t('dashboard.totals.approved'), value: totals.approved },
    { key: 'rejected', label: t('dashboard.totals.rejected'), value: totals.rejected },
    { key: 'documents', label: t('dashboard.totals.documents'), value: totals.documents },
    { key: 'aml', label: t('dashboard.totals.amlScreenings'), value: totals.aml_screenings },
    { key: 'hits', label: t('dashboard.totals.amlHits'), value: totals.aml_hits },
    { key: 'calls', label: t('dashboard.totals.calls'), value: totals.calls },
  ];
  const profileStatuses = PROFILE_STATUSES.filter((status) =>
    data.periods.some((period) => period.profiles[status] > 0),
  );
  const callStatuses = CALL_STATUSES.map((_, code) => code).filter((code) =>
    data.call_outcomes.some((row) => row.code === code && row.calls > 0),
  );

  return (
    <div aria-busy={busy}>
      <dl className="studio-stats-totals">
        {cards.map((card) => (
          <Card key={card.key} compact className="studio-stats-total">
            <dt className={Classes.TEXT_MUTED}>{card.label}</dt>
            <dd className="studio-stats-total-value">{number.format(card.value)}</dd>
          </Card>
        ))}
      </dl>
      <div className="studio-stats-charts">
        <BarChartCard
          title={t('dashboard.charts.profiles')}
          rows={data.periods.map((p) => ({ period: p.period, ...p.profiles }))}
          xKey="period"
          formatX={label}
          stacked
          series={profileStatuses.map((status) => ({
            key: status,
            // Keyed by position: status names hold dots and spaces.
            label: t(`profileStatus.${PROFILE_STATUSES.indexOf(status)}` as 'profileStatus.0'),
            color: PROFILE_STATUS_COLORS[PROFILE_STATUSES.indexOf(status)] ?? OUTCOME_COLORS.neutral,
          }))}
        />
        <BarChartCard
          title={t('dashboard.charts.decisions')}
          rows={data.periods}
          xKey="period"
          formatX={label}
          series={[
            { key: 'approved', label: t('dashboard.series.approved'), color: OUTCOME_COLORS.positive },
            {
              key: 'temporarily_approved',
              label: t('dashboard.series.temporarilyApproved'),
              color: OUTCOME_COLORS.mild,
            },
            { key: 'rejected', label: t('dashboard.series.rejected'), color: OUTCOME_COLORS.negative },
            { key: 'blacklisted', label: t('dashboard.series.blacklisted'), color: OUTCOME_COLORS.severe },
          ]}
        />
        <BarChartCard
          title={t('dashboard.charts.checks')}
          rows={data.document_checks.map((row) => ({
            ...row,
            kindLabel: t(`dashboard.checkKind.${row.kind}` as 'dashboard.checkKind.document'),
          }))}
          xKey="kindLabel"
          stacked
          series={
            totals.documents === 0
              ? []
              : [
                  { key: 'passed', label: t('dashboard.series.passed'), color: OUTCOME_COLORS.positive },
                  { key: 'warning', label: t('dashboard.series.warning'), color: OUTCOME_COLORS.warning },
                  { key: 'failed', label: t('dashboard.series.failed'), color: OUTCOME_COLORS.negative },
                  { key: 'not_run', label: t('dashboard.series.notRun'), color: OUTCOME_COLORS.neutral },
                ]
          }
        />
        <BarChartCard
          title={t('dashboard.charts.aml')}
          rows={data.periods}
          xKey="period"
          formatX={label}
          series={
            totals.aml_screenings === 0
              ? []
              : [
                  {
                    key: 'aml_screenings',
                    label: t('dashboard.series.screenings'),
                    color: OUTCOME_COLORS.primary,
                  },
                  { key: 'aml_hits', label: t('dashboard.series.hits'), color: OUTCOME_COLORS.negative },
                  { key: 'aml_errors', label: t('dashboard.series.errors'), color: OUTCOME_COLORS.warning },
                ]
          }
        />
        <BarChartCard
          title={t('dashboard.charts.calls')}
          rows={data.periods.map((p) => ({
            period: p.period,
            ...Object.fromEntries(p.call_statuses.map((n, code) => [`s${code}`, n])),
          }))}
          xKey="period"
          formatX={label}
          stacked
          series={callStatuses.map((code) => ({
            key: `s${code}`,
            label: t(`status.${code}` as 'status.0'),
            color: CALL_STATUS_COLORS[code] ?? OUTCOME_COLORS.neutral,
          }))}
        />
      </div>
    </div>
  );
}
