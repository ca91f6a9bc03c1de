import {
  Button,
  Callout,
  HTMLSelect,
  HTMLTable,
  Intent,
  Menu,
  MenuItem,
  NonIdealState,
  PopoverNext,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { ROLES, type Role } from '#contract/constants';
import type { User, UserCreateBody, UserUpdateBody } from '#contract/users';
import {
  type AdminAction,
  type AdminActionKind,
  adminActionMachine,
} from '../../../machines/adminAction.machine';
import { adminKeys, listGroups } from '../../../services/api/admin';
import {
  createUser,
  forcePasswordReset,
  listUsers,
  type UserListParams,
  updateUser,
} from '../../../services/api/users';
import { useActiveAccount } from '../../app/useAccounts';
import { LoadFailed, SearchFilter } from '../../components/ListFilters';
import { Pager } from '../../components/Pager';
import { SortableHeader } from '../../components/SortableHeader';
import { useChoiceMenu } from '../../components/useChoiceMenu';
import { useFormat } from '../../format';
import { showSuccess } from '../../toaster';
import { PasswordPrompt } from '../settings/PasswordPrompt';
import { useRoleLabel } from './roles';
import { UserDialog, type UserFormValues } from './UserDialog';
import { useAdminErrorText } from './useAdminErrors';
import { PAGE_SIZES, pageOf, useUrlView } from './useUrlView';

interface UsersView {
  search: string;
  role: Role | '';
  is_active: 'true' | 'false' | '';
  ordering: string;
  page: number;
  size: number;
}

const DEFAULTS: UsersView = { search: '', role: '', is_active: '', ordering: 'name', page: 1, size: 20 };
const ORDERINGS = ['name', 'username', 'role', 'last_login'];

function readUsersView(query: URLSearchParams): UsersView {
  const role = query.get('role');
  const active = query.get('is_active');
  const ordering = query.get('ordering') ?? '';
  return {
    search: query.get('search')?.slice(0, 200) ?? '',
    role: ROLES.includes(role as Role) ? (role as Role) : '',
    is_active: active === 'true' || active === 'false' ? active : '',
    ordering: ORDERINGS.includes(ordering.replace(/^-/, '')) ? ordering : DEFAULTS.ordering,
    ...pageOf(query),
  };
}

const toRequest = (view: UsersView): UserListParams => ({
  search: view.search || undefined,
  role: view.role || undefined,
  is_active: view.is_active || undefined,
  ordering: view.ordering as UserListParams['ordering'],
  limit: view.size,
  offset: (view.page - 1) * view.size,
});

type SuccessKey =
  | 'success.userCreated'
  | 'success.userUpdated'
  | 'success.userEnabled'
  | 'success.userDisabled';
const SUCCESS: Record<AdminActionKind, SuccessKey> = {
  create: 'success.userCreated',
  update: 'success.userUpdated',
  enable: 'success.userEnabled',
  disable: 'success.userDisabled',
  forcePasswordReset: 'success.userUpdated',
  forceMfaSetup: 'success.userUpdated',
  resetMfa: 'success.userUpdated',
};

/** Sends one administrative change with the admin's password. */
async function perform({ action, password }: { action: AdminAction; password: string }): Promise<void> {
  const id = action.userId ?? 0;
  switch (action.kind) {
    case 'create':
      await createUser({ ...(action.fields as Omit<UserCreateBody, 'password'>), password });
      return;
    case 'update':
      await updateUser(id, { ...(action.fields as UserUpdateBody), password });
      return;
    case 'enable':
    case 'disable':
      await updateUser(id, { is_active: action.kind === 'enable', password });
      return;
    case 'forcePasswordReset':
      await forcePasswordReset(id, { password });
      return;
    case 'forceMfaSetup':
      await updateUser(id, { force_mfa_setup: true, password });
      return;
    case 'resetMfa':
      await updateUser(id, { reset_mfa: true, password });
      return;
  }
}

/** The users of the company: search, filters, sort and page in the URL; add, edit and the admin actions. */
export function UsersTab() {
  const { t } = useTranslation('admin');
  const { t: paging } = useTranslation('admin', { keyPrefix: 'paging' });
  const { t: tc } = useTranslation();
  const errorText = useAdminErrorText();
  const [view, update] = useUrlView(readUsersView, DEFAULTS);
  const request = toRequest(view);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: adminKeys.userList(request),
    queryFn: ({ signal }) => listUsers(request, { signal }),
    placeholderData: keepPreviousData,
  });
  const groups = useQuery({ queryKey: adminKeys.groups, queryFn: ({ signal }) => listGroups({ signal }) });
  const [dialog, setDialog] = useState<{ user: User | null } | null>(null);

  const machine = useMemo(
    () =>
      adminActionMachine.provide({
        actors: { perform: fromPromise(({ input }) => perform(input)) },
        actions: {
          notifyDone: (_, { kind }) => {
            void showSuccess(tc(SUCCESS[kind]));
            setDialog(null);
            void queryClient.invalidateQueries({ queryKey: adminKeys.users });
            void queryClient.invalidateQueries({ queryKey: adminKeys.audit });
          },
        },
      }),
    [queryClient, tc],
  );
  const [state, send] = useMachine(machine);
  const { action, error } = state.context;
  const ask = useCallback((next: AdminAction) => send({ type: 'action.requested', action: next }), [send]);

  return (
    <div>
      <div className="studio-section-title">
        <UserFilters view={view} update={update} />
        <Button
          icon="new-person"
          intent={Intent.PRIMARY}
          text={t('users.add')}
          onClick={() => setDialog({ user: null })}
        />
      </div>
      {error && !dialog && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-list-message">
          {errorText(error)}{' '}
          <Button
            variant="minimal"
            icon="cross"
            aria-label={t('dismiss')}
            onClick={() => send({ type: 'error.dismissed' })}
          />
        </Callout>
      )}
      {list.isError && (
        <LoadFailed text={t('users.loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        <NonIdealState
          icon="search"
          title={t('users.empty.title')}
          description={t('users.empty.body')}
          className="studio-list-message"
        />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <UserTable
            rows={list.data.results}
            view={view}
            update={update}
            busy={list.isFetching}
            onEdit={(user) => setDialog({ user })}
            onAction={ask}
          />
          <Pager
            count={list.data.count}
            page={view.page}
            size={view.size}
            sizes={PAGE_SIZES}
            label={t('users.table')}
            text={(key, values) => paging(key, { ...values })}
            onChange={update}
          />
        </>
      )}
      {dialog && (
        <UserDialog
          user={dialog.user}
          groups={groups.data ?? []}
          busy={state.hasTag('busy')}
          error={state.matches('idle') ? errorText(error) : null}
          onCancel={() => {
            setDialog(null);
            send({ type: 'error.dismissed' });
          }}
          onSubmit={(values: UserFormValues) =>
            ask(
              dialog.user
                ? {
                    kind: 'update',
                    userId: dialog.user.id,
                    name: `${dialog.user.first_name} ${dialog.user.last_name}`,
                    fields: changedValues(dialog.user, values),
                  }
                : {
                    kind: 'create',
                    userId: null,
                    name: `${values.first_name} ${values.last_name}`,
                    fields: { ...values, phone: values.phone || null },
                  },
            )
          }
        />
      )}
      <PasswordPrompt
        isOpen={state.hasTag('prompt')}
        busy={state.hasTag('busy')}
        error={state.matches('confirming') ? errorText(error) : null}
        title={t('confirm.title')}
        body={action ? `${t(`confirm.${action.kind}`, { name: action.name })} ${t('confirm.body')}` : ''}
        onConfirm={(password) => send({ type: 'password.confirmed', password })}
        onCancel={() => send({ type: 'password.cancelled' })}
      />
    </div>
  );
}

/** Only the fields that differ from the user as loaded. */
function changedValues(user: User, values: UserFormValues): UserUpdateBody {
  const changes: UserUpdateBody = {};
  if (values.first_name !== user.first_name) changes.first_name = values.first_name;
  if (values.last_name !== user.last_name) changes.last_name = values.last_name;
  if (values.username !== user.username) changes.username = values.username;
  if ((values.phone || null) !== user.phone) changes.phone = values.phone || null;
  if (values.role !== user.role) changes.role = values.role;
  const groups = [...values.groups].sort((a, b) => a - b);
  if (
    groups.join() !==
    user.groups
      .map((g) => g.id)
      .sort((a, b) => a - b)
      .join()
  )
    changes.groups = groups;
  if (values.languages.join() !== user.languages.join()) changes.languages = values.languages;
  return changes;
}

function UserFilters({ view, update }: { view: UsersView; update: (change: Partial<UsersView>) => void }) {
  const { t } = useTranslation('admin');
  const roleLabel = useRoleLabel();
  // Clear also drops a search still being typed (a new search box).
  const [cleared, setCleared] = useState(0);
  return (
    <div className="studio-filters">
      <SearchFilter
        key={cleared}
        value={view.search}
        update={update}
        placeholder={t('users.search')}
        label={t('users.searchLabel')}
      />
      <HTMLSelect
        aria-label={t('users.role')}
        value={view.role}
        onChange={(event) => update({ role: event.currentTarget.value as UsersView['role'] })}
        options={[
          { value: '', label: t('users.allRoles') },
          ...ROLES.map((r) => ({ value: r, label: roleLabel(r) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('users.enabledFilter')}
        value={view.is_active}
        onChange={(event) => update({ is_active: event.currentTarget.value as UsersView['is_active'] })}
        options={[
          { value: '', label: t('users.allStates') },
          { value: 'true', label: t('users.onlyEnabled') },
          { value: 'false', label: t('users.onlyDisabled') },
        ]}
      />
      {(view.search || view.role || view.is_active) && (
        <Button
          variant="minimal"
          icon="cross"
          text={t('clear')}
          onClick={() => {
            setCleared((times) => times + 1);
            update({ search: '', role: '', is_active: '' });
          }}
        />
      )}
    </div>
  );
}

function UserTable({
  rows,
  view,
  update,
  busy,
  onEdit,
  onAction,
}: {
  rows: User[];
  view: UsersView;
  update: (change: Partial<UsersView>) => void;
  busy: boolean;
  onEdit: (user: User) => void;
  onAction: (action: AdminAction) => void;
}) {
  const { t } = useTranslation('admin');
  const roleLabel = useRoleLabel();
  const me = useActiveAccount();
  const { dateTime } = useFormat();
  const sortable = (key: string, label: string) => (
    <SortableHeader
      column={key}
      label={label}
      sortBy={t('sortBy', { column: label })}
      ordering={view.ordering}
      update={update}
    />
  );
  return (
    <HTMLTable
      striped
      interactive
      compact
      className="studio-table"
      aria-label={t('users.table')}
      aria-busy={busy}
    >
      <thead>
        <tr>
          {sortable('name', t('users.columns.name'))}
          {sortable('username', t('users.columns.username'))}
          {sortable('role', t('users.columns.role'))}
          <th scope="col">{t('users.columns.groups')}</th>
          <th scope="col">{t('languages.column')}</th>
          <th scope="col">{t('users.columns.mfa')}</th>
          <th scope="col">{t('users.columns.enabled')}</th>
          {sortable('last_login', t('users.columns.lastLogin'))}
          <th scope="col">
            <span className="studio-sr-only">{t('users.columns.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((user) => {
          const name = `${user.first_name} ${user.last_name}`.trim() || user.username;
          const act = (kind: AdminActionKind) => onAction({ kind, userId: user.id, name });
          const self = me?.id === user.id;
          return (
            <tr key={user.id}>
              <td>{name}</td>
              <td>{user.username}</td>
              <td>{roleLabel(user.role)}</td>
              <td>
                {user.groups.length === 0
                  ? '—'
                  : user.groups.map((g) => (
                      <Tag key={g.id} minimal className="studio-tag-gap">
                        {g.name}
                      </Tag>
                    ))}
              </td>
              <td>
                {user.languages.length === 0
                  ? '—'
                  : user.languages.map((language) => (
                      <Tag key={language} minimal className="studio-tag-gap">
                        {t(`languages.${language}`)}
                      </Tag>
                    ))}
              </td>
              <td>
                <Tag minimal intent={user.mfa ? Intent.SUCCESS : Intent.NONE}>
                  {user.mfa ? t('users.on') : t('users.off')}
                </Tag>
                {user.force_mfa_reset && (
                  <Tag minimal intent={Intent.WARNING} className="studio-tag-gap">
                    {t('users.pendingMfa')}
                  </Tag>
                )}
              </td>
              <td>
                <Tag minimal intent={user.is_active ? Intent.SUCCESS : Intent.DANGER}>
                  {user.is_active ? t('users.yes') : t('users.no')}
                </Tag>
                {user.force_password_reset && (
                  <Tag minimal intent={Intent.WARNING} className="studio-tag-gap">
                    {t('users.pendingReset')}
                  </Tag>
                )}
              </td>
              <td>{user.last_login ? dateTime(user.last_login) : t('users.never')}</td>
              <td>
                <UserActionsMenu user={user} name={name} self={self} onEdit={onEdit} act={act} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}

/** A user's actions: each opens a dialog (editing, or the confirmation of an Admin action). */
function UserActionsMenu({
  user,
  name,
  self,
  onEdit,
  act,
}: {
  user: User;
  name: string;
  self: boolean;
  onEdit: (user: User) => void;
  act: (kind: AdminActionKind) => void;
}) {
  const { t } = useTranslation('admin');
  const { popoverProps, choose } = useChoiceMenu();
  const run = choose(act);
  return (
    <PopoverNext
      placement="bottom-end"
      {...popoverProps}
      content={
        <Menu>
          <MenuItem icon="edit" text={t('users.edit')} onClick={choose(() => onEdit(user))} />
          {user.is_active ? (
            <MenuItem
              icon="disable"
              intent={Intent.DANGER}
              text={t('users.disable')}
              disabled={self}
              onClick={() => run('disable')}
            />
          ) : (
            <MenuItem icon="tick" text={t('users.enable')} onClick={() => run('enable')} />
          )}
          <MenuItem
            icon="key"
            text={t('users.forcePasswordReset')}
            onClick={() => run('forcePasswordReset')}
          />
          <MenuItem icon="shield" text={t('users.forceMfaSetup')} onClick={() => run('forceMfaSetup')} />
          <MenuItem icon="lock" text={t('users.resetMfa')} onClick={() => run('resetMfa')} />
        </Menu>
      }
    >
      <Button variant="minimal" icon="cog" aria-label={t('users.actions', { name })} />
    </PopoverNext>
  );
}
