import { Button, Callout, Card, H4, Intent, Spinner } from '@blueprintjs/core';
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
