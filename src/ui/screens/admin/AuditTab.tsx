import { Button, HTMLSelect, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTION_CODES, AUDIT_ACTIONS, AUDIT_OBJECT_TYPES } from '#contract/audit';
import { isAuditAction } from '#contract/logEvents';
import { auditActionName, auditObjectName, describeAuditChanges } from '#contract/logText';
import { auditCsv } from '../../../machines/auditCsv';
import { type AuditListParams, adminKeys, allAudit, listAudit } from '../../../services/api/admin';
import { listUsers } from '../../../services/api/users';
import { saveTextFile } from '../../../services/download';
import { DateRangeFilter, LoadFailed } from '../../components/ListFilters';
import { Pager } from '../../components/Pager';
import { useLogReader } from '../../components/useLogReader';
import { useFormat } from '../../format';
import { showError } from '../../toaster';
import { AuditLogSwitch, DataAccessLog, useAuditLogKind } from './DataAccessLog';
import { PAGE_SIZES, pageOf, useUrlView } from './useUrlView';

interface AuditView {
  user: string;
  object_type: string;
  action: string;
  start_date: string;
  end_date: string;
  page: number;
  size: number;
}

const DEFAULTS: AuditView = {
  user: '',
  object_type: '',
  action: '',
  start_date: '',
  end_date: '',
  page: 1,
  size: 20,
};
const isDate = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

function readAuditView(query: URLSearchParams): AuditView {
  const user = query.get('user') ?? '';
  const objectType = query.get('object_type') ?? '';
  const action = query.get('action') ?? '';
  return {
    user: /^\d{1,10}$/.test(user) ? user : '',
    object_type: /^[a-z_]{1,64}$/.test(objectType) ? objectType : '',
    action: isAuditAction(action) ? action : '',
    start_date: isDate(query.get('start_date')),
    end_date: isDate(query.get('end_date')),
    ...pageOf(query),
  };
}

const filtersOf = (view: AuditView): Omit<AuditListParams, 'limit' | 'offset'> => ({
  user: view.user ? Number(view.user) : undefined,
  object_type: view.object_type || undefined,
  action: view.action || undefined,
  start_date: view.start_date || undefined,
  end_date: view.end_date || undefined,
});

/** The audit screen: the log of changes, or (switched by an Admin) the log of reads of personal data. */
export function AuditTab() {
  const [log, setLog] = useAuditLogKind();
  return (
    <div>
      <AuditLogSwitch value={log} onChange={setLog} />
      {log === 'access' ? <DataAccessLog /> : <ChangesLog />}
    </div>
  );
}

/** The audit log: who changed what, when and from where; filters in the URL; CSV export. */
function ChangesLog() {
  const { t } = useTranslation('admin');
  const { t: paging } = useTranslation('admin', { keyPrefix: 'paging' });
  const { t: tc } = useTranslation();
  const [view, update] = useUrlView(readAuditView, DEFAULTS);
  const request: AuditListParams = {
    ...filtersOf(view),
    limit: view.size,
    offset: (view.page - 1) * view.size,
  };
  const list = useQuery({
    queryKey: adminKeys.auditList(request),
    queryFn: ({ signal }) => listAudit(request, { signal }),
    placeholderData: keepPreviousData,
  });
  const users = useQuery({
    queryKey: adminKeys.userList({ limit: 200, ordering: 'name' }),
    queryFn: ({ signal }) => listUsers({ limit: 200, ordering: 'name' }, { signal }),
  });
  const reader = useLogReader();
  // The named actions, of the chosen object type only, in the reader's alphabetical order.
  const actions = AUDIT_ACTION_CODES.filter(
    (code) => !view.object_type || AUDIT_ACTIONS[code] === view.object_type,
  )
    .map((code) => ({ value: code, label: auditActionName(reader.t, code) }))
    .sort((a, b) => a.label.localeCompare(b.label, reader.language));
  const exportCsv = useMutation({
    mutationFn: async () => {
      const entries = await allAudit(filtersOf(view));
      const csv = auditCsv(entries, reader, {
        time: t('audit.columns.time'),
        user: t('audit.columns.user'),
        address: t('audit.columns.address'),
        objectType: t('audit.columns.objectType'),
        objectId: t('audit.columns.objectId'),
        action: t('audit.columns.action'),
        changes: t('audit.columns.changes'),
        before: t('audit.columns.before'),
        after: t('audit.columns.after'),
      });
      const today = new Date().toISOString().slice(0, 10);
      saveTextFile(`audit-log_${view.start_date || 'start'}_${view.end_date || today}.csv`, csv);
    },
    onError: () => void showError(tc('messages.error')),
  });
  const { moment } = useFormat();
  const filtered = view.user || view.object_type || view.action || view.start_date || view.end_date;

  return (
    <div>
      <div className="studio-filters">
        <HTMLSelect
          aria-label={t('audit.user')}
          value={view.user}
          onChange={(event) => update({ user: event.currentTarget.value })}
          options={[
            { value: '', label: t('audit.allUsers') },
            ...(users.data?.results ?? []).map((u) => ({ value: String(u.id), label: u.username })),
          ]}
        />
        <HTMLSelect
          aria-label={t('audit.objectType')}
          value={view.object_type}
          onChange={(event) => {
            const objectType = event.currentTarget.value;
            const keep =
              !view.action ||
              !objectType ||
              AUDIT_ACTIONS[view.action as keyof typeof AUDIT_ACTIONS] === objectType;
            update({ object_type: objectType, ...(keep ? {} : { action: '' }) });
          }}
          options={[
            { value: '', label: t('audit.allObjects') },
            ...AUDIT_OBJECT_TYPES.map((o) => ({ value: o, label: t(`audit.objects.${o}`) })),
          ]}
        />
        <HTMLSelect
          aria-label={t('audit.action')}
          value={view.action}
          onChange={(event) => update({ action: event.currentTarget.value })}
          options={[{ value: '', label: t('audit.allActions') }, ...actions]}
        />
        <DateRangeFilter
          from={view.start_date}
          to={view.end_date}
          labels={{ from: t('audit.from'), to: t('audit.to'), group: t('audit.dates') }}
          onChange={({ from, to }) => update({ start_date: from, end_date: to })}
        />
        {filtered && (
          <Button
            variant="minimal"
            icon="cross"
            text={t('clear')}
            onClick={() => update({ user: '', object_type: '', action: '', start_date: '', end_date: '' })}
          />
        )}
        <Button
          icon="download"
          text={t('audit.export')}
          loading={exportCsv.isPending}
          disabled={!list.data || list.data.count === 0}
          onClick={() => exportCsv.mutate()}
        />
      </div>
      {list.isError && (
        <LoadFailed text={t('audit.loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        <NonIdealState icon="search" title={t('audit.empty.title')} description={t('audit.empty.body')} />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <HTMLTable
            striped
            compact
            className="studio-table"
            aria-label={t('audit.table')}
            aria-busy={list.isFetching}
          >
            <thead>
              <tr>
                <th scope="col">{t('audit.columns.time')}</th>
                <th scope="col">{t('audit.columns.user')}</th>
                <th scope="col">{t('audit.columns.address')}</th>
                <th scope="col">{t('audit.columns.object')}</th>
                <th scope="col">{t('audit.columns.action')}</th>
                <th scope="col">{t('audit.columns.changes')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((entry) => (
                <tr key={entry.id}>
                  <td>{moment(entry.created_at)}</td>
                  <td>{entry.actor_email ?? (entry.actor === null ? '—' : `#${entry.actor}`)}</td>
                  <td>{entry.ip ?? '—'}</td>
                  <td>{`${auditObjectName(reader.t, entry.object_type)} #${entry.object_id}`}</td>
                  <td>{auditActionName(reader.t, entry.action)}</td>
                  <td className="studio-audit-changes">
                    {describeAuditChanges(reader, entry).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager
            count={list.data.count}
            estimated={list.data.count_is_estimate}
            page={view.page}
            size={view.size}
            sizes={PAGE_SIZES}
            label={t('audit.table')}
            text={(key, values) => paging(key, { ...values })}
            onChange={update}
          />
        </>
      )}
    </div>
  );
}
