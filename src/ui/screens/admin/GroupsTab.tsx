import {
  Button,
  Callout,
  Checkbox,
  DialogBody,
  FormGroup,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Group } from '#contract/companies';
import { PERMISSIONS, type Permission } from '#contract/constants';
import { failureOf } from '../../../machines/failure';
import { checkRequired } from '../../../machines/validation';
import { adminKeys, createGroup, deleteGroup, listGroups, updateGroup } from '../../../services/api/admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { LoadFailed } from '../../components/ListFilters';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { showSuccess } from '../../toaster';
import { useAdminErrorText } from './useAdminErrors';

/** Groups of the company with the page permissions they add to their members' role (docs/product/roles.md). */
export function GroupsTab() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const errorText = useAdminErrorText();
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: adminKeys.groups, queryFn: ({ signal }) => listGroups({ signal }) });
  const [editing, setEditing] = useState<{ group: Group | null } | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.groups });
    void queryClient.invalidateQueries({ queryKey: adminKeys.users });
    void queryClient.invalidateQueries({ queryKey: adminKeys.audit });
  };
  const save = useMutation({
    mutationFn: ({
      id,
      name,
      permissions,
    }: {
      id: number | null;
      name: string;
      permissions: Permission[];
    }) => (id === null ? createGroup({ name, permissions }) : updateGroup(id, { name, permissions })),
    onSuccess: () => {
      setEditing(null);
      refresh();
      void showSuccess(tc('messages.success'));
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteGroup(id),
    onSuccess: () => {
      setDeleting(null);
      refresh();
      void showSuccess(tc('messages.success'));
    },
  });
  const permissionLabel = (p: Permission) => t(`permissions.${p}`);

  return (
    <div>
      <div className="studio-section-title">
        <p className="studio-muted">{t('groups.intro')}</p>
        <Button
          icon="add"
          intent={Intent.PRIMARY}
          text={t('groups.add')}
          onClick={() => {
            save.reset();
            setEditing({ group: null });
          }}
        />
      </div>
      {groups.isError && (
        <LoadFailed text={t('groups.loadFailed')} retry={t('retry')} onRetry={() => groups.refetch()} />
      )}
      {remove.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-list-message">
          {errorText(failureOf(remove.error).detail)}
        </Callout>
      )}
      {groups.isPending && <Spinner className="studio-list-message" />}
      {groups.data && groups.data.length === 0 && (
        <NonIdealState icon="people" title={t('groups.empty.title')} description={t('groups.empty.body')} />
      )}
      {groups.data && groups.data.length > 0 && (
        <HTMLTable striped compact className="studio-table" aria-label={t('groups.table')}>
          <thead>
            <tr>
              <th scope="col">{t('groups.name')}</th>
              <th scope="col">{t('groups.permissions')}</th>
              <th scope="col">
                <span className="studio-sr-only">{t('users.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.data.map((group) => (
              <tr key={group.id}>
                <td>{group.name}</td>
                <td>
                  {group.permissions.length === 0
                    ? '—'
                    : group.permissions.map((p) => (
                        <Tag key={p} minimal className="studio-tag-gap">
                          {permissionLabel(p)}
                        </Tag>
                      ))}
                </td>
                <td>
                  <Button
                    variant="minimal"
                    icon="edit"
                    aria-label={t('groups.edit', { name: group.name })}
                    onClick={() => {
                      save.reset();
                      setEditing({ group });
                    }}
                  />
                  <Button
                    variant="minimal"
                    icon="trash"
                    intent={Intent.DANGER}
                    aria-label={t('groups.delete', { name: group.name })}
                    onClick={() => {
                      remove.reset();
                      setDeleting(group);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && (
        <GroupDialog
          group={editing.group}
          busy={save.isPending}
          error={save.isError ? errorText(failureOf(save.error).detail) : null}
          onCancel={() => setEditing(null)}
          onSubmit={(name, permissions) => save.mutate({ id: editing.group?.id ?? null, name, permissions })}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('groups.delete', { name: deleting?.name ?? '' })}
        icon="trash"
        cancel={t('form.cancel')}
        confirm={t('groups.confirmDelete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        <p>{t('groups.deleteBody', { name: deleting?.name ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

function GroupDialog({
  group,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  group: Group | null;
  busy: boolean;
  error: string | null;
  onSubmit: (name: string, permissions: Permission[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  const text = useValidationText();
  const [name, setName] = useState(group?.name ?? '');
  const [permissions, setPermissions] = useState<Permission[]>(group?.permissions ?? []);
  const { failures, passes } = useFormCheck(() => ({ name: checkRequired(name) }));
  return (
    <Dialog isOpen title={group ? t('groups.editTitle') : t('groups.add')} icon="people" onClose={onCancel}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (passes())
            onSubmit(
              name.trim(),
              PERMISSIONS.filter((p) => permissions.includes(p)),
            );
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
              {error}
            </Callout>
          )}
          <TextField
            id="group-name"
            label={t('groups.name')}
            message={text(failures.name)}
            autoFocus
            value={name}
            onValueChange={setName}
          />
          <FormGroup label={t('groups.permissions')}>
            {PERMISSIONS.map((p) => (
              <Checkbox
                key={p}
                label={t(`permissions.${p}`)}
                checked={permissions.includes(p)}
                onChange={(event) =>
                  setPermissions(
                    event.currentTarget.checked ? [...permissions, p] : permissions.filter((x) => x !== p),
                  )
                }
              />
            ))}
          </FormGroup>
        </DialogBody>
        <FormDialogFooter cancel={t('form.cancel')} onCancel={onCancel} submit={t('form.save')} busy={busy} />
      </form>
    </Dialog>
  );
}
