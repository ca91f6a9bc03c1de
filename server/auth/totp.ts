import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** Real RFC 6238 TOTP (6 digits, 30 s) through otplib; one period of clock drift is accepted. */
export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: 'IDV Studio', label: email, secret });
}

export function totpCode(secret: string, epochSeconds?: number): string {
  return generateSync({ secret, ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }) });
}

export function verifyTotp(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  try {
    return verifySync({ secret, token: code, epochTolerance: 30 }).valid;
  } catch {
    return false;
  }
}
