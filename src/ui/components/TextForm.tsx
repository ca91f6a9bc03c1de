import { Button, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { type ReactNode, useId, useState } from 'react';
import { checkLength } from '../../machines/validation';
import { useValidationText } from './FieldMessage';
import { useFormCheck } from './useFormCheck';

export interface TextInputProps {
  id: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  intent: Intent;
}

function DefaultInput({ id, placeholder, value, onValueChange, intent }: TextInputProps) {
  return (
    <TextArea
      id={id}
      fill
      placeholder={placeholder}
      value={value}
      onChange={(event) => onValueChange(event.currentTarget.value)}
      intent={intent}
    />
  );
}

/**
 * A text to send (a note, a question, a message) with its length rule (docs/product/validation.md#lengths). What was typed stays when sending
 * fails; it is cleared only when `onSubmit` succeeds.
 */
export function TextForm({
  label,
  placeholder,
  submitText,
  min,
  max,
  counter,
  onSubmit,
  input,
}: {
  label: string;
  placeholder: string;
  submitText: string;
  min: number;
  max?: number;
  counter?: (count: number) => string;
  onSubmit: (text: string) => Promise<unknown>;
  /** Another text area (e.g. one that offers @mentions), given what the default one gets. */
  input?: (props: TextInputProps) => ReactNode;
}) {
  const id = useId();
  const text = useValidationText();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const { failures, passes, reset } = useFormCheck(() => ({ text: checkLength(value, min, max) }));
  const message = text(failures.text, { min, max });
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (!passes()) return;
        setBusy(true);
        try {
          await onSubmit(value.trim());
          setValue('');
          reset();
        } catch {
          // The caller reported the failure; the text stays for another try.
        } finally {
          setBusy(false);
        }
      }}
    >
      <FormGroup
        label={label}
        labelFor={id}
        helperText={message ?? counter?.(value.trim().length)}
        intent={message ? Intent.DANGER : Intent.NONE}
      >
        {(input ?? DefaultInput)({
          id,
          placeholder,
          value,
          onValueChange: setValue,
          intent: message ? Intent.DANGER : Intent.NONE,
        })}
      </FormGroup>
      <Button type="submit" text={submitText} loading={busy} />
    </form>
  );
}
