/**
 * Validation rules (docs/product/validation.md), as pure functions. Each returns the name of the failed rule or null; views
 * turn names into their texts (validation.* keys).
 */
import { isAcceptablePassword } from '#contract/passwords';

export type ValidationFailure =
  | 'required'
  | 'email'
  | 'password'
  | 'passwordsDoNotMatch'
  | 'code'
  | 'tooShort'
  | 'tooLong'
  | 'addressDetails'
  | 'futureDate';

/** 6 to 254 characters, local part up to 64, a standard address pattern. */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function checkEmail(value: string): ValidationFailure | null {
  const email = value.trim();
  if (!email) return 'required';
  const local = email.slice(0, email.lastIndexOf('@'));
  if (email.length < 6 || email.length > 254 || local.length > 64 || !EMAIL.test(email)) return 'email';
  return null;
}

/** A new password: the one rule of contract/passwords.ts. */
export function checkPassword(value: string): ValidationFailure | null {
  if (!value) return 'required';
  return isAcceptablePassword(value) ? null : 'password';
}

export function checkConfirmation(password: string, confirmation: string): ValidationFailure | null {
  if (!confirmation) return 'required';
  return password === confirmation ? null : 'passwordsDoNotMatch';
}

/** A 6-digit code (two-factor, e-mail verification). */
export const CODE_LENGTH = 6;

export function checkCode(value: string): ValidationFailure | null {
  const code = value.trim();
  if (!code) return 'required';
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code) ? null : 'code';
}

export function checkRequired(value: string): ValidationFailure | null {
  return value.trim() ? null : 'required';
}

/** Text whose trimmed length must lie between `min` and `max` (notes 10–200, reasons and questions ≥ 10). */
export function checkLength(
  value: string,
  min: number,
  max = Number.POSITIVE_INFINITY,
): ValidationFailure | null {
  const length = value.trim().length;
  if (length === 0) return 'required';
  if (length < min) return 'tooShort';
  return length > max ? 'tooLong' : null;
}

/** Profile edit (docs/product/validation.md): the address needs all its parts. */
export function checkAddress(address: {
  province: string;
  city: string;
  street: string;
}): ValidationFailure | null {
  return [address.province, address.city, address.street].every((part) => part.trim())
    ? null
    : 'addressDetails';
}

/** A YYYY-MM-DD date that is not in the future (date of birth). */
export function checkPastDate(value: string, today = new Date()): ValidationFailure | null {
  if (!value) return null;
  return value > today.toISOString().slice(0, 10) ? 'futureDate' : null;
}
