/**
 * What the document's MRZ says against what is on file: the profile's name, date of birth, nationality and ID
 * numbers, and the serial number the customer typed. Each field agrees, differs, or was not read (nothing on
 * either side to compare). A hint for the agent, never a decision.
 */
import type { CrossCheck, MrzReading } from '#contract/machineChecks';
import { mrzNationality } from './countries';

/** What the comparison needs from the profile and the call. */
export interface OnFile {
  name: string | null;
  /** ISO date */
  birthDate: string | null;
  nationality: string | null;
  /** The profile's ID number and the document numbers of its documents. */
  idNumbers: string[];
  /** The last serial number the customer typed in the call. */
  typedSerial: string | null;
}

// The same letters as the database's profile_search_fold (migration 0034), so a name agrees here exactly when
// the profile search would find it.
const FROM =
  'ÇçĆćČčĞğĜĝİıÌÍÎÏìíîïŞşŚśŠšȘșÖöÒÓÔÕòóôõØøŐőÜüÙÚÛùúûŮůŰűÀÁÂÃÄÅàáâãäåĂăĄąÈÉÊËèéêëĚěĘęÑñŃńŇňÝýÿŸŽžŹźŻżŁłĹĺĽľŘřŔŕĎďĐđŤťȚț';
const TO =
  'ccccccggggiiiiiiiiiissssssssoooooooooooooouuuuuuuuuuuuaaaaaaaaaaaaaaaaeeeeeeeeeeeennnnnnyyyyzzzzzzllllllrrrrddddtttt';
const FOLD = new Map([...FROM].map((c, i) => [c, TO[i] as string]));

/** A name folded as the profile search folds it: Turkish and other Latin letters to a–z, lower case. */
export function foldName(value: string): string {
  return [...value.normalize('NFC')]
    .map((c) => FOLD.get(c) ?? c)
    .join('')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
}

/**
 * The words of a name as compared: folded, split on anything not a letter, and with the MRZ's transliterations
 * of umlauts (ä→ae, ö→oe, ü→ue, ß→ss) taken back, so `MUELLER` in a zone is the `Müller` on file.
 */
export function nameWords(value: string): string[] {
  return foldName(value.replace(/ß/g, 'ss'))
    .split(/[^a-z]+/)
    .filter(Boolean)
    .map((w) => w.replace(/([aou])e/g, '$1'));
}

/** A document number as compared: upper case, letters and digits only (the MRZ's fillers and dashes dropped). */
export const normalNumber = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');

const check = (
  field: CrossCheck['field'],
  read: string | null,
  onFile: string | null,
  same: boolean,
): CrossCheck => ({
  field,
  read,
  on_file: onFile,
  result:
    read === null || read === '' || onFile === null || onFile === ''
      ? 'not_read'
      : same
        ? 'agrees'
        : 'differs',
});

/** Every word the zone holds for a part of the name appears in the profile's name. */
function namePart(field: 'last_name' | 'first_names', read: string | null, name: string | null): CrossCheck {
  const words = read ? nameWords(read) : [];
  const known = new Set(name ? nameWords(name) : []);
  return check(field, read, name, words.length > 0 && words.every((w) => known.has(w)));
}

/** The cross-checks of a reading (all not read when the zone was not read). */
export function crossChecks(reading: MrzReading | null, onFile: OnFile): CrossCheck[] {
  const f = reading?.fields;
  const numbers = onFile.idNumbers.map(normalNumber).filter(Boolean);
  const readNumbers = [f?.document_number, f?.optional_data]
    .filter((n): n is string => typeof n === 'string' && n !== '')
    .map(normalNumber);
  const fileNationality = mrzNationality(onFile.nationality);
  const readNationality = f?.nationality ? f.nationality.replace(/</g, '') : null;
  return [
    namePart('last_name', f?.last_name ?? null, onFile.name),
    namePart('first_names', f?.first_names ?? null, onFile.name),
    check('birth_date', f?.birth_date ?? null, onFile.birthDate, f?.birth_date === onFile.birthDate),
    check('nationality', readNationality, fileNationality, readNationality === fileNationality),
    check(
      'document_number',
      f?.document_number ?? null,
      onFile.idNumbers.length > 0 ? onFile.idNumbers.join(', ') : null,
      readNumbers.some((n) => numbers.includes(n)),
    ),
    check(
      'typed_serial',
      f?.document_number ?? null,
      onFile.typedSerial,
      onFile.typedSerial !== null &&
        normalNumber(onFile.typedSerial) === normalNumber(f?.document_number ?? ''),
    ),
  ];
}
