import {
  Button,
  Callout,
  Card,
  Classes,
  H3,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Tab,
  Tabs,
} from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_STATUSES } from '#contract/constants';
import type { CallFigures, CallReport as Report } from '#contract/stats';
import { REPORT_MAX_DAYS } from '#contract/statsRange';
import { type CsvLabels, callReportCsv, callReportFileName } from '../../../machines/statsCsv';
import { COMPLETE, lastDays, MISSED, share } from '../../../machines/statsFigures';
import { type DayRange, getCallReport, statsKeys } from '../../../services/api/stats';
import { saveTextFile } from '../../../services/download';
import { useFormat } from '../../format';
import { BarChartCard, type Series } from './BarChartCard';
import { CALL_STATUS_COLORS } from './chartColors';
import { RangePicker } from './RangePicker';
import './stats.css';

type Breakdown = 'day' | 'agent' | 'status';

/**
 * Detailed call statistics: GET /videocall/report for a chosen range (the last 30
 * days at first), totals, a chart and a table by day, agent and status, and the table as CSV.
 * Needs no props; the calls screen shows it in its Detailed statistics tab (/calls?tab=report).
 */
export function CallReport({
  initialRange,
  showTitle = true,
}: {
  initialRange?: DayRange;
  /** false: the page around it already carries the title. */
  showTitle?: boolean;
} = {}) {
  const { t } = useTranslation('stats');
  const [today] = useState(() => lastDays(new Date()).end);
  const [range, setRange] = useState<DayRange>(() => initialRange ?? lastDays(new Date()));
  const report = useQuery({
    queryKey: statsKeys.report(range),
    queryFn: ({ signal }) => getCallReport(range, { signal }),
    placeholderData: keepPreviousData,
  });
  const csvLabels = useCsvLabels();
  const data = report.data;

  return (
    <section
      className="studio-stats"
      aria-labelledby={showTitle ? 'call-report-title' : undefined}
      aria-label={showTitle ? undefined : t('report.title')}
    >
      {showTitle && <H3 id="call-report-title">{t('report.title')}</H3>}
      <p className={Classes.TEXT_MUTED}>{t('report.description')}</p>
      <div className="studio-stats-toolbar">
        <RangePicker value={range} onChange={setRange} maxDays={REPORT_MAX_DAYS} today={today} />
        <Button
          icon="download"
          text={t('report.export')}
          disabled={!data || data.totals.calls === 0}
          onClick={() => data && saveTextFile(callReportFileName(data), callReportCsv(data, csvLabels))}
        />
        <p className={`studio-stats-note ${Classes.TEXT_MUTED}`}>{t('range.utc')}</p>
      </div>
      {report.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-stats-message">
          {t('report.failed')}{' '}
          <Button
            variant="minimal"
            icon="refresh"
            text={t('report.retry')}
            onClick={() => report.refetch()}
          />
        </Callout>
      )}
      {report.isPending && <Spinner className="studio-stats-message" aria-label={t('report.loading')} />}
      {data && data.totals.calls === 0 && (
        <NonIdealState
          icon="timeline-bar-chart"
          title={t('report.empty.title')}
          description={t('report.empty.body')}
          className="studio-stats-message"
        />
      )}
      {data && data.totals.calls > 0 && <ReportBody report={data} busy={report.isFetching} />}
    </section>
  );
}

function useCsvLabels(): CsvLabels {
  const { t } = useTranslation('stats');
  return {
    group: t('report.csv.group'),
    date: t('report.csv.date'),
    agent: t('report.csv.agent'),
    status: t('report.csv.status'),
    calls: t('report.csv.calls'),
    answered: t('report.csv.answered'),
    handled: t('report.csv.handled'),
    averageHandling: t('report.csv.averageHandling'),
    totalHandling: t('report.csv.totalHandling'),
    statuses: CALL_STATUSES.map((_, code) => t(`status.${code}` as 'status.0')),
    byDay: t('report.csv.byDay'),
    byAgent: t('report.csv.byAgent'),
    byStatus: t('report.csv.byStatus'),
    total: t('report.csv.total'),
    noAgent: t('report.csv.noAgent'),
  };
}

function ReportBody({ report, busy }: { report: Report; busy: boolean }) {
  const { t } = useTranslation('stats');
  const { duration, number, shortDay: dayLabel } = useFormat();
  const [tab, setTab] = useState<Breakdown>('day');
  const statusName = (code: number) => t(`status.${code}` as 'status.0');
  const { totals } = report;
  const present = CALL_STATUSES.map((_, code) => code).filter((code) => (totals.statuses[code] ?? 0) > 0);
  const statusSeries: Series[] = present.map((code) => ({
    key: `s${code}`,
    label: statusName(code),
    color: CALL_STATUS_COLORS[code] ?? CALL_STATUS_COLORS[0],
  }));
  const withStatuses = (row: CallFigures) =>
    Object.fromEntries(present.map((code) => [`s${code}`, row.statuses[code] ?? 0]));
  const agentName = (row: Report['by_agent'][number]) => row.agent?.name ?? t('report.table.noAgent');

  const cards = [
    { label: t('report.totals.calls'), value: number(totals.calls) },
    { label: t('report.totals.answered'), value: number(totals.answered) },
    { label: t('report.totals.missed'), value: number(totals.statuses[MISSED] ?? 0) },
    { label: t('report.totals.completed'), value: number(totals.statuses[COMPLETE] ?? 0) },
    { label: t('report.totals.averageHandling'), value: duration(totals.average_handling_seconds) },
  ];

  return (
    <div aria-busy={busy}>
      <dl className="studio-stats-totals">
        {cards.map((card) => (
          <Card key={card.label} compact className="studio-stats-total">
            <dt className={Classes.TEXT_MUTED}>{card.label}</dt>
            <dd className="studio-stats-total-value">{card.value}</dd>
          </Card>
        ))}
      </dl>
      <Tabs
        id="call-report-breakdown"
        aria-label={t('report.tabs.label')}
        selectedTabId={tab}
        onChange={(id) => setTab(id as Breakdown)}
        renderActiveTabPanelOnly
      >
        <Tab
          disabled={false}
          id="day"
          title={t('report.tabs.day')}
          panel={
            <>
              <BarChartCard
                title={t('report.charts.day')}
                rows={report.by_day.map((row) => ({ date: row.date, ...withStatuses(row) }))}
                xKey="date"
                series={statusSeries}
                stacked
                formatX={dayLabel}
              />
              <FiguresTable
                label={t('report.table.dayTable')}
                first={t('report.table.date')}
                rows={report.by_day
                  .filter((row) => row.calls > 0)
                  .map((row) => ({ key: row.date, name: row.date, row }))}
                totals={totals}
              />
            </>
          }
        />
        <Tab
          disabled={false}
          id="agent"
          title={t('report.tabs.agent')}
          panel={
            <>
              <BarChartCard
                title={t('report.charts.agent')}
                rows={report.by_agent.map((row) => ({ agent: agentName(row), ...withStatuses(row) }))}
                xKey="agent"
                series={statusSeries}
                stacked
                layout="vertical"
                height={Math.max(200, 36 * report.by_agent.length + 60)}
              />
              <FiguresTable
                label={t('report.table.agentTable')}
                first={t('report.table.agent')}
                rows={report.by_agent.map((row) => ({
                  key: String(row.agent?.id ?? 'none'),
                  name: agentName(row),
                  row,
                }))}
                totals={totals}
              />
            </>
          }
        />
        <Tab
          disabled={false}
          id="status"
          title={t('report.tabs.status')}
          panel={
            <>
              <BarChartCard
                title={t('report.charts.status')}
                rows={report.by_status.map((row) => ({ status: statusName(row.code), calls: row.calls }))}
                xKey="status"
                series={[{ key: 'calls', label: t('report.table.calls'), color: CALL_STATUS_COLORS[1] }]}
                layout="vertical"
                height={380}
              />
              <HTMLTable
                compact
                striped
                className="studio-stats-table"
                aria-label={t('report.table.statusTable')}
              >
                <thead>
                  <tr>
                    <th scope="col">{t('report.table.status')}</th>
                    <th scope="col" className="studio-number">
                      {t('report.table.calls')}
                    </th>
                    <th scope="col" className="studio-number">
                      {t('report.table.share')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.by_status.map((row) => (
                    <tr key={row.code}>
                      <td>{statusName(row.code)}</td>
                      <td className="studio-number">{number(row.calls)}</td>
                      <td className="studio-number">{`${number(share(row.calls, totals.calls))} %`}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </>
          }
        />
      </Tabs>
    </div>
  );
}

/** The figures of days or agents, with a total row. */
function FiguresTable({
  label,
  first,
  rows,
  totals,
}: {
  label: string;
  first: string;
  rows: { key: string; name: string; row: CallFigures }[];
  totals: CallFigures;
}) {
  const { t } = useTranslation('stats');
  const { duration, number } = useFormat();
  const cells = (row: CallFigures) => (
    <>
      <td className="studio-number">{number(row.calls)}</td>
      <td className="studio-number">{number(row.answered)}</td>
      <td className="studio-number">{number(row.statuses[MISSED] ?? 0)}</td>
      <td className="studio-number">{number(row.statuses[COMPLETE] ?? 0)}</td>
      <td className="studio-number">{duration(row.average_handling_seconds)}</td>
      <td className="studio-number">{duration(row.total_handling_seconds)}</td>
    </>
  );
  return (
    <div className="studio-stats-scroll">
      <HTMLTable compact striped className="studio-stats-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col" className="studio-number">
              {t('report.table.calls')}
            </th>
            <th scope="col" className="studio-number">
              {t('report.table.answered')}
            </th>
            <th scope="col" className="studio-number">
              {t('report.totals.missed')}
            </th>
            <th scope="col" className="studio-number">
              {t('report.totals.completed')}
            </th>
            <th scope="col" className="studio-number">
              {t('report.table.averageHandling')}
            </th>
            <th scope="col" className="studio-number">
              {t('report.table.totalHandling')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, name, row }) => (
            <tr key={key}>
              <th scope="row">{name}</th>
              {cells(row)}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td>{t('report.table.total')}</td>
            {cells(totals)}
          </tr>
        </tfoot>
      </HTMLTable>
    </div>
  );
}
