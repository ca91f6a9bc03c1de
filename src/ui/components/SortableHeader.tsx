import { Button } from '@blueprintjs/core';

/**
 * The header cell of a column the server sorts by: `ordering` is the list's (`name`, or `-name` for
 * descending); a click sorts by the column, a second one reverses it.
 */
export function SortableHeader({
  column,
  label,
  sortBy,
  ordering,
  update,
}: {
  column: string;
  label: string;
  /** The button's name ("Sort by …"). */
  sortBy: string;
  ordering: string;
  update: (change: { ordering: string }) => void;
}) {
  const sorted = ordering.replace(/^-/, '') === column;
  const descending = ordering.startsWith('-');
  return (
    <th scope="col" aria-sort={sorted ? (descending ? 'descending' : 'ascending') : undefined}>
      <Button
        variant="minimal"
        size="small"
        text={label}
        aria-label={sortBy}
        endIcon={sorted ? (descending ? 'chevron-down' : 'chevron-up') : undefined}
        onClick={() => update({ ordering: sorted && !descending ? `-${column}` : column })}
      />
    </th>
  );
}
