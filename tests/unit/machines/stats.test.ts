import { describe, expect, it } from 'vitest';
import type { CallReport } from '#contract/stats';
import {
  bucketOf,
  daysInRange,
  eachBucket,
  eachDay,
  isIsoDate,
  lastMonths,
  monthsBefore,
} from '#contract/statsRange';
import { type CsvLabels, callReportCsv, callReportFileName, csvField } from '../../../src/machines/statsCsv';
import { durationParts, lastDays, share } from '../../../src/machines/statsFigures';

const zeros = () => Array.from({ length: 10 }, () => 0);
const figures = (calls: number, statuses = zeros()) => ({
  calls,
  answered: calls,
  handled: calls,
  average_handling_seconds: calls ? 90.25 : null,
  total_handling_seconds: calls * 90.25,
  statuses,
});

describe('statistics date ranges', () => {
  it('checks real dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-2-1')).toBe(false);
  });
  it('counts days with both ends and lists them', () => {
    expect(daysInRange('2024-02-28', '2024-03-01')).toBe(3);
    expect(eachDay('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });
  it('goes back whole months, keeping the day or the month’s last day', () => {
    expect(monthsBefore('2026-11-22', 6)).toBe('2026-05-22');
    expect(monthsBefore('2026-08-31', 6)).toBe('2026-02-28');
    expect(monthsBefore('2026-03-15', 6)).toBe('2025-09-15');
    expect(lastMonths('2026-11-22')).toEqual({ start: '2026-05-22', end: '2026-11-22' });
  });
  it('buckets by week up to 92 days, else by month', () => {
    expect(bucketOf('2024-01-01', '2024-04-01')).toBe('week');
    expect(bucketOf('2024-01-01', '2024-04-02')).toBe('month');
    expect(eachBucket('2024-02-28', '2024-03-12', 'week')).toEqual([
      '2024-02-26',
      '2024-03-04',
      '2024-03-11',
    ]);
    expect(eachBucket('2024-11-15', '2025-01-02', 'month')).toEqual([
      '2024-11-01',
      '2024-12-01',
      '2025-01-01',
    ]);
  });
  it('defaults the call report to the last 30 days', () => {
    expect(lastDays(new Date('2026-11-22T23:00:00Z'))).toEqual({ start: '2026-10-24', end: '2026-11-22' });
  });
});

describe('statistics figures', () => {
  it('splits durations', () => {
    expect(durationParts(null)).toBeNull();
    expect(durationParts(42.4)).toEqual({ kind: 'seconds', s: 42 });
    expect(durationParts(252)).toEqual({ kind: 'minutes', m: 4, s: 12 });
    expect(durationParts(3 * 3600 + 125)).toEqual({ kind: 'hours', h: 3, m: 2 });
  });
  it('gives shares in percent with one decimal', () => {
    expect(share(1, 3)).toBe(33.3);
    expect(share(0, 0)).toBe(0);
  });
});

describe('call report CSV', () => {
  const labels: CsvLabels = {
    group: 'Group',
    date: 'Date',
    agent: 'Agent',
    status: 'Status',
    calls: 'Calls',
    answered: 'Answered',
    handled: 'Handled',
    averageHandling: 'Average handling (s)',
    totalHandling: 'Total handling (s)',
    statuses: ['W', 'T', 'M', 'C', 'I', 'E', 'B', 'CE', 'D', 'S'],
    byDay: 'Day',
    byAgent: 'Agent',
    byStatus: 'Status',
    total: 'Total',
    noAgent: 'No agent',
  };
  const statuses = zeros();
  statuses[3] = 2;
  const report: CallReport = {
    start_date: '2024-03-01',
    end_date: '2024-03-02',
    totals: figures(2, statuses),
    by_status: statuses.map((calls, code) => ({ code, calls })),
    by_day: [
      { date: '2024-03-01', ...figures(2, statuses) },
      { date: '2024-03-02', ...figures(0) },
    ],
    by_agent: [
      { agent: { id: 1, name: 'Yılmaz, "Ada"' }, ...figures(1) },
      { agent: { id: 2, name: '=HYPERLINK("x")' }, ...figures(1) },
      { agent: null, ...figures(0) },
    ],
  };

  it('quotes commas and quotes, and defuses formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
  });

  it('writes the table: header, days, agents, total, then the status counts', () => {
    const lines = callReportCsv(report, labels).split('\r\n');
    expect(lines[0]).toBe(
      'Group,Date / Agent,Calls,Answered,Handled,Average handling (s),Total handling (s),W,T,M,C,I,E,B,CE,D,S',
    );
    expect(lines[1]).toBe('Day,2024-03-01,2,2,2,90.3,180.5,0,0,0,2,0,0,0,0,0,0');
    expect(lines[2]).toBe('Day,2024-03-02,0,0,0,,0,0,0,0,0,0,0,0,0,0,0');
    expect(lines[3]).toBe('Agent,"Yılmaz, ""Ada""",1,1,1,90.3,90.3,0,0,0,0,0,0,0,0,0,0');
    expect(lines[4]).toBe('Agent,"\'=HYPERLINK(""x"")",1,1,1,90.3,90.3,0,0,0,0,0,0,0,0,0,0');
    expect(lines[5]).toBe('Agent,No agent,0,0,0,,0,0,0,0,0,0,0,0,0,0,0');
    expect(lines[6]).toBe('Total,2024-03-01 – 2024-03-02,2,2,2,90.3,180.5,0,0,0,2,0,0,0,0,0,0');
    expect(lines[7]).toBe('');
    expect(lines[8]).toBe('Status,Status,Calls');
    expect(lines[12]).toBe('Status,C,2');
    expect(lines).toHaveLength(8 + 1 + 10 + 1);
    expect(callReportFileName(report)).toBe('call-report_2024-03-01_2024-03-02.csv');
  });
});

describe('landing tiles', () => {
  it('shows only the screens the account may visit', async () => {
    const { visibleTiles } = await import('../../../src/ui/screens/landing/tiles');
    const { ROLE_PERMISSIONS } = await import('#contract/constants');
    const names = (role: 'Admin' | 'User' | 'Restricted User') =>
      visibleTiles({ role, permissions: [...ROLE_PERMISSIONS[role]] }).map((tile) => tile.name);
    expect(names('Admin')).toEqual([
      'customers',
      'calls',
      'callStats',
      'dashboard',
      'entities',
      'admin',
      'settings',
      'companySettings',
    ]);
    expect(names('User')).toEqual(['customers', 'calls', 'callStats', 'dashboard', 'settings']);
    expect(names('Restricted User')).toEqual(['customers', 'settings']);
  });
});
