/**
 * CSV export of the detailed call report (pure: no DOM). RFC 4180: fields with a comma, quote or line
 * break are quoted, quotes doubled, lines end with CRLF. Text that a spreadsheet would run as a formula
 * (=, +, -, @ first) is prefixed with an apostrophe (agent names come from users).
 */
import { csvField, csvLine } from '#contract/csv';
import type { CallFigures, CallReport } from '#contract/stats';

export interface CsvLabels {
  /** Column titles. */
  group: string;
  date: string;
  agent: string;
  status: string;
  calls: string;
  answered: string;
  handled: string;
  averageHandling: string;
  totalHandling: string;
  /** Status names by code 0..9. */
  statuses: readonly string[];
  /** Section names. */
  byDay: string;
  byAgent: string;
  byStatus: string;
  total: string;
  noAgent: string;
}

export { csvField, csvLine };

/** Seconds with one decimal (empty when there is no figure). */
const seconds = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

function figureFields(row: CallFigures): (string | number | null)[] {
  return [
    row.calls,
    row.answered,
    row.handled,
    seconds(row.average_handling_seconds),
    seconds(row.total_handling_seconds),
    ...row.statuses,
  ];
}

/**
 * The report as one CSV table: a first column naming the section (by day, by agent, total), then the
 * day or agent, the counts, handling times in seconds and one column per call status; then the status
 * totals as a section of their own.
 */
export function callReportCsv(report: CallReport, labels: CsvLabels): string {
  const header = [
    labels.group,
    `${labels.date} / ${labels.agent}`,
    labels.calls,
    labels.answered,
    labels.handled,
    labels.averageHandling,
    labels.totalHandling,
    ...labels.statuses,
  ];
  const lines = [csvLine(header)];
  for (const day of report.by_day) lines.push(csvLine([labels.byDay, day.date, ...figureFields(day)]));
  for (const row of report.by_agent)
    lines.push(csvLine([labels.byAgent, row.agent?.name ?? labels.noAgent, ...figureFields(row)]));
  lines.push(
    csvLine([labels.total, `${report.start_date} – ${report.end_date}`, ...figureFields(report.totals)]),
  );
  lines.push('');
  lines.push(csvLine([labels.byStatus, labels.status, labels.calls]));
  for (const row of report.by_status)
    lines.push(csvLine([labels.byStatus, labels.statuses[row.code] ?? String(row.code), row.calls]));
  return `${lines.join('\r\n')}\r\n`;
}

/** The export's file name: `call-report_<start>_<end>.csv`. */
export const callReportFileName = (report: Pick<CallReport, 'start_date' | 'end_date'>) =>
  `call-report_${report.start_date}_${report.end_date}.csv`;
