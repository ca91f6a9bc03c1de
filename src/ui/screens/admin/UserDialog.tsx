import { Callout, Checkbox, DialogBody, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AGENT_LANGUAGES, type AgentLanguage } from '#contract/callRouting';
import type { Group } from '#contract/companies';
import { ROLES, type Role } from '#contract/constants';
import type { User } from '#contract/users';
import { checkEmail, checkRequired } from '../../../machines/validation';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { useRoleLabel } from './roles';

export interface UserFormValues {
  first_name: string;
  last_name: string;
  username: string;
  phone: string;
  role: Role;
  groups: number[];
  languages: AgentLanguage[];
}

const PHONE = /^\+?[0-9 ().-]{3,32}$/;

/**
 * Add or edit a user: names, e-mail (the username), phone, role, groups and the languages they speak with
 * customers. Adding sends an invitation;
 * the admin never chooses or sees a password. Sending asks for the admin's password (the prompt).
 */
export function UserDialog({
  user,
  groups,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  user: User | null;
  groups: Group[];
  busy: boolean;
  error: string | null;
  onSubmit: (values: UserFormValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  const text = useValidationText();
  const roleLabel = useRoleLabel();
  const [values, setValues] = useState<UserFormValues>({
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    username: user?.username ?? '',
    phone: user?.phone ?? '',
    role: user?.role ?? 'User',
    groups: user?.groups.map((g) => g.id) ?? [],
    languages: user?.languages ?? [],
  });
  const set = (change: Partial<UserFormValues>) => setValues((current) => ({ ...current, ...change }));
  const { failures, passes } = useFormCheck(() => ({
    first_name: checkRequired(values.first_name),
    last_name: checkRequired(values.last_name),
    username: checkEmail(values.username.trim()),
  }));
  const [phoneTried, setPhoneTried] = useState(false);
  const phoneBad = values.phone.trim() !== '' && !PHONE.test(values.phone.trim());
  const title = user
    ? t('form.editTitle', { name: `${user.first_name} ${user.last_name}` })
    : t('form.addTitle');

  return (
    <Dialog isOpen title={title} icon={user ? 'edit' : 'new-person'} onClose={onCancel}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setPhoneTried(true);
          if (!passes() || phoneBad) return;
          onSubmit({
            ...values,
            first_name: values.first_name.trim(),
            last_name: values.last_name.trim(),
            username: values.username.trim(),
            phone: values.phone.trim(),
          });
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
              {error}
            </Callout>
          )}
          {!user && <p>{t('form.invitation')}</p>}
          <div className="studio-form-row">
            <TextField
              id="user-first-name"
              label={t('form.firstName')}
              message={text(failures.first_name)}
              autoFocus
              value={values.first_name}
              onValueChange={(first_name) => set({ first_name })}
            />
            <TextField
              id="user-last-name"
              label={t('form.lastName')}
              message={text(failures.last_name)}
              value={values.last_name}
              onValueChange={(last_name) => set({ last_name })}
            />
          </div>
          <TextField
            id="user-email"
            label={t('form.email')}
            message={text(failures.username)}
            type="email"
            value={values.username}
            onValueChange={(username) => set({ username })}
          />
          <TextField
            id="user-phone"
            label={t('form.phone')}
            message={phoneTried && phoneBad ? t('errors.invalidPhone') : undefined}
            type="tel"
            value={values.phone}
            onValueChange={(phone) => set({ phone })}
          />
          <FormGroup label={t('form.role')} labelFor="user-role">
            <HTMLSelect
              id="user-role"
              value={values.role}
              onChange={(event) => set({ role: event.currentTarget.value as Role })}
              options={ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
            />
          </FormGroup>
          <FormGroup label={t('form.groups')}>
            {groups.length === 0 && <p className="studio-muted">{t('form.noGroups')}</p>}
            {groups.map((group) => (
              <Checkbox
                key={group.id}
                label={group.name}
                checked={values.groups.includes(group.id)}
                onChange={(event) =>
                  set({
                    groups: event.currentTarget.checked
                      ? [...values.groups, group.id]
                      : values.groups.filter((id) => id !== group.id),
                  })
                }
              />
            ))}
          </FormGroup>
          <FormGroup label={t('languages.label')} helperText={t('languages.help')}>
            {AGENT_LANGUAGES.map((language) => (
              <Checkbox
                key={language}
                label={t(`languages.${language}`)}
                checked={values.languages.includes(language)}
                onChange={(event) =>
                  set({
                    languages: AGENT_LANGUAGES.filter((l) =>
                      l === language ? event.currentTarget.checked : values.languages.includes(l),
                    ),
                  })
                }
              />
            ))}
          </FormGroup>
        </DialogBody>
        <FormDialogFooter
          cancel={t('form.cancel')}
          onCancel={onCancel}
          submit={user ? t('form.save') : t('form.invite')}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
