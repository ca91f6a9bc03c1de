import { Button, DialogFooter, type IconName, Intent } from '@blueprintjs/core';

/** The footer of a dialog that is a form: Cancel, and the form's submit button (busy while it is sent). */
export function FormDialogFooter({
  cancel,
  onCancel,
  submit,
  icon,
  intent = Intent.PRIMARY,
  busy,
  disabled,
}: {
  cancel: string;
  onCancel: () => void;
  submit: string;
  icon?: IconName;
  intent?: Intent;
  busy?: boolean;
  /** Nothing to send yet (nothing changed). */
  disabled?: boolean;
}) {
  return (
    <DialogFooter
      actions={
        <>
          <Button text={cancel} onClick={onCancel} />
          <Button
            type="submit"
            intent={intent}
            icon={icon}
            text={submit}
            loading={busy}
            disabled={disabled}
          />
        </>
      }
    />
  );
}
