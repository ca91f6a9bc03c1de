import { DialogBody, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REJECT_REASON_MIN, reasonIsLongEnough } from '#contract/constants';
import { Dialog } from './Dialog';
import { FormDialogFooter } from './FormDialogFooter';
import { useFormCheck } from './useFormCheck';

/**
 * A confirmation that needs a reason of at least 10 characters (docs/product/validation.md): a rejected or blacklisted customer, a
 * rejected document, an overridden alert. The texts are the caller's.
 */
export function ReasonDialog({
  isOpen,
  title,
  body,
  label,
  help,
  confirm,
  cancel,
  busy = false,
  intent = Intent.DANGER,
  onConfirm,
  onClose,
  onClosed,
  children,
}: {
  isOpen: boolean;
  title: string;
  body: string;
  label: string;
  help: string;
  confirm: string;
  cancel: string;
  busy?: boolean;
  intent?: Intent;
  /** Answers whether it worked; the dialog closes (and forgets the reason) only then. */
  onConfirm: (reason: string) => boolean | Promise<boolean>;
  onClose: () => void;
  /** Once the closing transition has ended (the dialog has given the focus back, where it could). */
  onClosed?: () => void;
  /** Fields asked for with the reason (e.g. the status a call is closed with), above it. */
  children?: ReactNode;
}) {
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
    <Dialog isOpen={isOpen} title={title} icon="warning-sign" onClose={close} onClosed={onClosed}>
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
          {children}
          <FormGroup
            label={label}
            labelFor="confirm-reason"
            helperText={tooShort ? tc('validation.tooShort', { min: REJECT_REASON_MIN }) : help}
            intent={tooShort ? Intent.DANGER : Intent.NONE}
          >
            <TextArea
              id="confirm-reason"
              fill
              autoFocus
              value={reason}
              maxLength={500}
              onChange={(event) => setReason(event.currentTarget.value)}
              intent={tooShort ? Intent.DANGER : Intent.NONE}
            />
          </FormGroup>
        </DialogBody>
        <FormDialogFooter cancel={cancel} onCancel={close} submit={confirm} intent={intent} busy={busy} />
      </form>
    </Dialog>
  );
}
