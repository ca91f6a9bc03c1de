import {
  Button,
  Callout,
  Card,
  H4,
  H5,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IpAllowListEntry } from '#contract/ipAllowList';
import { MAX_ALLOWLIST_LABEL, parseRange, type RangeProblem } from '#contract/ipRanges';
import {
  addAllowListEntry,
  deleteAllowListEntry,
  getMyAddress,
  ipAllowListKeys,
  listAllowList,
  lockoutAddressOf,
} from '../../../services/api/ipAllowList';
import { useActiveAccount } from '../../app/useAccounts';
import { Alert } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { useErrorText } from '../../components/useErrorText';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';

/** The tab's title, in the allow-list's own namespace. */
export function AllowListTabTitle() {
  const { t } = useTranslation('allowlist');
  return <>{t('tab')}</>;
}

/** A change the server refused with the lock-out guard's 409, waiting for the admin's confirmation. */
type PendingLockout =
  | { kind: 'add'; entry: string; address: string; label: string }
  | { kind: 'delete'; entry: string; address: string; id: number };

/**
 * The IP allow-list tab: the caller's address, the list, add with the shared rules of
 * `contract/ipRanges`, delete with a confirmation, and the lock-out warning (a 409 of the server) that sends
 * `confirm_lockout` only once the admin agrees. Failures show the server's detail and are re-thrown (docs/product/errors.md) to
 * the form, which keeps what was typed; the list and the address reload after each change (docs/product/api.md).
 */
export function AllowListTab() {
  const { t } = useTranslation('allowlist');
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const entries = useQuery({
    queryKey: ipAllowListKeys.list(),
    queryFn: ({ signal }) => listAllowList({ signal }),
  });
  const me = useQuery({ queryKey: ipAllowListKeys.me(), queryFn: ({ signal }) => getMyAddress({ signal }) });
  const [deleting, setDeleting] = useState<IpAllowListEntry | null>(null);
  const [lockout, setLockout] = useState<PendingLockout | null>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const reload = () => queryClient.invalidateQueries({ queryKey: ipAllowListKeys.all });

  /** Runs a call; any failure but the lock-out shows the server's detail; every failure is re-thrown. */
  async function showingDetail<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!lockoutAddressOf(error)) void showError(errorText(error));
      throw error;
    }
  }

  const add = async (entry: { address: string; label: string }, confirm: boolean) => {
    setBusy(true);
    try {
      const made = await showingDetail(() => addAllowListEntry(entry, confirm));
      void showSuccess(t('added', { address: made.address }));
      setLockout(null);
      setFormKey((k) => k + 1);
    } catch (error) {
      const address = lockoutAddressOf(error);
      if (address) setLockout({ kind: 'add', entry: entry.address.trim(), address, label: entry.label });
      throw error;
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const remove = async (target: { id: number; address: string }, confirm: boolean) => {
    setBusy(true);
    try {
      await showingDetail(() => deleteAllowListEntry(target.id, confirm));
      void showSuccess(t('deleted', { address: target.address }));
      setLockout(null);
    } catch (error) {
      const address = lockoutAddressOf(error);
      if (address) setLockout({ kind: 'delete', entry: target.address, address, id: target.id });
    } finally {
      setDeleting(null);
      setBusy(false);
      await reload();
    }
  };

  const confirmLockout = () => {
    if (!lockout) return;
    if (lockout.kind === 'add') {
      add({ address: lockout.entry, label: lockout.label }, true).catch(() => setLockout(null));
    } else {
      void remove({ id: lockout.id, address: lockout.entry }, true);
    }
  };

  return (
    <div className="studio-webhooks studio-allowlist">
      <Card>
        <H4>{t('title')}</H4>
        <p className="studio-muted">{t('intro')}</p>
        <p data-testid="allowlist-me">
          {t('you.label')}:{' '}
          {me.isPending ? (
            <Spinner size={12} className="studio-inline-spinner" />
          ) : me.data ? (
            <>
              <code>{me.data.address}</code>{' '}
              <Tag minimal intent={me.data.allowed ? Intent.SUCCESS : Intent.DANGER}>
                {me.data.allowed ? t('you.allowed') : t('you.outside')}
              </Tag>
            </>
          ) : (
            t('you.unknown')
          )}
        </p>
        {isAdmin ? (
          <AddForm key={formKey} busy={busy} onAdd={(entry) => add(entry, false)} />
        ) : (
          <Callout icon="lock">{t('readOnly')}</Callout>
        )}
      </Card>
      <Card>
        {entries.isPending && <Spinner size={24} />}
        {entries.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {t('loadFailed')} <Button size="small" text={t('retry')} onClick={() => void entries.refetch()} />
          </Callout>
        )}
        {entries.data?.length === 0 && (
          <NonIdealState icon="globe" title={t('empty')} description={t('emptyHint')} />
        )}
        {entries.data && entries.data.length > 0 && (
          <EntryTable entries={entries.data} isAdmin={isAdmin} busy={busy} onDelete={setDeleting} />
        )}
      </Card>
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText={t('deleteDialog.confirm')}
        cancelButtonText={t('deleteDialog.cancel')}
        loading={busy}
        onConfirm={() => deleting && void remove(deleting, false)}
        onCancel={() => setDeleting(null)}
      >
        <H4>{t('deleteDialog.title', { address: deleting?.address ?? '' })}</H4>
        <p>{t('deleteDialog.body')}</p>
      </Alert>
      <Alert
        isOpen={lockout !== null}
        intent={Intent.WARNING}
        icon="warning-sign"
        confirmButtonText={lockout?.kind === 'delete' ? t('lockout.confirmDelete') : t('lockout.confirmAdd')}
        cancelButtonText={t('lockout.cancel')}
        loading={busy}
        onConfirm={confirmLockout}
        onCancel={() => setLockout(null)}
      >
        <H4>{t('lockout.title')}</H4>
        {lockout && (
          <p data-testid="allowlist-lockout">
            {t(lockout.kind === 'delete' ? 'lockout.delete' : 'lockout.add', {
              entry: lockout.entry,
              address: lockout.address,
            })}
          </p>
        )}
        <p>{t('lockout.consequence')}</p>
      </Alert>
    </div>
  );
}

function problemText(t: ReturnType<typeof useTranslation<'allowlist'>>['t'], problem: RangeProblem): string {
  switch (problem.kind) {
    case 'required':
      return t('problems.required');
    case 'invalid':
      return t('problems.invalid');
    case 'prefix':
      return t('problems.prefix', { max: problem.max });
    case 'hostBits':
      return t('problems.hostBits', { network: problem.network });
  }
}

/** Address (checked as the server checks it) and an optional label. Keeps its input when the add fails. */
function AddForm({
  busy,
  onAdd,
}: {
  busy: boolean;
  onAdd: (entry: { address: string; label: string }) => Promise<void>;
}) {
  const { t } = useTranslation('allowlist');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const errorText = useErrorText();
  const parsed = parseRange(address);
  const addressMessage = checked && !parsed.ok ? problemText(t, parsed.problem) : (serverError ?? undefined);
  const labelMessage =
    label.trim().length > MAX_ALLOWLIST_LABEL
      ? t('problems.labelTooLong', { max: MAX_ALLOWLIST_LABEL })
      : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setServerError(null);
    if (!parsed.ok || labelMessage) return;
    onAdd({ address, label }).catch((error: unknown) => {
      if (!lockoutAddressOf(error)) setServerError(errorText(error));
    });
  };

  return (
    <form className="studio-allowlist-form" onSubmit={submit} noValidate aria-label={t('form.title')}>
      <H5>{t('form.title')}</H5>
      <div className="studio-allowlist-fields">
        <TextField
          id="allowlist-address"
          label={t('form.address')}
          subLabel={t('form.addressHint')}
          message={addressMessage}
          value={address}
          onChange={(event) => {
            setAddress(event.target.value);
            setServerError(null);
          }}
          onBlur={() => address.trim() !== '' && setChecked(true)}
          autoComplete="off"
          spellCheck={false}
          placeholder="203.0.113.0/24"
        />
        <TextField
          id="allowlist-label"
          label={t('form.label')}
          labelInfo={t('form.labelInfo')}
          subLabel={t('form.labelHint')}
          message={labelMessage}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          placeholder={t('form.labelPlaceholder')}
          autoComplete="off"
        />
      </div>
      <Button type="submit" icon="add" intent={Intent.PRIMARY} text={t('form.add')} loading={busy} />
    </form>
  );
}

function EntryTable({
  entries,
  isAdmin,
  busy,
  onDelete,
}: {
  entries: IpAllowListEntry[];
  isAdmin: boolean;
  busy: boolean;
  onDelete: (entry: IpAllowListEntry) => void;
}) {
  const { t } = useTranslation('allowlist');
  const formatDate = useFormat().dateTime;
  return (
    <HTMLTable compact striped aria-label={t('title')}>
      <thead>
        <tr>
          <th>{t('table.address')}</th>
          <th>{t('table.label')}</th>
          <th>{t('table.addedBy')}</th>
          <th>{t('table.addedAt')}</th>
          {isAdmin && <th>{t('table.actions')}</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td className="studio-webhooks-url">{entry.address}</td>
            <td>{entry.label ?? t('table.none')}</td>
            <td>{entry.created_by_name ?? t('table.none')}</td>
            <td>{formatDate(entry.created_at)}</td>
            {isAdmin && (
              <td>
                <Button
                  size="small"
                  icon="trash"
                  intent={Intent.DANGER}
                  text={t('table.delete')}
                  aria-label={`${t('table.delete')} ${entry.address}`}
                  disabled={busy}
                  onClick={() => onDelete(entry)}
                />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
