import { FormGroup, InputGroup, type InputGroupProps, Intent } from '@blueprintjs/core';

/** A labelled text input whose validation message, when given, marks the field as failed. */
export function TextField({
  id,
  label,
  message,
  subLabel,
  labelInfo,
  className,
  ...input
}: InputGroupProps & {
  id: string;
  label: string;
  message?: string;
  subLabel?: string;
  labelInfo?: string;
  className?: string;
}) {
  const intent = message ? Intent.DANGER : Intent.NONE;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      subLabel={subLabel}
      labelInfo={labelInfo}
      helperText={message}
      intent={intent}
      className={className}
    >
      <InputGroup id={id} intent={intent} {...input} />
    </FormGroup>
  );
}
