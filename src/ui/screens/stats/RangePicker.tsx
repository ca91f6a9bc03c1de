import { Intent } from '@blueprintjs/core';
import { type DateRange, DateRangeInput, type DateRangeShortcut } from '@blueprintjs/datetime';
import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import enUS from 'date-fns/locale/en-US';
import tr from 'date-fns/locale/tr';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addDays, daysInRange, lastMonths } from '#contract/statsRange';
import type { DayRange } from '../../../services/api/stats';
import { useDateRangeGroup } from '../../components/useDateRangeGroup';
import { DATE_INPUT_PATTERN, toDate, toDay } from '../../format';

/**
 * The statistics' date range: Blueprint's DateRangeInput (the former DateRangeInput3 of datetime2, now in
 * @blueprintjs/datetime 6) with dates typed and shown as the studio writes them ("Nov 25, 2026"), shortcuts, and at most `maxDays` days. A new
 * range is passed on only when both ends are chosen and it is allowed.
 */
export function RangePicker({
  value,
  onChange,
  maxDays,
  today,
}: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  maxDays: number;
  /** Today (`YYYY-MM-DD`): the latest day that can be chosen. */
  today: string;
}) {
  const { t, i18n } = useTranslation('stats');
  const [draft, setDraft] = useState<DateRange>([toDate(value.start), toDate(value.end)]);
  const [tooLong, setTooLong] = useState(false);
  useEffect(() => setDraft([toDate(value.start), toDate(value.end)]), [value.start, value.end]);

  const range = (start: string, end: string): DateRange => [toDate(start), toDate(end)];
  const sixMonths = lastMonths(today);
  const shortcuts: DateRangeShortcut[] = [
    { label: t('range.lastDays', { n: 7 }), dateRange: range(addDays(today, -6), today) },
    { label: t('range.lastDays', { n: 30 }), dateRange: range(addDays(today, -29), today) },
    { label: t('range.thisMonth'), dateRange: range(`${today.slice(0, 7)}-01`, today) },
    { label: t('range.lastMonths'), dateRange: range(sixMonths.start, sixMonths.end) },
  ].filter((s) => daysInRange(toDay(s.dateRange[0] as Date), today) <= maxDays);

  const change = (next: DateRange) => {
    setDraft(next);
    const [start, end] = next;
    if (!start || !end || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return;
    const chosen = { start: toDay(start), end: toDay(end) };
    const long = daysInRange(chosen.start, chosen.end) > maxDays;
    setTooLong(long);
    if (!long && (chosen.start !== value.start || chosen.end !== value.end)) onChange(chosen);
  };

  const wrapper = useDateRangeGroup(t('range.label'));

  return (
    <div className="studio-range" ref={wrapper}>
      <DateRangeInput
        value={draft}
        onChange={change}
        dateFnsFormat={DATE_INPUT_PATTERN}
        locale={i18n.language === 'tr' ? tr : enUS}
        allowSingleDayRange
        shortcuts={shortcuts}
        maxDate={toDate(today)}
        minDate={toDate('2000-01-01')}
        invalidDateMessage={t('range.invalid')}
        overlappingDatesMessage={t('range.overlapping')}
        outOfRangeMessage={t('range.outOfRange')}
        startInputProps={{ 'aria-label': t('range.start'), placeholder: t('range.placeholder') }}
        endInputProps={{
          'aria-label': t('range.end'),
          placeholder: t('range.placeholder'),
          intent: tooLong ? Intent.DANGER : Intent.NONE,
        }}
        popoverProps={{ placement: 'bottom-start' }}
      />
      {tooLong && (
        <p role="alert" className="studio-range-error">
          {t('range.tooLong', { days: maxDays })}
        </p>
      )}
    </div>
  );
}
