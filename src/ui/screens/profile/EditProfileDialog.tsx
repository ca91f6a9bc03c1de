import { DialogBody, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '#contract/profiles';
import {
  checkAddress,
  checkEmail,
  checkPastDate,
  type ValidationFailure,
} from '../../../machines/validation';
import { myChanges, PROFILE_FIELDS } from '../../../machines/versionConflict';
import { isApiError } from '../../../services/api/http';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import { type ProfileChanges, updateProfile } from '../../../services/api/profileWrites';
import { ConflictDialog } from '../../components/ConflictDialog';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { GENDERS } from '../../components/profileLabels';
import { TextField } from '../../components/TextField';
import { useConflict } from '../../components/useConflict';
import { useFormCheck } from '../../components/useFormCheck';
import { showError, showSuccess } from '../../toaster';
import { useProfileValueFormat } from './useProfileValueFormat';

type Form = {
  name: string;
  gender: string;
  email: string;
  phone: string;
  nationality: string;
  date_of_birth: string;
  province: string;
  city: string;
  street: string;
};

const fromProfile = (p: Profile): Form => ({
  name: p.name ?? '',
  gender: p.gender ?? '',
  email: p.email ?? '',
  phone: p.phone ?? '',
  nationality: p.nationality ?? '',
  date_of_birth: p.date_of_birth ?? '',
  province: p.address.province ?? '',
  city: p.address.city ?? '',
  street: p.address.street ?? '',
});

function check(form: Form): Record<keyof Form, ValidationFailure | null> {
  // A profile edit requires the address details; the parts left empty are marked.
  const address = (part: 'province' | 'city' | 'street') =>
    checkAddress(form) && !form[part].trim() ? 'addressDetails' : null;
  return {
    name: null,
    gender: null,
    email: form.email.trim() ? checkEmail(form.email) : null,
    phone: null,
    nationality: null,
    date_of_birth: checkPastDate(form.date_of_birth),
    province: address('province'),
    city: address('city'),
    street: address('street'),
  };
}

const orNull = (value: string) => value.trim() || null;

/** The form as the request body (the address always whole). */
function changesOf(form: Partial<Form>): ProfileChanges {
  const changes: ProfileChanges = {};
  for (const key of ['name', 'gender', 'email', 'phone', 'nationality', 'date_of_birth'] as const) {
    const value = form[key];
    if (value !== undefined) changes[key] = orNull(value);
  }
  return changes;
}

/**
 * Edits the profile's details (PATCH /profile/{id}); "Customer updated successfully". The edit carries
 * the version the dialog opened on: if someone else saved the profile meanwhile, the conflict
 * dialog shows what changed, and re-applying sends only the fields this reviewer changed.
 */
export function EditProfileDialog({
  profile,
  isOpen,
  onClose,
}: {
  profile: Profile;
  isOpen: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const { t: tp } = useTranslation('presence');
  const text = useValidationText();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => fromProfile(profile));
  // The profile as the dialog opened: live updates of the screen must not move the version under the form.
  const [base] = useState(profile);
  const [busy, setBusy] = useState(false);
  const format = useProfileValueFormat();
  const failed = (error: unknown) =>
    void showError(isApiError(error) && error.detail ? error.detail : tc('messages.error'));
  const conflict = useConflict(PROFILE_FIELDS, {
    onDiscarded: () => {
      void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profile.id) });
      onClose();
    },
    onError: failed,
  });
  const { failures, passes } = useFormCheck(() => check(form));
  const field = (key: keyof Form, label: string) => ({
    id: `edit-${key}`,
    label,
    message: text(failures[key]),
    value: form[key],
    onValueChange: (value: string) => setForm((current) => ({ ...current, [key]: value })),
  });
  const address = { province: form.province.trim(), city: form.city.trim(), street: form.street.trim() };

  const saved = (answer: unknown) => {
    // The answered profile (its new version) at once: a next write must not conflict with this one.
    queryClient.setQueryData(profileDetailKeys.profile(profile.id), answer as Profile);
    void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profile.id) });
    void queryClient.invalidateQueries({ queryKey: profileDetailKeys.logs(profile.id) });
    void showSuccess(tc('success.customerUpdated'));
    onClose();
  };

  const save = async () => {
    if (!passes()) return;
    setBusy(true);
    try {
      await conflict.attempt(
        base,
        form,
        (version, again) => {
          if (!again) return updateProfile(profile.id, { ...changesOf(form), address }, version);
          // Again, after a conflict: only what this reviewer changed, so the other's changes stay.
          const mine = myChanges(PROFILE_FIELDS, base, form) as Partial<Form>;
          const addressChanged = 'province' in mine || 'city' in mine || 'street' in mine;
          return updateProfile(
            profile.id,
            { ...changesOf(mine), ...(addressChanged ? { address } : {}) },
            version,
          );
        },
        saved,
      );
    } catch (error) {
      // What was typed stays in the form.
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} title={t('edit.title')} icon="edit" onClose={onClose} style={{ width: 640 }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <DialogBody>
          <div className="studio-form-grid">
            <TextField {...field('name', t('info.name'))} autoFocus />
            <FormGroup label={t('info.gender')} labelFor="edit-gender">
              <HTMLSelect
                id="edit-gender"
                fill
                value={form.gender}
                onChange={(event) =>
                  setForm((current) => ({ ...current, gender: event.currentTarget.value }))
                }
                options={[
                  { value: '', label: t('edit.genders.none') },
                  ...GENDERS.map((gender) => ({ value: gender, label: t(`edit.genders.${gender}`) })),
                ]}
              />
            </FormGroup>
            <TextField {...field('email', t('info.email'))} type="email" />
            <TextField {...field('phone', t('info.phone'))} type="tel" />
            <TextField {...field('nationality', t('info.nationality'))} />
            <TextField {...field('date_of_birth', t('info.dateOfBirth'))} type="date" />
            <TextField {...field('province', t('edit.province'))} />
            <TextField {...field('city', t('edit.city'))} />
            <TextField {...field('street', t('edit.street'))} className="studio-form-wide" />
          </div>
        </DialogBody>
        <FormDialogFooter cancel={t('edit.cancel')} onCancel={onClose} submit={t('edit.save')} busy={busy} />
      </form>
      <ConflictDialog {...conflict.dialog} subject={tp('conflict.profile')} format={format} />
    </Dialog>
  );
}
