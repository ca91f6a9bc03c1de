import { type DateRange, DateRangeInput, type DateRangeShortcut } from '@blueprintjs/datetime';
import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import enUS from 'date-fns/locale/en-US';
import tr from 'date-fns/locale/tr';
import { useTranslation } from 'react-i18next';
import { DATE_INPUT_PATTERN, toDate, toDay } from '../format';
import { useDateRangeGroup } from './useDateRangeGroup';

/** The props of `DateRangeFilter` (ListFilters.tsx), which loads this chunk. */
export interface DateRangeFilterProps {
  /** `YYYY-MM-DD`, '' for an open end. */
  from: string;
  to: string;
  labels: { from: string; to: string; group: string };
  onChange: (range: { from: string; to: string }) => void;
}

/** The day of a picked end: '' when cleared, `kept` while what is typed is not a date. */
const dayOf = (date: Date | null, kept: string): string =>
  date === null ? '' : Number.isNaN(date.getTime()) ? kept : toDay(date);

/**
 * The from–to filter of a list as Blueprint's DateRangeInput (its own chunk, see `DateRangeFilter`): dates
 * typed and shown as the studio writes them ("Nov 25, 2026" / "25 Kas 2026"), a calendar, either end open.
 * A change is passed on once both ends are real dates or empty; a half-typed date changes nothing.
 */
export default function DateRangeInputs({ from, to, labels, onChange }: DateRangeFilterProps) {
  const { t, i18n } = useTranslation('common');

  // Blueprint's own shortcuts are English only: these are the studio's, in the interface language.
  const today = new Date();
  const day = (offset: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
  const shortcuts: DateRangeShortcut[] = [
    { label: t('dates.today'), dateRange: [day(0), day(0)] },
    { label: t('dates.lastDays', { n: 7 }), dateRange: [day(-6), day(0)] },
    { label: t('dates.lastDays', { n: 30 }), dateRange: [day(-29), day(0)] },
    { label: t('dates.thisMonth'), dateRange: [new Date(today.getFullYear(), today.getMonth(), 1), day(0)] },
    { label: t('dates.thisYear'), dateRange: [new Date(today.getFullYear(), 0, 1), day(0)] },
  ];

  const change = ([start, end]: DateRange) => {
    const next = { from: dayOf(start, from), to: dayOf(end, to) };
    if (next.from !== from || next.to !== to) onChange(next);
  };

  const wrapper = useDateRangeGroup(labels.group);

  return (
    <div className="studio-date-filter" ref={wrapper}>
      <DateRangeInput
        value={[from ? toDate(from) : null, to ? toDate(to) : null]}
        onChange={change}
        dateFnsFormat={DATE_INPUT_PATTERN}
        locale={i18n.language === 'tr' ? tr : enUS}
        allowSingleDayRange
        shortcuts={shortcuts}
        minDate={toDate('2000-01-01')}
        maxDate={toDate(`${new Date().getFullYear() + 1}-12-31`)}
        invalidDateMessage={t('dates.invalid')}
        overlappingDatesMessage={t('dates.overlapping')}
        outOfRangeMessage={t('dates.outOfRange')}
        startInputProps={{ 'aria-label': labels.from, title: labels.from, placeholder: labels.from }}
        endInputProps={{ 'aria-label': labels.to, title: labels.to, placeholder: labels.to }}
        popoverProps={{ placement: 'bottom-start' }}
      />
    </div>
  );
}
