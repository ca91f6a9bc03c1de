import { Button, DialogBody, DialogFooter, type IconName, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

/**
 * The confirmation before a destructive step: what will happen (`children`), Cancel, and the step's own
 * (danger) button, which takes the focus and is busy while the step runs.
 */
export function ConfirmDialog({
  isOpen,
  title,
  icon,
  cancel,
  confirm,
  busy,
  onConfirm,
  onClose,
  children,
}: {
  isOpen: boolean;
  title: string;
  icon: IconName;
  cancel: string;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog isOpen={isOpen} title={title} icon={icon} onClose={onClose}>
      <DialogBody>{children}</DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={cancel} onClick={onClose} />
            <Button intent={Intent.DANGER} text={confirm} autoFocus loading={busy} onClick={onConfirm} />
          </>
        }
      />
    </Dialog>
  );
}
