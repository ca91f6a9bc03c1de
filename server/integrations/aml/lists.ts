/**
 * Watchlists: the entries the screening compares a customer with, read from the bundled sample or from a
 * full list file (OpenSanctions `targets.simple.csv` or OFAC's `sdn.csv` with its `alt.csv`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { countryCode } from './countries';
import { csvRows } from './csv';

/** One listed person. Birth dates are `YYYY-MM-DD`, or `YYYY` where the list gives only the year. */
export interface WatchlistEntry {
  id: string;
  /** The lists that name this person (e.g. `OFAC SDN`). */
  lists: string[];
  /** The name as listed. */
  name: string;
  aliases: string[];
  birthDates: string[];
  /** ISO 3166-1 alpha-2 codes of nationality or citizenship. */
  nationalities: string[];
  /** Sanctions programmes or reference numbers. */
  programs: string[];
}

export interface Watchlist {
  /** What was scanned, as the AML history shows it. */
  database: string;
  entries: WatchlistEntry[];
}

export type ListFormat = 'opensanctions' | 'ofac-sdn';
export const LIST_FORMATS: readonly ListFormat[] = ['opensanctions', 'ofac-sdn'];

const split = (value: string | undefined) =>
  (value ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A birth date as a list writes it, as `YYYY-MM-DD` or `YYYY` (several for a range of years):
 * `1952-10-07`, `1977`, `1966-05` (year kept), `07 Oct 1952`, `Oct 1952`, `circa 1960`, `1966 to 1968`.
 */
export function parseBirthDate(value: string): string[] {
  const text = value.trim().toLowerCase();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return [`${iso[1]}-${iso[2]}-${iso[3]}`];
  const written = /^(\d{1,2}) ([a-z]{3})[a-z]* (\d{4})$/.exec(text);
  if (written) {
    const month = MONTHS.indexOf(written[2] as string) + 1;
    if (month > 0) return [`${written[3]}-${String(month).padStart(2, '0')}-${written[1]?.padStart(2, '0')}`];
  }
  const range = /^(\d{4}) to (\d{4})$/.exec(text);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to >= from && to - from <= 10)
      return Array.from({ length: to - from + 1 }, (_, k) => String(from + k));
  }
  const year = /(?:^|\D)(\d{4})(?:-\d{2})?$/.exec(text);
  return year ? [year[1] as string] : [];
}

// ---------------------------------------------------------------- OpenSanctions targets.simple.csv

const OPEN_SANCTIONS_COLUMNS = ['id', 'schema', 'name', 'aliases', 'birth_date', 'countries'];

/**
 * OpenSanctions' "targets.simple.csv": a header row, then one entity a row; several values in a cell
 * are separated by `;`. Only `Person` rows are kept (customers are people).
 */
export function parseOpenSanctions(text: string): WatchlistEntry[] {
  const rows = csvRows(text);
  const header = rows.next().value?.map((cell: string) => cell.trim().toLowerCase()) ?? [];
  const column = (name: string) => header.indexOf(name);
  const missing = OPEN_SANCTIONS_COLUMNS.filter((name) => column(name) < 0);
  if (missing.length > 0) throw new Error(`OpenSanctions list: missing column(s) ${missing.join(', ')}`);
  const at = {
    id: column('id'),
    schema: column('schema'),
    name: column('name'),
    aliases: column('aliases'),
    birth: column('birth_date'),
    countries: column('countries'),
    sanctions: column('sanctions'),
    programs: column('program_ids'),
    dataset: column('dataset'),
  };
  const entries: WatchlistEntry[] = [];
  for (const row of rows) {
    if (row[at.schema]?.trim() !== 'Person') continue;
    const name = row[at.name]?.trim();
    if (!name) continue;
    entries.push({
      id: row[at.id]?.trim() || `row-${entries.length + 1}`,
      lists:
        at.dataset >= 0 && split(row[at.dataset]).length > 0 ? split(row[at.dataset]) : ['OpenSanctions'],
      name,
      aliases: split(row[at.aliases]).filter((alias) => alias !== name),
      birthDates: split(row[at.birth]).flatMap(parseBirthDate),
      nationalities: split(row[at.countries])
        .map(countryCode)
        .filter((code): code is string => code !== null),
      programs: at.programs >= 0 && split(row[at.programs]).length > 0 ? split(row[at.programs]) : [],
    });
  }
  return entries;
}

// ---------------------------------------------------------------- OFAC sdn.csv (+ alt.csv)

const OFAC_NULL = '-0-';
const ofacValue = (value: string | undefined) => {
  const trimmed = (value ?? '').trim();
  return trimmed === OFAC_NULL ? '' : trimmed;
};

/** Birth dates and nationalities out of an SDN entry's remarks ("DOB 07 Oct 1952; nationality Russia; …"). */
export function parseOfacRemarks(remarks: string): { birthDates: string[]; nationalities: string[] } {
  const birthDates: string[] = [];
  const nationalities: string[] = [];
  for (const part of remarks.split(';')) {
    const text = part.trim().replace(/\.$/, '');
    const dob = /^(?:alt\. )?DOB (.+)$/i.exec(text);
    if (dob) birthDates.push(...parseBirthDate(dob[1] as string));
    const nation = /^(?:alt\. )?(?:nationality|citizen) (.+)$/i.exec(text);
    if (nation) {
      const code = countryCode(nation[1] as string);
      if (code && !nationalities.includes(code)) nationalities.push(code);
    }
  }
  return { birthDates, nationalities };
}

/**
 * OFAC's "sdn.csv" (no header: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage,
 * GRT, Vess_flag, Vess_owner, Remarks; `-0-` is empty) with the aliases of "alt.csv" (ent_num, alt_num,
 * alt_type, alt_name, alt_remarks) when given. Only individuals are kept.
 */
export function parseOfacSdn(sdnText: string, altText = ''): WatchlistEntry[] {
  const aliases = new Map<string, string[]>();
  for (const row of csvRows(altText)) {
    const id = ofacValue(row[0]);
    const name = ofacValue(row[3]);
    if (!id || !name) continue;
    aliases.set(id, [...(aliases.get(id) ?? []), name]);
  }
  const entries: WatchlistEntry[] = [];
  for (const row of csvRows(sdnText)) {
    const id = ofacValue(row[0]);
    const name = ofacValue(row[1]);
    if (!/^\d+$/.test(id) || !name || ofacValue(row[2]).toLowerCase() !== 'individual') continue;
    const { birthDates, nationalities } = parseOfacRemarks(ofacValue(row[11]));
    entries.push({
      id: `ofac-${id}`,
      lists: ['OFAC SDN'],
      name,
      aliases: aliases.get(id) ?? [],
      birthDates,
      nationalities,
      programs: ofacValue(row[3])
        .split(/\]\s*\[/)
        .map((program) => program.replace(/[[\]]/g, '').trim())
        .filter(Boolean),
    });
  }
  return entries;
}

// ---------------------------------------------------------------- files

/** The format of a list file, told by its first line. */
export function detectFormat(firstLine: string): ListFormat | null {
  const cells = csvRows(firstLine).next().value ?? [];
  const lower = cells.map((cell: string) => cell.trim().toLowerCase());
  if (OPEN_SANCTIONS_COLUMNS.every((name) => lower.includes(name))) return 'opensanctions';
  if (/^\d+$/.test(lower[0] ?? '') && cells.length >= 12) return 'ofac-sdn';
  return null;
}

/** OFAC publishes the aliases in a separate file beside sdn.csv. */
function altFileBeside(path: string): string | null {
  for (const name of ['alt.csv', 'ALT.CSV']) {
    const candidate = join(dirname(path), name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Reads a full list (AML_LIST_PATH); the format is `format` when given, else detected from the first line. */
export function loadWatchlistFile(path: string, format?: ListFormat): Watchlist {
  const text = readFileSync(path, 'utf8');
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  const kind = format ?? detectFormat(firstLine);
  if (!kind)
    throw new Error(
      `AML_LIST_PATH ${path}: not an OpenSanctions targets.simple.csv or OFAC sdn.csv (set AML_LIST_FORMAT)`,
    );
  if (kind === 'opensanctions') {
    const entries = parseOpenSanctions(text);
    return { database: `OpenSanctions ${basename(path)} (${entries.length} people)`, entries };
  }
  const alt = altFileBeside(path);
  const entries = parseOfacSdn(text, alt ? readFileSync(alt, 'utf8') : '');
  return {
    database: `OFAC SDN ${basename(path)}${alt ? ` + ${basename(alt)}` : ''} (${entries.length} people)`,
    entries,
  };
}

interface SampleFile {
  database: string;
  entries: {
    id: string;
    lists: string[];
    name: string;
    aliases?: string[];
    birth_dates?: string[];
    nationalities?: string[];
    programs?: string[];
  }[];
}

/** The small list that ships with the server (sampleWatchlist.json; sources noted in it). */
export function loadSampleWatchlist(): Watchlist {
  const file = JSON.parse(
    readFileSync(new URL('./sampleWatchlist.json', import.meta.url), 'utf8'),
  ) as SampleFile;
  return {
    database: file.database,
    entries: file.entries.map((entry) => ({
      id: entry.id,
      lists: entry.lists,
      name: entry.name,
      aliases: entry.aliases ?? [],
      birthDates: (entry.birth_dates ?? []).flatMap(parseBirthDate),
      nationalities: entry.nationalities ?? [],
      programs: entry.programs ?? [],
    })),
  };
}
