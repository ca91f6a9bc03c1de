import { Button, Callout, Card, Classes, H4, HTMLTable, Intent, Spinner } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A card of the tab with its title, what it does, and the loading and failure of its list. */
export function ListCard({
  title,
  body,
  query,
  failed,
  children,
  actions,
}: {
  title: string;
  body: string;
  query: UseQueryResult;
  failed: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const { t } = useTranslation('reviewAdmin');
  return (
    <Card className="studio-settings-card">
      <div className="studio-review-admin-head">
        <H4>{title}</H4>
        {actions}
      </div>
      <p>{body}</p>
      {query.isPending && <Spinner size={24} aria-label={title} />}
      {query.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {failed}{' '}
          <Button variant="minimal" icon="refresh" text={t('retry')} onClick={() => query.refetch()} />
        </Callout>
      )}
      {query.data !== undefined && children}
    </Card>
  );
}

/** A card's table: a header of `columns` and the actions column over `rows`, or `empty` when there are none. */
export function ListTable({
  label,
  columns,
  rows,
  empty,
}: {
  label: string;
  columns: string[];
  rows: ReactNode[];
  empty: string;
}) {
  const { t } = useTranslation('reviewAdmin');
  if (rows.length === 0) return <p className={Classes.TEXT_MUTED}>{empty}</p>;
  return (
    <HTMLTable compact className="studio-review-admin-table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">
            <span className={Classes.TEXT_MUTED}>{t('actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>{rows}</tbody>
    </HTMLTable>
  );
}
