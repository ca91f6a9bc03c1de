import { Button, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useId, useState } from 'react';
import { checkLength } from '../../machines/validation';
import { useValidationText } from './FieldMessage';
import { useFormCheck } from './useFormCheck';

/**
 * A text to send (a note, a question, a message) with its §5 length rule. What was typed stays when sending
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
}: {
  label: string;
  placeholder: string;
  submitText: string;
  min: number;
  max?: number;
  counter?: (count: number) => string;
  onSubmit: (text: string) => Promise<unknown>;
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
        <TextArea
          id={id}
          fill
          placeholder={placeholder}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          intent={message ? Intent.DANGER : Intent.NONE}
        />
      </FormGroup>
      <Button type="submit" text={submitText} loading={busy} />
    </form>
  );
}
