/**
 * Risk scores of a profile (the profile sidebar's: phone, e-mail, IP), 0 (no risk seen) to 100, computed by these
 * documented rules from the profile's own data. null when there is nothing to score.
 *
 * E-mail: a throw-away provider 90; a reserved test domain (RFC 2606: example.*, *.test, *.invalid) 70;
 *   a free mail provider 40; a local part with five digits or more in a row +20; otherwise 10.
 * Phone: fewer than 8 digits 80; a country calling code that does not belong to the customer's
 *   nationality 60; no `+` country code 40; otherwise 10.
 * IP (the newest device's address): a private, loopback or link-local address (the real one is hidden
 *   behind a gateway) 50; malformed 80; otherwise 10. No geolocation data is used.
 */
export interface RiskScores {
  phone: number | null;
  email: number | null;
  ip: number | null;
}

const THROWAWAY = [
  'mailinator.com',
  'guerrillamail.com',
  '10minutemail.com',
  'tempmail.com',
  'yopmail.com',
  'trashmail.com',
];
const FREE = [
  'gmail.com',
  'hotmail.com',
  'outlook.com',
  'yahoo.com',
  'yandex.com',
  'icloud.com',
  'mail.ru',
  'gmx.de',
  'web.de',
];

/** Country calling codes of the nationalities the studio meets (ISO 3166 alpha-2). */
const CALLING_CODES: Record<string, string> = {
  TR: '90',
  DE: '49',
  FR: '33',
  NL: '31',
  IT: '39',
  GB: '44',
  AZ: '994',
  US: '1',
  ES: '34',
  AT: '43',
  CH: '41',
};

export function emailRisk(email: string | null): number | null {
  if (!email) return null;
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  let score = 10;
  if (THROWAWAY.includes(domain)) score = 90;
  else if (/(^|\.)example\.[a-z]+$|\.test$|\.invalid$/.test(domain)) score = 70;
  else if (FREE.includes(domain)) score = 40;
  if (/\d{5,}/.test(local)) score += 20;
  return Math.min(100, score);
}

export function phoneRisk(phone: string | null, nationality: string | null): number | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 8) return 80;
  if (!phone.trim().startsWith('+')) return 40;
  const code = nationality ? CALLING_CODES[nationality.toUpperCase()] : undefined;
  if (code && !digits.startsWith(code)) return 60;
  return 10;
}

export function ipRisk(ip: string | null): number | null {
  if (!ip) return null;
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return 80;
  const [a = 0, b = 0] = parts;
  const hidden =
    a === 10 ||
    a === 127 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254);
  return hidden ? 50 : 10;
}

export function riskScores(input: {
  email: string | null;
  phone: string | null;
  nationality: string | null;
  ip: string | null;
}): RiskScores {
  return {
    email: emailRisk(input.email),
    phone: phoneRisk(input.phone, input.nationality),
    ip: ipRisk(input.ip),
  };
}
