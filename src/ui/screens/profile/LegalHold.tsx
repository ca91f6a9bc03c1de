import { Button, Intent, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { evidenceKeys, getLegalHold, setLegalHold } from '../../../services/api/evidence';
import { isApiError } from '../../../services/api/http';
import { useActiveAccount } from '../../app/useAccounts';
import { ReasonDialog } from '../../components/ReasonDialog';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';

/**
 * The profile's legal hold: a tag while it is on hold, and for Admins the button that sets or lifts
 * it, with a reason confirmed in a dialog. The server decides and audits; the tag shows what it answered.
 */
export function LegalHold({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const key = evidenceKeys.legalHold(profileId);
  const hold = useQuery({ queryKey: key, queryFn: ({ signal }) => getLegalHold(profileId, { signal }) });
  const [asking, setAsking] = useState(false);
  const change = useMutation({
    mutationFn: (body: { hold: boolean; reason: string }) => setLegalHold(profileId, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      void showSuccess(answer.hold ? t('legalHold.savedSet') : t('legalHold.savedLift'));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  if (!hold.data) return null;
  const on = hold.data.hold;
  return (
    <>
      {on && (
        <Tag
          icon="lock"
          intent={Intent.WARNING}
          title={t('legalHold.tagHint', {
            date: hold.data.changed_at ? date(hold.data.changed_at) : '',
            reason: hold.data.reason ?? '',
          })}
        >
          {t('legalHold.tag')}
        </Tag>
      )}
      {isAdmin && (
        <Button
          size="small"
          variant="minimal"
          icon="lock"
          text={on ? t('legalHold.lift') : t('legalHold.set')}
          loading={change.isPending}
          onClick={() => setAsking(true)}
        />
      )}
      <ReasonDialog
        isOpen={asking}
        title={on ? t('legalHold.liftTitle') : t('legalHold.setTitle')}
        body={on ? t('legalHold.liftBody') : t('legalHold.setBody')}
        label={t('legalHold.reason')}
        help={t('legalHold.reasonHelp')}
        confirm={on ? t('legalHold.confirmLift') : t('legalHold.confirmSet')}
        cancel={t('legalHold.cancel')}
        intent={Intent.WARNING}
        busy={change.isPending}
        onConfirm={async (reason) => {
          try {
            await change.mutateAsync({ hold: !on, reason });
            return true;
          } catch {
            return false;
          }
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
