import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REASON_MIN } from '../../../../contract/documentRules';
import { reasonIsLongEnough } from '../../../../machines/documents';
import { useFormCheck } from '../../../components/useFormCheck';

/** A confirmation that needs a reason of at least 10 characters (§5): document rejection, alert override. */
export function ReasonDialog({
  isOpen,
  title,
  body,
  confirm,
  busy,
  intent = Intent.DANGER,
  onConfirm,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  body: string;
  confirm: string;
  busy: boolean;
  intent?: Intent;
  /** Answers whether it worked; the dialog closes (and forgets the reason) only then. */
  onConfirm: (reason: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const [reason, setReason] = useState('');
  const { failures, passes, reset } = useFormCheck(() => ({
    reason: reasonIsLongEnough(reason) ? null : 'tooShort',
  }));
  const tooShort = !!failures.reason;
  const close = () => {
    setReason('');
    reset();
    onClose();
  };
  return (
    <Dialog isOpen={isOpen} title={title} icon="warning-sign" onClose={close}>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (!passes()) return;
          if (await onConfirm(reason.trim())) close();
        }}
      >
        <DialogBody>
          <p>{body}</p>
          <FormGroup
            label={t('reason.label')}
            labelFor="document-reason"
            helperText={tooShort ? tc('validation.tooShort', { min: REASON_MIN }) : t('reason.help')}
            intent={tooShort ? Intent.DANGER : Intent.NONE}
          >
            <TextArea
              id="document-reason"
              fill
              autoFocus
              value={reason}
              maxLength={500}
              onChange={(event) => setReason(event.currentTarget.value)}
              intent={tooShort ? Intent.DANGER : Intent.NONE}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('cancel')} onClick={close} />
              <Button type="submit" intent={intent} text={confirm} loading={busy} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
