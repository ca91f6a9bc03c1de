import { Button } from '@blueprintjs/core';
import type { ComponentProps, ReactNode } from 'react';
import { TextField } from './TextField';

type TextFieldProps = ComponentProps<typeof TextField>;

/**
 * The fields of signing in, signing up and changing a password, each with the input attributes browsers and
 * password managers go by (type, autocomplete, inputmode); ids, labels and messages come from the form.
 */
export function EmailField(
  props: Omit<TextFieldProps, 'type' | 'autoComplete'> & {
    /** `username` where it signs in (or resets a sign-in), `email` where a new account is made. */
    autoComplete: 'username' | 'email';
  },
) {
  return <TextField type="email" {...props} />;
}

export function PasswordField(
  props: Omit<TextFieldProps, 'type' | 'autoComplete'> & {
    autoComplete: 'current-password' | 'new-password';
  },
) {
  return <TextField type="password" {...props} />;
}

/** A 6-digit code (e-mailed or from an authenticator app); it takes the focus as its step opens. */
export function CodeField(props: Omit<TextFieldProps, 'inputMode' | 'autoComplete' | 'maxLength'>) {
  return <TextField inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus {...props} />;
}

export interface NewPassword {
  password: string;
  confirmation: string;
}

export const NO_NEW_PASSWORD: NewPassword = { password: '', confirmation: '' };

/** A new password and its confirmation; `children` (the rules, say) stand between the two. */
export function NewPasswordFields({
  ids,
  labels,
  messages,
  value,
  onChange,
  disabled,
  describedBy,
  children,
}: {
  ids: NewPassword;
  labels: NewPassword;
  messages: { password?: string; confirmation?: string };
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  disabled?: boolean;
  /** The ids of what explains the new password (its aria-describedby). */
  describedBy?: string;
  children?: ReactNode;
}) {
  return (
    <>
      <PasswordField
        id={ids.password}
        label={labels.password}
        message={messages.password}
        autoComplete="new-password"
        value={value.password}
        onValueChange={(password) => onChange({ ...value, password })}
        disabled={disabled}
        aria-describedby={describedBy}
      />
      {children}
      <PasswordField
        id={ids.confirmation}
        label={labels.confirmation}
        message={messages.confirmation}
        autoComplete="new-password"
        value={value.confirmation}
        onValueChange={(confirmation) => onChange({ ...value, confirmation })}
        disabled={disabled}
      />
    </>
  );
}

/**
 * Sending an e-mailed code again: a countdown (a live timer) until the machine allows it, then the button,
 * busy while the new code is sent.
 */
export function ResendCode({
  available,
  resending,
  label,
  waiting,
  className,
  onResend,
}: {
  /** The machine allows a new code now. */
  available: boolean;
  resending: boolean;
  label: string;
  /** The countdown's text ("… in 42 seconds"). */
  waiting: string;
  /** The countdown's class. */
  className: string;
  onResend: () => void;
}) {
  return available || resending ? (
    <Button variant="minimal" icon="refresh" text={label} loading={resending} onClick={onResend} />
  ) : (
    <span className={className} role="timer">
      {waiting}
    </span>
  );
}
