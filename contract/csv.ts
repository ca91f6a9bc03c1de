/**
 * CSV fields and lines (RFC 4180), shared by the studio's exports and the server's CSV answers: fields with a
 * comma, quote or line break are quoted, quotes doubled. Text that a spreadsheet would run as a formula
 * (=, +, -, @, tab or carriage return first) is prefixed with an apostrophe (names come from users).
 */

/** One CSV field. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: (string | number | null)[]) => fields.map(csvField).join(',');
