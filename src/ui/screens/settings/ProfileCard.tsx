import { Button, Callout, Card, H4, Intent } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '#contract/users';
import { failureOf } from '../../../machines/failure';
import { checkRequired } from '../../../machines/validation';
import { accounts } from '../../../services/accounts';
import { updateUser } from '../../../services/api/users';
import { useValidationText } from '../../components/FieldMessage';
import { TextField } from '../../components/TextField';
import { useFormCheck } from '../../components/useFormCheck';
import { showSuccess } from '../../toaster';

const PHONE = /^\+?[0-9 ().-]{3,32}$/;

/** The user's own first and last name and phone (PATCH /user/{id}, no password needed). */
export function ProfileCard({ user, onSaved }: { user: User; onSaved: () => void }) {
  const { t } = useTranslation('admin', { keyPrefix: 'settings' });
  const { t: tc } = useTranslation();
  const text = useValidationText();
  const [first, setFirst] = useState(user.first_name);
  const [last, setLast] = useState(user.last_name);
  const [phone, setPhone] = useState(user.phone ?? '');
  const { failures, passes } = useFormCheck(() => ({
    first: checkRequired(first),
    last: checkRequired(last),
  }));
  const [phoneTried, setPhoneTried] = useState(false);
  const phoneBad = phone.trim() !== '' && !PHONE.test(phone.trim());
  const save = useMutation({
    mutationFn: () =>
      updateUser(user.id, { first_name: first.trim(), last_name: last.trim(), phone: phone.trim() || null }),
    onSuccess: (saved) => {
      // The shell shows the stored account's name.
      const active = accounts.active();
      if (active) accounts.save({ ...active, name: `${saved.first_name} ${saved.last_name}`.trim() });
      void showSuccess(tc('success.userUpdated'));
      onSaved();
    },
  });
  return (
    <Card className="studio-settings-card">
      <H4>{t('profile.title')}</H4>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setPhoneTried(true);
          if (passes() && !phoneBad) save.mutate();
        }}
      >
        {save.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-auth-callout">
            {failureOf(save.error).detail}
          </Callout>
        )}
        <TextField
          id="settings-first-name"
          label={t('profile.firstName')}
          message={text(failures.first)}
          value={first}
          onValueChange={setFirst}
        />
        <TextField
          id="settings-last-name"
          label={t('profile.lastName')}
          message={text(failures.last)}
          value={last}
          onValueChange={setLast}
        />
        <TextField
          id="settings-phone"
          label={t('profile.phone')}
          message={phoneTried && phoneBad ? t('profile.invalidPhone') : undefined}
          type="tel"
          value={phone}
          onValueChange={setPhone}
        />
        <Button type="submit" intent={Intent.PRIMARY} text={t('profile.save')} loading={save.isPending} />
      </form>
    </Card>
  );
}
