/**
 * The zone's names line as the OCR reads it: a letter misread among the fillers after the given names is a
 * filler, since ICAO 9303 ends the given names at the first double filler after them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeMrz, type MrzPerson, readMrz } from '../../server/domain/machineChecks/mrz';

const TODAY = new Date('2026-06-01T00:00:00Z');

const zone = (format: 'TD1' | 'TD3', firstNames: string) => {
  const person: MrzPerson = {
    format,
    documentCode: format === 'TD1' ? 'I' : 'P',
    issuingState: 'TUR',
    nationality: 'TUR',
    documentNumber: 'U12345678',
    lastName: 'OZTURK',
    firstNames,
    birthDate: '800101',
    sex: 'F',
    expiryDate: '300101',
  };
  const lines = composeMrz(person);
  const names = format === 'TD3' ? 0 : 2;
  const line = lines[names] as string;
  const surnameEnd = line.indexOf('OZTURK<<') + 'OZTURK'.length;
  // Where the given names end: the first double filler after the one that follows the surname.
  const givenEnd = line.indexOf('<<', surnameEnd + 2);
  return { lines, names, line, givenEnd };
};

describe('letters read among the fillers after the given names', () => {
  it('are fillers on a passport and on an ID card; given names of two words stay whole', () => {
    for (const format of ['TD3', 'TD1'] as const) {
      const { lines, names, line, givenEnd } = zone(format, 'ANNA MARIA');
      const at = givenEnd + 4;
      const misread = lines.map((l, i) => (i === names ? `${l.slice(0, at)}C${l.slice(at + 1)}` : l));
      expect(misread[names]).not.toBe(line);
      const reading = readMrz(misread.join('\n'), TODAY);
      expect(reading?.fields.first_names).toBe('ANNA MARIA');
      expect(reading?.fields.last_name).toBe('OZTURK');
      expect(reading?.lines[names]).toBe(line);
      expect(reading?.check_digits_hold).toBe(true);
    }
  });

  it('wherever the stray letter falls after the names, with none, one or two given names (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('TD1', 'TD3'),
        fc.constantFrom('', 'ALI', 'EMRE CAN'),
        fc.nat(),
        fc.constantFrom('C', 'K', 'E', 'Z'),
        (format, firstNames, offset, letter) => {
          const { lines, names, line, givenEnd } = zone(format, firstNames);
          const from = givenEnd + 2;
          const at = from + (offset % (line.length - from));
          const misread = lines.map((l, i) =>
            i === names ? `${l.slice(0, at)}${letter}${l.slice(at + 1)}` : l,
          );
          const reading = readMrz(misread.join('\n'), TODAY);
          expect(reading?.lines[names]).toBe(line);
          expect(reading?.fields.first_names ?? '').toBe(firstNames);
        },
      ),
      { numRuns: 200 },
    );
  });
});
