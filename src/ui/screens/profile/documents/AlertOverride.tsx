import { Button, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Document } from '#contract/documents';
import { overrideAlert } from '../../../../services/api/documents';
import { ConflictDialog } from '../../../components/ConflictDialog';
import { ReasonDialog } from '../../../components/ReasonDialog';
import { useDocumentAction } from './useDocumentAction';

/** Overrides one alert with a reason (PUT /profile/{id}/rule/{ruleId}). */
export function AlertOverrideButton({
  profileId,
  alertId,
  name,
  document,
}: {
  profileId: number;
  alertId: number;
  name: string;
  /** The alert's document: its version goes with the override. */
  document: Document;
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const { t: tp } = useTranslation('presence');
  const [open, setOpen] = useState(false);
  const [base, setBase] = useState(document);
  const { run, busy, conflict } = useDocumentAction(profileId);
  return (
    <>
      <Button
        size="small"
        text={t('alerts.override')}
        aria-label={t('alerts.overrideNamed', { name })}
        onClick={() => {
          setBase(document);
          setOpen(true);
        }}
      />
      <ReasonDialog
        isOpen={open}
        title={t('alerts.overrideTitle', { name })}
        body={t('alerts.overrideBody')}
        confirm={t('alerts.override')}
        intent={Intent.PRIMARY}
        busy={busy !== null}
        onConfirm={(reason) =>
          run(
            'alert',
            base,
            {},
            (version) => overrideAlert(profileId, alertId, reason, version),
            tc('messages.success'),
            () => setOpen(false),
          )
        }
        label={t('reason.label')}
        help={t('reason.help')}
        cancel={t('cancel')}
        onClose={() => setOpen(false)}
      />
      <ConflictDialog {...conflict.dialog} subject={tp('conflict.document')} />
    </>
  );
}
