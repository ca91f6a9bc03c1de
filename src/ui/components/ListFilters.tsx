import { Button, Callout, ControlGroup, InputGroup, Intent } from '@blueprintjs/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLeaving } from '../app/navigation';
import { useFormat } from '../format';
import type { DateRangeFilterProps } from './DateRangeInputs';

/** How long typing settles before it becomes the list's (the URL's) search. */
const SEARCH_SETTLES_MS = 300;

/**
 * The search box of a list filtered on the server: what is typed becomes the view's `search` (trimmed) once
 * typing has settled, and follows `value` when the view changes otherwise (Back, a cleared filter). `update`
 * is the view's own (stable) update function.
 */
export function SearchFilter({
  value,
  update,
  placeholder,
  label,
}: {
  value: string;
  update: (change: { search: string }) => void;
  placeholder: string;
  label: string;
}) {
  const [search, setSearch] = useState(value);
  useEffect(() => {
    if (search === value) return;
    const timer = setTimeout(() => update({ search: search.trim() }), SEARCH_SETTLES_MS);
    return () => clearTimeout(timer);
  }, [search, value, update]);
  useEffect(() => setSearch(value), [value]);
  return (
    <InputGroup
      leftIcon="search"
      type="search"
      placeholder={placeholder}
      aria-label={label}
      value={search}
      onValueChange={setSearch}
      className="studio-filter-search"
    />
  );
}

const DateRangeInputs = lazy(() => import('./DateRangeInputs'));

/**
 * A from–to pair of dates typed and shown in the interface language (neither can pass the other). The
 * calendar and its date library load as their own chunk, so a list shows before them; meanwhile the two
 * fields show the dates, read-only. They show so again while the list is being left for another screen: the
 * calendar's popover sets state as it unmounts, and unmounted with the list it would hold the next screen's
 * first paint back behind all of that screen's effects (navigation.tsx, `useLeaving`).
 */
export function DateRangeFilter(props: DateRangeFilterProps) {
  const readOnly = <ReadOnlyDates {...props} />;
  if (useLeaving()) return readOnly;
  return (
    <Suspense fallback={readOnly}>
      <DateRangeInputs {...props} />
    </Suspense>
  );
}

/** The filter's two dates as plain read-only fields, looking as the date inputs do. */
function ReadOnlyDates({ from, to, labels }: DateRangeFilterProps) {
  const format = useFormat();
  const shown = (day: string) => (day ? format.day(day) : '');
  return (
    <ControlGroup>
      <InputGroup readOnly aria-label={labels.from} placeholder={labels.from} value={shown(from)} />
      <InputGroup readOnly aria-label={labels.to} placeholder={labels.to} value={shown(to)} />
    </ControlGroup>
  );
}

/** A list that did not load: what failed, and a button to ask again. */
export function LoadFailed({ text, retry, onRetry }: { text: string; retry: string; onRetry: () => void }) {
  return (
    <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-list-message">
      {text} <Button variant="minimal" icon="refresh" text={retry} onClick={onRetry} />
    </Callout>
  );
}
