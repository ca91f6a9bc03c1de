import { Button, Callout, InputGroup, Intent } from '@blueprintjs/core';
import { useEffect, useState } from 'react';

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

/** A from–to pair of dates (YYYY-MM-DD, '' for open); neither can pass the other. */
export function DateRangeFilter({
  from,
  to,
  labels,
  onFrom,
  onTo,
}: {
  from: string;
  to: string;
  labels: { from: string; to: string };
  onFrom: (date: string) => void;
  onTo: (date: string) => void;
}) {
  return (
    <>
      <InputGroup
        type="date"
        aria-label={labels.from}
        title={labels.from}
        value={from}
        max={to || undefined}
        onValueChange={onFrom}
      />
      <InputGroup
        type="date"
        aria-label={labels.to}
        title={labels.to}
        value={to}
        min={from || undefined}
        onValueChange={onTo}
      />
    </>
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
