import './icons';
import './review.css';
import {
  Button,
  Checkbox,
  H2,
  HTMLSelect,
  HTMLTable,
  Intent,
  NonIdealState,
  SegmentedControl,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { ReviewCase } from '#contract/review';
import { isApiError } from '../../../services/api/http';
import {
  assignCase,
  CASE_PAGE_SIZES,
  type CaseListParams,
  FIRST_CASES,
  nextCase,
  peekNextCase,
  type ReviewView,
  reviewKeys,
  unassignCase,
} from '../../../services/api/review';
import { preloadRoute } from '../../app/preload';
import { useReviewLive } from '../../app/realtime/ProfileSocket';
import { usePageTitle } from '../../app/usePageTitle';
import { useProfilePreload } from '../../app/useProfilePreload';
import { LoadFailed } from '../../components/ListFilters';
import { Pager } from '../../components/Pager';
import { SortableHeader } from '../../components/SortableHeader';
import { TableScroll } from '../../components/TableScroll';
import { useErrorText } from '../../components/useErrorText';
import { reviewCasesQuery } from '../../queries';
import { showError, showSuccess } from '../../toaster';
import { BulkBar } from './BulkBar';
import { mayAssign, mayTake, mayUnassign } from './deskRules';
import { useNow, useQueues, useReviewers, useTimeLeftText, useViewer } from './useDesk';

export const VIEWS: readonly ReviewView[] = [
  'all',
  'mine',
  'unassigned',
  'overdue',
  'escalated',
  'awaiting_second_review',
];

/** /review: the reviewers' desk: saved views, queue filter, live list, row and bulk actions, Next case. */
export function ReviewScreen() {
  const { t } = useTranslation('review');
  const title = t('title');
  usePageTitle(title);
  useReviewLive();
  const [view, setView] = useState<ReviewView>(FIRST_CASES.view);
  const [queue, setQueue] = useState<number | null>(FIRST_CASES.queue);
  const [ordering, setOrdering] = useState<CaseListParams['ordering']>(FIRST_CASES.ordering);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(FIRST_CASES.limit);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const params: CaseListParams = { view, queue, ordering, limit: size, offset: (page - 1) * size };
  const list = useQuery(reviewCasesQuery(params));
  // Once the first cases (or the list's answer) are on screen, the profile a click opens loads its code.
  useProfilePreload(!list.isPending);
  const queues = useQueues();
  const rows = list.data?.results ?? [];
  const selectedRows = rows.filter((row) => selected.has(row.id));
  const reset = () => {
    setPage(1);
    setSelected(new Set());
  };

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <div className="studio-section-title">
        <H2 id="page-title">{title}</H2>
        <NextCaseButton />
      </div>
      <div className="studio-review-filters">
        <SegmentedControl
          aria-label={t('views.label')}
          options={VIEWS.map((v) => ({ value: v, label: t(`views.${v}`) }))}
          value={view}
          onValueChange={(value) => {
            setView(value as ReviewView);
            reset();
          }}
        />
        <HTMLSelect
          aria-label={t('queueFilter')}
          value={queue ?? ''}
          onChange={(event) => {
            setQueue(event.currentTarget.value ? Number(event.currentTarget.value) : null);
            reset();
          }}
          options={[
            { value: '', label: t('allQueues') },
            ...(queues.data ?? []).map((q) => ({ value: q.id, label: q.name })),
          ]}
        />
      </div>
      {selectedRows.length > 0 && <BulkBar selected={selectedRows} onDone={() => setSelected(new Set())} />}
      {list.isError && (
        <LoadFailed text={t('loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        <NonIdealState
          icon="inbox"
          title={t('empty.title')}
          description={t('empty.body')}
          className="studio-list-message"
        />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <CaseTable
            rows={rows}
            selected={selected}
            onSelect={setSelected}
            ordering={ordering}
            onOrdering={(next) => {
              setOrdering(next);
              reset();
            }}
            busy={list.isFetching}
          />
          <Pager
            count={list.data.count}
            estimated={list.data.count_is_estimate}
            page={page}
            size={size}
            sizes={CASE_PAGE_SIZES}
            label={t('table')}
            text={(key, values) => t(key === 'next' ? 'next_page' : key, { ...values })}
            onChange={(change) => {
              if (change.size) {
                setSize(change.size);
                reset();
              } else if (change.page) {
                setPage(change.page);
                setSelected(new Set());
              }
            }}
          />
        </>
      )}
    </section>
  );
}

/**
 * Next case: the oldest due case of my queues is mine now, and its profile opens. The case it would take is
 * read ahead (and again whenever the desk changes), and that profile's screen and first answers load, so the
 * press opens it without waiting; when someone else took it first, the press opens the one it got.
 */
function NextCaseButton() {
  const { t } = useTranslation('review');
  const [, navigate] = useLocation();
  const errorText = useErrorText();
  const coming = useQuery({ queryKey: reviewKeys.next(), queryFn: ({ signal }) => peekNextCase({ signal }) });
  const comingProfile = coming.data?.profile;
  useEffect(() => {
    if (comingProfile) void preloadRoute(`/profile/${comingProfile}`);
  }, [comingProfile]);
  const next = useMutation({
    mutationFn: nextCase,
    onSuccess: (c) => navigate(`~/profile/${c.profile}`),
    onError: (error) =>
      void showError(isApiError(error) && error.status === 404 ? t('nextNone') : errorText(error)),
  });
  return (
    <Button
      intent={Intent.PRIMARY}
      icon="step-forward"
      text={t('next')}
      loading={next.isPending}
      onClick={() => next.mutate()}
    />
  );
}

function CaseTable({
  rows,
  selected,
  onSelect,
  ordering,
  onOrdering,
  busy,
}: {
  rows: ReviewCase[];
  selected: ReadonlySet<number>;
  onSelect: (next: ReadonlySet<number>) => void;
  ordering: CaseListParams['ordering'];
  onOrdering: (next: CaseListParams['ordering']) => void;
  busy: boolean;
}) {
  const { t } = useTranslation('review');
  const now = useNow();
  const queues = useQueues();
  const sla = new Map((queues.data ?? []).map((q) => [q.id, q.sla_hours]));
  const all = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const some = rows.some((row) => selected.has(row.id));
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
    <TableScroll label={t('table')}>
      <HTMLTable compact striped interactive className="studio-table studio-review-table" aria-busy={busy}>
        <thead>
          <tr>
            <th scope="col">
              <Checkbox
                aria-label={t('bulk.selectAll')}
                checked={all}
                indeterminate={some && !all}
                onChange={(event) =>
                  onSelect(event.currentTarget.checked ? new Set(rows.map((row) => row.id)) : new Set())
                }
              />
            </th>
            <th scope="col">{t('columns.profile')}</th>
            <th scope="col">{t('columns.kind')}</th>
            <th scope="col">{t('columns.queue')}</th>
            <th scope="col">{t('columns.state')}</th>
            <th scope="col">{t('columns.assignee')}</th>
            <SortableHeader
              column="due_at"
              label={t('columns.due')}
              sortBy={t('sortByDue')}
              ordering={ordering}
              update={(change) => onOrdering(change.ordering as CaseListParams['ordering'])}
            />
            <th scope="col">{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <CaseRow
              key={row.id}
              row={row}
              now={now}
              slaHours={sla.get(row.queue)}
              checked={selected.has(row.id)}
              onCheck={(on) => toggle(row.id, on)}
            />
          ))}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}

function CaseRow({
  row,
  now,
  slaHours,
  checked,
  onCheck,
}: {
  row: ReviewCase;
  now: number;
  slaHours: number | undefined;
  checked: boolean;
  onCheck: (on: boolean) => void;
}) {
  const { t } = useTranslation('review');
  const due = useTimeLeftText()(row, now, slaHours);
  const name = row.profile_name || `#${row.profile}`;
  return (
    <tr data-case={row.id} aria-label={t('actions.rowLabel', { name })}>
      <td>
        <Checkbox
          aria-label={t('bulk.selectRow', { name })}
          checked={checked}
          onChange={(event) => onCheck(event.currentTarget.checked)}
        />
      </td>
      <td>
        <Link href={`~/profile/${row.profile}`}>{name}</Link>
      </td>
      <td>{t(`kind.${row.kind}`)}</td>
      <td>{row.queue_name}</td>
      <td>
        <Tag minimal intent={row.state === 'awaiting_second_review' ? Intent.PRIMARY : Intent.NONE}>
          {t(`state.${row.state}`)}
        </Tag>
      </td>
      <td>{row.assignee_name ?? <span className="studio-muted">{t('nobody')}</span>}</td>
      <td>
        <Tag minimal={due.tone === 'stopped'} intent={due.intent} title={due.title} data-tone={due.tone}>
          {due.text}
        </Tag>
      </td>
      <td>
        <RowActions row={row} name={name} />
      </td>
    </tr>
  );
}

function RowActions({ row, name }: { row: ReviewCase; name: string }) {
  const { t } = useTranslation('review');
  const me = useViewer();
  const reviewers = useReviewers();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const run = useMutation({
    mutationFn: (action: { kind: 'take' } | { kind: 'assign'; user: number } | { kind: 'unassign' }) =>
      action.kind === 'take'
        ? assignCase(row.id)
        : action.kind === 'assign'
          ? assignCase(row.id, action.user)
          : unassignCase(row.id),
    onSuccess: (after, action) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      void showSuccess(
        action.kind === 'take'
          ? t('actions.taken')
          : action.kind === 'assign'
            ? t('actions.assigned', { name: after.assignee_name ?? '' })
            : t('actions.unassigned'),
      );
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      void showError(errorText(error));
    },
  });
  const eligible = (reviewers.data ?? []).filter((r) => r.user !== row.assignee);
  return (
    <div className="studio-review-actions">
      {mayTake(row, me) && (
        <Button
          size="small"
          icon="hand-right"
          text={t('actions.take')}
          aria-label={`${t('actions.take')}: ${name}`}
          disabled={run.isPending}
          onClick={() => run.mutate({ kind: 'take' })}
        />
      )}
      {mayAssign(row, me) && eligible.length > 0 && (
        <HTMLSelect
          minimal
          aria-label={`${t('actions.assignTo')}: ${name}`}
          value=""
          disabled={run.isPending}
          onChange={(event) => {
            const user = Number(event.currentTarget.value);
            if (user > 0) run.mutate({ kind: 'assign', user });
          }}
          options={[
            { value: '', label: t('actions.assignTo') },
            ...eligible.map((r) => ({ value: r.user, label: r.name })),
          ]}
        />
      )}
      {mayUnassign(row, me) && (
        <Button
          size="small"
          variant="minimal"
          icon="cross"
          text={t('actions.unassign')}
          aria-label={`${t('actions.unassign')}: ${name}`}
          disabled={run.isPending}
          onClick={() => run.mutate({ kind: 'unassign' })}
        />
      )}
    </div>
  );
}
