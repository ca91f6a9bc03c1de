import { Button, H2, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ProfileSummary } from '#contract/profiles';
import { usePageTitle } from '../../app/usePageTitle';
import { useProfilePreload } from '../../app/useProfilePreload';
import { DateRangeFilter, LoadFailed, SearchFilter } from '../../components/ListFilters';
import { Pager } from '../../components/Pager';
import {
  PROFILE_STATUSES,
  RISK_LEVELS,
  RiskTag,
  StatusTag,
  useProfileLabels,
} from '../../components/profileLabels';
import { SortableHeader } from '../../components/SortableHeader';
import { TableScroll } from '../../components/TableScroll';
import { useFormat } from '../../format';
import { customersListQuery } from '../../queries';
import { CreateProfile } from './CreateProfile';
import { cursorFor, type ListView, PAGE_SIZES, toRequest, useListView, viewKey } from './useListParams';

type Column = { key: keyof ProfileSummary; label: string; sortable: boolean };

/** / and /customers: every customer profile, searched, filtered, sorted and paged on the server (docs/product/screens.md). */
export function CustomersScreen() {
  const { t } = useTranslation('customers');
  const { t: ts } = useTranslation('screens');
  const title = ts('customers.title');
  usePageTitle(title);
  const [view, update] = useListView();
  // The cursor of the page reached by next or previous, kept for exactly that view (not in the address:
  // a reload or a shared link reads the page by offset).
  const [seek, setSeek] = useState<{ key: string; cursor: string } | null>(null);
  const request = { ...toRequest(view), cursor: seek?.key === viewKey(view) ? seek.cursor : undefined };
  // The query the navigation started (routeTable.ts): read from the cache, not started again.
  const list = useQuery(customersListQuery(request));
  // Once the first rows (or the list's answer) are on screen, the profile a click opens loads its code.
  useProfilePreload(!list.isPending);

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <div className="studio-section-title">
        <H2 id="page-title">{title}</H2>
        <CreateProfile />
      </div>
      <Filters view={view} update={update} />
      {list.isError && (
        <LoadFailed text={t('loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        // With no filter set, nothing is filtered out: the company has no customers yet.
        <NonIdealState
          icon={isFiltered(view) ? 'search' : 'people'}
          title={isFiltered(view) ? t('empty.title') : t('none.title')}
          description={isFiltered(view) ? t('empty.body') : t('none.body')}
          className="studio-list-message"
        />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <ProfileTable rows={list.data.results} view={view} update={update} busy={list.isFetching} />
          <Pager
            count={list.data.count}
            estimated={list.data.count_is_estimate}
            page={view.page}
            size={view.size}
            sizes={PAGE_SIZES}
            label={t('table')}
            text={(key, values) => t(key, { ...values })}
            onChange={(change) => {
              const cursor = change.page ? cursorFor(change.page, view, list.data) : undefined;
              setSeek(cursor ? { key: viewKey({ ...view, ...change }), cursor } : null);
              update(change);
            }}
          />
        </>
      )}
    </section>
  );
}

const isFiltered = (view: ListView) =>
  !!(
    view.search ||
    view.status ||
    view.risk_level ||
    view.source ||
    view.created_after ||
    view.created_before
  );

function Filters({ view, update }: { view: ListView; update: (change: Partial<ListView>) => void }) {
  const { t } = useTranslation('customers');
  const labels = useProfileLabels();
  // Clear also drops a search still being typed (a new search box).
  const [cleared, setCleared] = useState(0);
  const filtered = isFiltered(view);

  return (
    <div className="studio-filters">
      <SearchFilter
        key={cleared}
        value={view.search}
        update={update}
        placeholder={t('search')}
        label={t('searchLabel')}
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
      <DateRangeFilter
        from={view.created_after}
        to={view.created_before}
        labels={{ from: t('createdAfter'), to: t('createdBefore'), group: t('created') }}
        onChange={({ from, to }) => update({ created_after: from, created_before: to })}
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
            setCleared((times) => times + 1);
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
  const { t } = useTranslation('customers');
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
  const format = useFormat();

  return (
    // Narrow windows scroll the table, not the page; the id and name stay in view.
    <TableScroll label={t('tableRegion')}>
      <HTMLTable
        striped
        interactive
        compact
        className="studio-table studio-sticky-columns"
        aria-label={t('table')}
        aria-busy={busy}
      >
        <thead>
          <tr>
            {columns.map((column) =>
              column.sortable ? (
                <SortableHeader
                  key={column.key}
                  column={column.key}
                  label={column.label}
                  sortBy={t('sortBy', { column: column.label })}
                  ordering={view.ordering}
                  update={update}
                />
              ) : (
                <th key={column.key} scope="col">
                  {column.label}
                </th>
              ),
            )}
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
              <td className="studio-nowrap">{format.dateTime(row.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}
