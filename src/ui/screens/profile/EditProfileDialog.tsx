import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../../../contract/profiles';
import {
  checkAddress,
  checkEmail,
  checkPastDate,
  type ValidationFailure,
} from '../../../machines/validation';
import { isApiError } from '../../../services/api/http';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import { updateProfile } from '../../../services/api/profileWrites';
import { useValidationText } from '../../components/FieldMessage';
import { GENDERS } from '../../components/profileLabels';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { showError, showSuccess } from '../../toaster';

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
  // §5: profile edit requires the address details; the parts left empty are marked.
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

/** Edits the profile's details (§7 PATCH /profile/{id}); "Customer updated successfully". */
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
  const text = useValidationText();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(() => fromProfile(profile));
  const [busy, setBusy] = useState(false);
  const { failures, passes } = useFormCheck(() => check(form));
  const field = (key: keyof Form, label: string) => ({
    id: `edit-${key}`,
    label,
    message: text(failures[key]),
    value: form[key],
    onValueChange: (value: string) => setForm((current) => ({ ...current, [key]: value })),
  });
  const orNull = (value: string) => value.trim() || null;

  const save = async () => {
    if (!passes()) return;
    setBusy(true);
    try {
      await updateProfile(profile.id, {
        name: orNull(form.name),
        gender: orNull(form.gender),
        email: orNull(form.email),
        phone: orNull(form.phone),
        nationality: orNull(form.nationality),
        date_of_birth: orNull(form.date_of_birth),
        address: { province: form.province.trim(), city: form.city.trim(), street: form.street.trim() },
      });
      await queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profile.id) });
      void queryClient.invalidateQueries({ queryKey: profileDetailKeys.logs(profile.id) });
      void showSuccess(tc('success.customerUpdated'));
      onClose();
    } catch (error) {
      // What was typed stays in the form.
      void showError(isApiError(error) && error.detail ? error.detail : tc('messages.error'));
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
        <DialogFooter
          actions={
            <>
              <Button text={t('edit.cancel')} onClick={onClose} />
              <Button type="submit" intent={Intent.PRIMARY} text={t('edit.save')} loading={busy} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
