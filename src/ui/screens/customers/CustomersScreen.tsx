import {
  Button,
  ButtonGroup,
  Callout,
  H2,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ProfileSummary } from '../../../contract/profiles';
import { preloadRoute } from '../../app/routeTable';
import { usePageTitle } from '../../app/usePageTitle';
import {
  PROFILE_STATUSES,
  RISK_LEVELS,
  RiskTag,
  StatusTag,
  useProfileLabels,
} from '../../components/profileLabels';
import { customersListQuery } from '../../queries';
import { CreateProfile } from './CreateProfile';
import { type ListView, PAGE_SIZES, toRequest, useListView } from './useListParams';

type Column = { key: keyof ProfileSummary; label: string; sortable: boolean };

/** / and /customers: every customer profile, searched, filtered, sorted and paged on the server (§2). */
export function CustomersScreen() {
  const { t } = useTranslation('customers');
  const { t: ts } = useTranslation('screens');
  const title = ts('customers.title');
  usePageTitle(title);
  const [view, update] = useListView();
  const request = toRequest(view);
  // The query the navigation started (routeTable.ts): read from the cache, not started again.
  const list = useQuery(customersListQuery(request));
  useIdleProfilePreload();

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <div className="studio-section-title">
        <H2 id="page-title">{title}</H2>
        <CreateProfile />
      </div>
      <Filters view={view} update={update} />
      {list.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-list-message">
          {t('loadFailed')}{' '}
          <Button variant="minimal" icon="refresh" text={t('retry')} onClick={() => list.refetch()} />
        </Callout>
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        <NonIdealState
          icon="search"
          title={t('empty.title')}
          description={t('empty.body')}
          className="studio-list-message"
        />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <ProfileTable rows={list.data.results} view={view} update={update} busy={list.isFetching} />
          <Pager count={list.data.count} view={view} update={update} />
        </>
      )}
    </section>
  );
}

/** Once the list is idle, the profile screen's chunks load, so the first click on a row waits for data only. */
function useIdleProfilePreload() {
  useEffect(() => {
    const start = () => void preloadRoute('/profile/0', { chunksOnly: true });
    // Browsers without idle callbacks load it on the first hover or click.
    if (typeof window.requestIdleCallback !== 'function') return;
    const handle = window.requestIdleCallback(start, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
}

function Filters({ view, update }: { view: ListView; update: (change: Partial<ListView>) => void }) {
  const { t } = useTranslation('customers');
  const labels = useProfileLabels();
  const [search, setSearch] = useState(view.search);
  // Typing settles for 300 ms before it becomes the URL's search.
  useEffect(() => {
    if (search === view.search) return;
    const timer = setTimeout(() => update({ search: search.trim() }), 300);
    return () => clearTimeout(timer);
  }, [search, view.search, update]);
  useEffect(() => setSearch(view.search), [view.search]);
  const filtered =
    view.search || view.status || view.risk_level || view.source || view.created_after || view.created_before;

  return (
    <div className="studio-filters">
      <InputGroup
        leftIcon="search"
        type="search"
        placeholder={t('search')}
        aria-label={t('searchLabel')}
        value={search}
        onValueChange={setSearch}
        className="studio-filter-search"
      />
      <HTMLSelect
        aria-label={t('status')}
        value={view.status}
        onChange={(event) => update({ status: event.currentTarget.value as ListView['status'] })}
        options={[
          { value: '', label: t('allStatuses') },
          ...PROFILE_STATUSES.map((s) => ({ value: s, label: labels.status(s) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('risk')}
        value={view.risk_level}
        onChange={(event) => update({ risk_level: event.currentTarget.value as ListView['risk_level'] })}
        options={[
          { value: '', label: t('allRisks') },
          ...RISK_LEVELS.map((r) => ({ value: r, label: labels.risk(r) })),
        ]}
      />
      <InputGroup
        type="date"
        aria-label={t('createdAfter')}
        title={t('createdAfter')}
        value={view.created_after}
        max={view.created_before || undefined}
        onValueChange={(value) => update({ created_after: value })}
      />
      <InputGroup
        type="date"
        aria-label={t('createdBefore')}
        title={t('createdBefore')}
        value={view.created_before}
        min={view.created_after || undefined}
        onValueChange={(value) => update({ created_before: value })}
      />
      <InputGroup
        aria-label={t('source')}
        placeholder={t('source')}
        value={view.source}
        onValueChange={(value) => update({ source: value })}
        className="studio-filter-source"
      />
      {filtered && (
        <Button
          variant="minimal"
          icon="cross"
          text={t('clear')}
          onClick={() => {
            setSearch('');
            update({
              search: '',
              status: '',
              risk_level: '',
              source: '',
              created_after: '',
              created_before: '',
            });
          }}
        />
      )}
    </div>
  );
}

function ProfileTable({
  rows,
  view,
  update,
  busy,
}: {
  rows: ProfileSummary[];
  view: ListView;
  update: (change: Partial<ListView>) => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('customers');
  const columns: Column[] = [
    { key: 'id', label: t('columns.id'), sortable: true },
    { key: 'name', label: t('columns.name'), sortable: true },
    { key: 'id_card_number', label: t('columns.idCardNumber'), sortable: false },
    { key: 'email', label: t('columns.email'), sortable: false },
    { key: 'phone', label: t('columns.phone'), sortable: false },
    { key: 'status', label: t('columns.status'), sortable: true },
    { key: 'risk_level', label: t('columns.risk'), sortable: true },
    { key: 'source', label: t('columns.source'), sortable: false },
    { key: 'created_at', label: t('columns.created'), sortable: true },
  ];
  const sortedBy = view.ordering.replace(/^-/, '');
  const descending = view.ordering.startsWith('-');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    // Narrow windows scroll the table, not the page.
    <div className="studio-table-scroll">
      <HTMLTable
        striped
        interactive
        compact
        className="studio-table"
        aria-label={t('table')}
        aria-busy={busy}
      >
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={sortedBy === column.key ? (descending ? 'descending' : 'ascending') : undefined}
              >
                {column.sortable ? (
                  <Button
                    variant="minimal"
                    size="small"
                    text={column.label}
                    aria-label={t('sortBy', { column: column.label })}
                    endIcon={
                      sortedBy === column.key ? (descending ? 'chevron-down' : 'chevron-up') : undefined
                    }
                    onClick={() =>
                      update({
                        ordering: sortedBy === column.key && !descending ? `-${column.key}` : column.key,
                      })
                    }
                  />
                ) : (
                  column.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td className="studio-nowrap">
                <Link href={`~/profile/${row.id}`}>{row.name ?? t('unnamed')}</Link>
              </td>
              <td>{row.id_card_number}</td>
              <td>{row.email}</td>
              <td className="studio-nowrap">{row.phone}</td>
              <td>
                <StatusTag status={row.status} />
              </td>
              <td>
                <RiskTag risk={row.risk_level} />
              </td>
              <td>{row.source}</td>
              <td className="studio-nowrap">{date.format(new Date(row.created_at))}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function Pager({
  count,
  view,
  update,
}: {
  count: number;
  view: ListView;
  update: (change: Partial<ListView>) => void;
}) {
  const { t, i18n } = useTranslation('customers');
  const number = new Intl.NumberFormat(i18n.language);
  const from = (view.page - 1) * view.size + 1;
  const to = Math.min(count, view.page * view.size);
  const last = Math.max(1, Math.ceil(count / view.size));
  return (
    <nav className="studio-pager" aria-label={t('table')}>
      <span role="status">
        {t('range', { from: number.format(from), to: number.format(to), count: number.format(count) })}
      </span>
      <HTMLSelect
        minimal
        aria-label={t('pageSize')}
        value={view.size}
        onChange={(event) => update({ size: Number(event.currentTarget.value) })}
        options={PAGE_SIZES.map((size) => ({ value: size, label: String(size) }))}
      />
      <ButtonGroup>
        <Button
          icon="chevron-left"
          aria-label={t('previous')}
          disabled={view.page <= 1}
          onClick={() => update({ page: view.page - 1 })}
        />
        <Button
          icon="chevron-right"
          aria-label={t('next')}
          disabled={view.page >= last}
          onClick={() => update({ page: view.page + 1 })}
        />
      </ButtonGroup>
    </nav>
  );
}
