import { Button, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { overrideAlert } from '../../../../services/api/documents';
import { ReasonDialog } from '../../../components/ReasonDialog';
import { useDocumentAction } from './useDocumentAction';

/** Overrides one alert with a reason (PUT /profile/{id}/rule/{ruleId}). */
export function AlertOverrideButton({
  profileId,
  alertId,
  name,
}: {
  profileId: number;
  alertId: number;
  name: string;
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const [open, setOpen] = useState(false);
  const { run, busy } = useDocumentAction(profileId);
  return (
    <>
      <Button
        size="small"
        text={t('alerts.override')}
        aria-label={t('alerts.overrideNamed', { name })}
        onClick={() => setOpen(true)}
      />
      <ReasonDialog
        isOpen={open}
        title={t('alerts.overrideTitle', { name })}
        body={t('alerts.overrideBody')}
        confirm={t('alerts.override')}
        intent={Intent.PRIMARY}
        busy={busy !== null}
        onConfirm={(reason) =>
          run('alert', () => overrideAlert(profileId, alertId, reason), tc('messages.success'))
        }
        label={t('reason.label')}
        help={t('reason.help')}
        cancel={t('cancel')}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
