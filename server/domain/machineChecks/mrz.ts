/**
 * The machine-readable zone of an identity document (ICAO 9303): ID cards (TD1, 3 lines of 30 characters) and
 * passports (TD3, 2 lines of 44). The `mrz` package parses and validates; this module finds the zone in what the
 * OCR read, turns the package's result into the fields the agent sees, and says which check digits hold.
 */
import { type Details, type ParseResult, parse } from 'mrz';
import type { MrzReading } from '#contract/machineChecks';

const LINE_LENGTHS = { TD1: [30, 3], TD3: [44, 2] } as const;

/** The characters an MRZ may hold. OCR reads `<` as « or K-like shapes sometimes; those are mapped first. */
function cleanLine(line: string): string {
  return (
    line
      .toUpperCase()
      .replace(/[«‹]/g, '<')
      .replace(/\s+/g, '')
      .replace(/[^A-Z0-9<]/g, '')
      // A long run of fillers is often read with an L, K or S among them: a line's end of nothing but fillers
      // and those letters, from a double filler on, is fillers.
      .replace(/<<[<LKS]*$/, (tail) => '<'.repeat(tail.length))
  );
}

/** A line read one or two characters short or long is padded or cut at its filler end. */
function fitLength(line: string, length: number): string {
  return line.length >= length ? line.slice(0, length) : line.padEnd(length, '<');
}

/** The OCR text's lines that may be MRZ lines, cleaned. */
const candidateLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map(cleanLine)
    .filter((l) => l.length >= 20 && l.includes('<'));

/** The last run of `count` lines of about `length` characters, fitted to it; null when there is none. */
function runOf(lines: string[], length: number, count: number): string[] | null {
  const close = (l: string) => Math.abs(l.length - length) <= 2;
  // A blurred run of fillers is often read as fewer of them: a short line that ends in fillers is padded,
  // as long as another line of the run has the right length.
  const near = (l: string) => close(l) || (l.endsWith('<<') && l.length >= length / 2 && l.length < length);
  for (let end = lines.length; end >= count; end--) {
    const run = lines.slice(end - count, end);
    if (run.every(near) && run.some(close)) return run.map((l) => fitLength(l, length));
  }
  return null;
}

/**
 * The names line with all after the given names made fillers. ICAO 9303 puts two fillers between the surname
 * and the given names and one between given names, so the next two fillers end them: a letter after those is
 * a filler misread (a long run of fillers is read with a stray C now and then, which no check digit covers).
 * `start`: where the names begin (after a passport's type and issuing state).
 */
function namesEnded(line: string, start: number): string {
  const surnameEnd = line.indexOf('<<', start);
  const givenEnd = surnameEnd < 0 ? -1 : line.indexOf('<<', surnameEnd + 2);
  return givenEnd < 0 ? line : line.slice(0, givenEnd).padEnd(line.length, '<');
}

/**
 * The MRZ lines in an OCR text: the last run of 3 lines near 30 characters (TD1) or 2 lines near 44 (TD3),
 * since the zone is at the bottom of the page. Null when no such run is found.
 */
export function findMrzLines(text: string): string[] | null {
  const lines = candidateLines(text);
  for (const [length, count] of [LINE_LENGTHS.TD3, LINE_LENGTHS.TD1]) {
    const run = runOf(lines, length, count);
    // The names are a passport's first line from its sixth character, an ID card's third line.
    const [names, start] = count === LINE_LENGTHS.TD3[1] ? [0, 5] : [2, 0];
    if (run) return run.map((line, index) => (index === names ? namesEnded(line, start) : line));
  }
  return null;
}

/**
 * Which of a zone's lines carry its check digits: a passport's second line (the first holds the type, the
 * issuing state and the names), an ID card's first two (the third holds the names).
 */
export function checkedLines(lineCount: number): [first: number, last: number] {
  return lineCount === LINE_LENGTHS.TD3[1] ? [1, 1] : [0, 1];
}

/**
 * The zone `lines` with the lines that carry check digits taken from `reread` (a reading of those lines alone);
 * null when `reread` holds no run of them. The other lines stay as first read: no check digit says whether a
 * second reading of a name is better than the first.
 */
export function withCheckedLinesFrom(lines: string[], reread: string): string[] | null {
  const [first, last] = checkedLines(lines.length);
  const length = lines[0]?.length ?? 0;
  const run = runOf(candidateLines(reread), length, last - first + 1);
  if (!run) return null;
  return lines.map((line, index) =>
    index >= first && index <= last ? (run[index - first] as string) : line,
  );
}

/** A YYMMDD date of the MRZ as ISO, its century chosen so birth dates lie in the past and expiries near now. */
export function mrzDate(
  value: string | null | undefined,
  kind: 'birth' | 'expiry',
  today: Date,
): string | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const mm = Number(value.slice(2, 4));
  const dd = Number(value.slice(4, 6));
  const thisYear = today.getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  // A birth date is never in the future; an expiry is at most about 20 years ahead.
  if (kind === 'birth' && year > thisYear) year -= 100;
  if (kind === 'expiry' && year > thisYear + 20) year -= 100;
  const date = new Date(Date.UTC(year, mm - 1, dd));
  if (date.getUTCMonth() !== mm - 1 || date.getUTCDate() !== dd) return null;
  return date.toISOString().slice(0, 10);
}

const rawOf = (lines: string[], detail: Details | undefined) =>
  detail ? (lines[detail.line] ?? '').slice(detail.start, detail.end).replace(/<+$/g, '') : null;

/**
 * Parses MRZ lines (as `findMrzLines` gives them). Ambiguous characters are corrected where the field's type
 * allows (O→0 in a date). The issuing state and nationality are kept as read even when the package does not
 * know them (the ICAO specimens use `UTO`). Null for lines of no supported format.
 */
export function parseMrz(lines: string[], today: Date): MrzReading | null {
  const result = tryParse(lines);
  if (!result) return null;
  const repaired = repairDocumentNumber(lines, result);
  const again = repaired ? tryParse(repaired.lines) : null;
  return again && repaired
    ? readingOf(repaired.lines, again, today, [repaired.correction])
    : readingOf(lines, result, today, []);
}

function tryParse(lines: string[]): ParseResult | null {
  try {
    const result = parse(lines, { autocorrect: true });
    return result.format === 'TD1' || result.format === 'TD3' ? result : null;
  } catch {
    return null;
  }
}

/**
 * The letters OCR reads for a digit in a field of letters and digits (the document number): the zero as O, the
 * one as I. Only this way round: issuers avoid O and I in document numbers for this very confusion, so a number
 * read with them is a misread, and a wrong check digit of a number without them can never be explained away.
 */
const LOOK_ALIKE: Record<string, string> = { O: '0', I: '1' };

/**
 * A document number whose check digit fails because a digit was read as its look-alike letter: when exactly one
 * way of reading those letters as digits makes the check digit hold, that reading is taken and said
 * (`corrected`), so the agent sees that the digit held only after a correction.
 */
function repairDocumentNumber(
  lines: string[],
  result: ParseResult,
): { lines: string[]; correction: string } | null {
  const number = result.details.find((d) => d.field === 'documentNumber');
  const check = result.details.find((d) => d.field === 'documentNumberCheckDigit');
  if (!number || !check || check.valid) return null;
  const line = lines[number.line] ?? '';
  const raw = line.slice(number.start, number.end);
  const expected = line[check.start];
  const positions = [...raw].flatMap((c, i) => (c in LOOK_ALIKE ? [i] : []));
  if (!expected || positions.length === 0 || positions.length > 3) return null;
  const holding: string[] = [];
  for (let mask = 1; mask < 1 << positions.length; mask++) {
    const chars = [...raw];
    positions.forEach((at, k) => {
      if (mask & (1 << k)) chars[at] = LOOK_ALIKE[chars[at] as string] as string;
    });
    const variant = chars.join('');
    if (mrzCheckDigit(variant) === expected) holding.push(variant);
  }
  const [variant] = holding;
  if (holding.length !== 1 || !variant) return null;
  const fixed = [...lines];
  fixed[number.line] = line.slice(0, number.start) + variant + line.slice(number.end);
  return {
    lines: fixed,
    correction: `document number ${raw.replace(/<+$/, '')} read as ${variant.replace(/<+$/, '')}`,
  };
}

function readingOf(lines: string[], result: ParseResult, today: Date, corrections: string[]): MrzReading {
  const detail = (field: string) => result.details.find((d) => d.field === field);
  const corrected = result.details.flatMap((d) => d.autocorrect);
  const fixed = lines.map((line, index) => {
    const chars = [...line];
    for (const c of corrected) if (c.line === index) chars[c.column] = c.corrected;
    return chars.join('');
  });
  const value = (field: string) => {
    const d = detail(field);
    return d?.valid ? (d.value ?? null) : null;
  };
  const digit = (field: string) => detail(field)?.valid === true;
  const expiry = mrzDate(value('expirationDate'), 'expiry', today);
  const sex = value('sex');
  const check_digits = {
    document_number: digit('documentNumberCheckDigit'),
    birth_date: digit('birthDateCheckDigit'),
    expiry_date: digit('expirationDateCheckDigit'),
    composite: digit('compositeCheckDigit'),
  };
  return {
    format: result.format === 'TD3' ? 'TD3' : 'TD1',
    lines: fixed,
    fields: {
      document_code: rawOf(fixed, detail('documentCode')),
      issuing_state: rawOf(fixed, detail('issuingState')),
      document_number: value('documentNumber') ?? result.documentNumber,
      last_name: value('lastName'),
      first_names: value('firstName'),
      nationality: rawOf(fixed, detail('nationality')),
      birth_date: mrzDate(value('birthDate'), 'birth', today),
      sex: sex === 'male' ? 'M' : sex === 'female' ? 'F' : null,
      expiry_date: expiry,
      optional_data: (value('optional1') ?? value('personalNumber') ?? '').replace(/</g, '') || null,
    },
    check_digits,
    check_digits_hold: Object.values(check_digits).every(Boolean),
    corrected: corrections,
    expired: expiry === null ? null : expiry < today.toISOString().slice(0, 10),
  };
}

/** Finds and parses the MRZ in an OCR text; null when none is found. */
export function readMrz(text: string, today: Date): MrzReading | null {
  const lines = findMrzLines(text);
  return lines ? parseMrz(lines, today) : null;
}

const CHAR_VALUE = (c: string) =>
  c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 'A'.charCodeAt(0) + 10;

/** ICAO 9303's check digit (weights 7, 3, 1), for composing sample documents. */
export function mrzCheckDigit(value: string): string {
  let sum = 0;
  for (let i = 0; i < value.length; i++) sum += CHAR_VALUE(value[i] as string) * ([7, 3, 1][i % 3] as number);
  return String(sum % 10);
}

export interface MrzPerson {
  format: 'TD1' | 'TD3';
  documentCode: string;
  issuingState: string;
  documentNumber: string;
  lastName: string;
  firstNames: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  expiryDate: string;
  /** Makes the document number's check digit wrong (a forged or misprinted zone). */
  wrongDocumentDigit?: boolean;
}

/** MRZ text: letters folded to A–Z, anything else a filler. */
export function mrzText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ı/g, 'I')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '<');
}

/** The MRZ lines of a person's document, with correct check digits unless asked otherwise. */
export function composeMrz(p: MrzPerson): string[] {
  const pad = (s: string, n: number) => s.padEnd(n, '<').slice(0, n);
  const name = `${mrzText(p.lastName)}<<${mrzText(p.firstNames)}`;
  let docDigit = mrzCheckDigit(p.documentNumber);
  if (p.wrongDocumentDigit) docDigit = String((Number(docDigit) + 1) % 10);
  const doc = pad(p.documentNumber, 9) + docDigit;
  const birth = p.birthDate + mrzCheckDigit(p.birthDate);
  const expiry = p.expiryDate + mrzCheckDigit(p.expiryDate);
  if (p.format === 'TD3') {
    const personal = pad('', 14);
    const personalDigit = mrzCheckDigit(personal);
    const second = `${doc}${pad(p.nationality, 3)}${birth}${p.sex}${expiry}${personal}${personalDigit}`;
    const composite = mrzCheckDigit(second.slice(0, 10) + second.slice(13, 20) + second.slice(21, 43));
    return [pad(`${pad(p.documentCode, 2)}${pad(p.issuingState, 3)}${name}`, 44), second + composite];
  }
  const first = pad(`${pad(p.documentCode, 2)}${pad(p.issuingState, 3)}${doc}`, 30);
  const second = pad(`${birth}${p.sex}${expiry}${pad(p.nationality, 3)}`, 29);
  const composite = mrzCheckDigit(
    first.slice(5, 30) + second.slice(0, 7) + second.slice(8, 15) + second.slice(18, 29),
  );
  return [first, second + composite, pad(name, 30)];
}
