import { Button, DialogBody, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { checkRequired } from '../../../machines/validation';
import { isApiError } from '../../../services/api/http';
import { createProfile, quickAddId } from '../../../services/api/profileWrites';
import { Dialog } from '../../components/Dialog';
import { useValidationText } from '../../components/FieldMessage';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { GENDERS } from '../../components/profileLabels';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { showError, showSuccess } from '../../toaster';

/** Quick add (a `qa_` id, no name or gender) and the create-profile dialog (POST /profile). */
export function CreateProfile() {
  const { t } = useTranslation('customers');
  const { t: tp } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const text = useValidationText();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'quick' | 'dialog' | null>(null);
  const [form, setForm] = useState({ id_card_number: '', name: '', gender: '' });
  const { failures, passes, reset } = useFormCheck(() => ({
    id_card_number: checkRequired(form.id_card_number),
  }));

  const create = async (
    body: { id_card_number: string; name: string | null; gender: string | null },
    kind: 'quick' | 'dialog',
  ) => {
    setBusy(kind);
    try {
      const profile = await createProfile(body);
      void queryClient.invalidateQueries({ queryKey: ['profiles', 'list'] });
      void showSuccess(t('create.created'));
      setOpen(false);
      setForm({ id_card_number: '', name: '', gender: '' });
      reset();
      navigate(`~/profile/${profile.id}`);
    } catch (error) {
      void showError(isApiError(error) && error.detail ? error.detail : tc('messages.error'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="studio-create-profile">
      <Button
        icon="add"
        text={t('create.quickAdd')}
        loading={busy === 'quick'}
        onClick={() => create({ id_card_number: quickAddId(), name: null, gender: null }, 'quick')}
      />
      <Button
        icon="new-person"
        intent={Intent.PRIMARY}
        text={t('create.new')}
        onClick={() => setOpen(true)}
      />
      <Dialog isOpen={open} title={t('create.title')} icon="new-person" onClose={() => setOpen(false)}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!passes()) return;
            void create(
              {
                id_card_number: form.id_card_number.trim(),
                name: form.name.trim() || null,
                gender: form.gender || null,
              },
              'dialog',
            );
          }}
        >
          <DialogBody>
            <TextField
              id="create-id-card"
              label={t('create.idCardNumber')}
              message={text(failures.id_card_number)}
              labelInfo="*"
              autoFocus
              value={form.id_card_number}
              onValueChange={(value) => setForm((current) => ({ ...current, id_card_number: value }))}
            />
            <TextField
              id="create-name"
              label={t('create.name')}
              value={form.name}
              onValueChange={(value) => setForm((current) => ({ ...current, name: value }))}
            />
            <FormGroup label={t('create.gender')} labelFor="create-gender">
              <HTMLSelect
                id="create-gender"
                fill
                value={form.gender}
                onChange={(event) =>
                  setForm((current) => ({ ...current, gender: event.currentTarget.value }))
                }
                options={[
                  { value: '', label: tp('edit.genders.none') },
                  ...GENDERS.map((gender) => ({ value: gender, label: tp(`edit.genders.${gender}`) })),
                ]}
              />
            </FormGroup>
          </DialogBody>
          <FormDialogFooter
            cancel={t('create.cancel')}
            onCancel={() => setOpen(false)}
            submit={t('create.save')}
            busy={busy === 'dialog'}
          />
        </form>
      </Dialog>
    </div>
  );
}
