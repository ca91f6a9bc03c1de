import {
  Button,
  ButtonGroup,
  Callout,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NonIdealState,
  SegmentedControl,
  Spinner,
} from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { auditObjectName } from '#contract/logText';
import { ACCESS_KIND_CODES, type AccessKind } from '#contract/privacy';
import { adminKeys } from '../../../services/api/admin';
import { type CompanyAccessQuery, listCompanyAccess, privacyKeys } from '../../../services/api/privacy';
import { listUsers } from '../../../services/api/users';
import { useAddressQuery } from '../../app/useAddressQuery';
import { LoadFailed } from '../../components/ListFilters';
import { useAccessReadText } from '../../components/useAccessReadText';
import { useLogReader } from '../../components/useLogReader';
import { useFormat } from '../../format';
import { PAGE_SIZES, pageOf, useUrlView } from './useUrlView';

export type AuditLogKind = 'changes' | 'access';

/** Which log the audit screen shows, kept in the address (`log=access`), and a way to switch. */
export function useAuditLogKind(): [AuditLogKind, (kind: AuditLogKind) => void] {
  const [query, changeQuery] = useAddressQuery();
  const kind: AuditLogKind = query.get('log') === 'access' ? 'access' : 'changes';
  const switchTo = (next: AuditLogKind) =>
    changeQuery((current) => {
      const params = new URLSearchParams(current);
      // The user filter means the same in both logs; the page and the rest belong to the one left.
      for (const key of [
        'log',
        'page',
        'before',
        'object_type',
        'action',
        'start_date',
        'end_date',
        'profile',
        'kind',
      ])
        params.delete(key);
      if (next === 'access') params.set('log', 'access');
      return params;
    });
  return [kind, switchTo];
}

/** The Admin's choice between the log of changes and the log of reads of personal data. */
export function AuditLogSwitch({
  value,
  onChange,
}: {
  value: AuditLogKind;
  onChange: (kind: AuditLogKind) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <SegmentedControl
      className="studio-log-switch"
      aria-label={t('access.switch')}
      value={value}
      onValueChange={(next) => onChange(next as AuditLogKind)}
      options={[
        { value: 'changes', label: t('access.changes') },
        { value: 'access', label: t('access.reads') },
      ]}
    />
  );
}

interface AccessView {
  user: string;
  profile: string;
  kind: string;
  /** The page's cursor: reads older than this sequence number (the previous page's `next_before`). */
  before: string;
  page: number;
  size: number;
}

const DEFAULTS: AccessView = { user: '', profile: '', kind: '', before: '', page: 1, size: 20 };
const idOf = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? value : '');
const isKind = (value: string | null): value is AccessKind =>
  value !== null && (ACCESS_KIND_CODES as string[]).includes(value);

function readAccessView(query: URLSearchParams): AccessView {
  const kind = query.get('kind');
  const before = query.get('before');
  return {
    user: idOf(query.get('user')),
    profile: idOf(query.get('profile')),
    kind: isKind(kind) ? kind : '',
    before: before && /^[1-9]\d{0,15}$/.test(before) ? before : '',
    ...pageOf(query),
  };
}

/**
 * The company's reads of personal data, beside the audit log: who opened which profile, viewed which document
 * page, played which recording, and when; filtered by user, profile and kind, newest first, page by page.
 */
export function DataAccessLog() {
  const { t } = useTranslation('admin');
  const { t: tp } = useTranslation('profile');
  const [view, update] = useUrlView(readAccessView, DEFAULTS);
  // The cursors of the newer pages this visit went through, so "Newer" goes back one page.
  const [newer, setNewer] = useState<string[]>([]);
  const [profileText, setProfileText] = useState(view.profile);
  const request: CompanyAccessQuery = {
    limit: view.size,
    before: view.before ? Number(view.before) : undefined,
    user: view.user ? Number(view.user) : undefined,
    profile: view.profile ? Number(view.profile) : undefined,
    kind: isKind(view.kind) ? view.kind : undefined,
  };
  const list = useQuery({
    queryKey: privacyKeys.company(request),
    queryFn: ({ signal }) => listCompanyAccess(request, { signal }),
    placeholderData: keepPreviousData,
  });
  const users = useQuery({
    queryKey: adminKeys.userList({ limit: 200, ordering: 'name' }),
    queryFn: ({ signal }) => listUsers({ limit: 200, ordering: 'name' }, { signal }),
  });
  const reader = useLogReader();
  const readText = useAccessReadText();
  const { moment } = useFormat();
  const filter = (change: Partial<AccessView>) => {
    setNewer([]);
    update({ ...change, before: '' });
  };
  const commitProfile = () => {
    const profile = idOf(profileText.trim());
    setProfileText(profile);
    if (profile !== view.profile) filter({ profile });
  };
  const filtered = view.user || view.profile || view.kind;
  const reads = list.data?.results ?? [];
  const older = list.data?.next_before ?? null;

  return (
    <div>
      <div className="studio-filters">
        <HTMLSelect
          aria-label={t('access.user')}
          value={view.user}
          onChange={(event) => filter({ user: event.currentTarget.value })}
          options={[
            { value: '', label: t('access.allUsers') },
            ...(users.data?.results ?? []).map((u) => ({ value: String(u.id), label: u.username })),
          ]}
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            commitProfile();
          }}
        >
          <InputGroup
            aria-label={t('access.profile')}
            placeholder={t('access.profile')}
            inputMode="numeric"
            leftIcon="person"
            value={profileText}
            onValueChange={setProfileText}
            onBlur={commitProfile}
          />
        </form>
        <HTMLSelect
          aria-label={t('access.kind')}
          value={view.kind}
          onChange={(event) => filter({ kind: event.currentTarget.value })}
          options={[
            { value: '', label: t('access.allKinds') },
            ...ACCESS_KIND_CODES.map((code) => ({ value: code, label: tp(`privacy.kinds.${code}`) })),
          ]}
        />
        {filtered && (
          <Button
            variant="minimal"
            icon="cross"
            text={t('clear')}
            onClick={() => {
              setProfileText('');
              filter({ user: '', profile: '', kind: '' });
            }}
          />
        )}
      </div>
      {list.isError && (
        <LoadFailed text={t('access.loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" aria-label={t('access.loading')} />}
      {list.data && reads.length === 0 && (
        <NonIdealState icon="eye-open" title={t('access.empty.title')} description={t('access.empty.body')} />
      )}
      {list.data && reads.length > 0 && (
        <>
          <Callout icon="info-sign" className="studio-list-message">
            {t('access.batched')}
          </Callout>
          <HTMLTable
            striped
            compact
            className="studio-table"
            aria-label={t('access.table')}
            aria-busy={list.isFetching}
          >
            <thead>
              <tr>
                <th scope="col">{t('access.columns.time')}</th>
                <th scope="col">{t('access.columns.user')}</th>
                <th scope="col">{t('access.columns.profile')}</th>
                <th scope="col">{t('access.columns.what')}</th>
                <th scope="col">{t('access.columns.object')}</th>
                <th scope="col">{t('access.columns.address')}</th>
              </tr>
            </thead>
            <tbody>
              {reads.map((read) => (
                <tr key={read.seq}>
                  <td>{moment(read.created_at)}</td>
                  <td>{read.actor_email ?? (read.actor === null ? '—' : `#${read.actor}`)}</td>
                  <td>
                    {read.profile_id === null ? (
                      '—'
                    ) : (
                      <Link href={`~/profile/${read.profile_id}`}>{`#${read.profile_id}`}</Link>
                    )}
                  </td>
                  <td>{readText(read)}</td>
                  <td>{`${auditObjectName(reader.t, read.object_type)} #${read.object_id}`}</td>
                  <td>{read.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
      {list.data && (reads.length > 0 || view.page > 1) && (
        <nav className="studio-pager" aria-label={t('access.table')}>
          <span role="status">{t('access.page', { page: view.page })}</span>
          <HTMLSelect
            minimal
            aria-label={t('paging.pageSize')}
            value={view.size}
            onChange={(event) => filter({ size: Number(event.currentTarget.value) })}
            options={PAGE_SIZES.map((s) => ({ value: s, label: String(s) }))}
          />
          <ButtonGroup>
            <Button
              icon="double-chevron-left"
              aria-label={t('access.newest')}
              disabled={view.page <= 1}
              onClick={() => filter({})}
            />
            <Button
              icon="chevron-left"
              aria-label={t('access.newer')}
              disabled={view.page <= 1}
              onClick={() => {
                const cursor = newer.at(-1);
                setNewer(newer.slice(0, -1));
                if (cursor === undefined) update({ before: '', page: 1 });
                else update({ before: cursor, page: view.page - 1 });
              }}
            />
            <Button
              icon="chevron-right"
              aria-label={t('access.older')}
              disabled={older === null}
              onClick={() => {
                setNewer([...newer, view.before]);
                update({ before: String(older), page: view.page + 1 });
              }}
            />
          </ButtonGroup>
        </nav>
      )}
    </div>
  );
}
