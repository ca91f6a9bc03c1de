/**
 * The MRZ reader on the ICAO 9303 specimens and on composed zones, and the rules that compare what it read with
 * the profile.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mrzNationality } from '../../server/domain/machineChecks/countries';
import { crossChecks, foldName, type OnFile } from '../../server/domain/machineChecks/crossChecks';
import {
  composeMrz,
  findMrzLines,
  type MrzPerson,
  mrzCheckDigit,
  mrzDate,
  parseMrz,
  readMrz,
  withCheckedLinesFrom,
} from '../../server/domain/machineChecks/mrz';

const TODAY = new Date('2026-06-01T00:00:00Z');

/** ICAO 9303 part 5 (TD1) and part 4 (TD3) specimens. */
const TD1_SPECIMEN = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];
const TD3_SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

describe('the ICAO specimens', () => {
  it('reads the TD1 card: every field, every check digit, expired in 2012', () => {
    const reading = parseMrz(TD1_SPECIMEN, TODAY);
    expect(reading).toMatchObject({
      format: 'TD1',
      fields: {
        document_code: 'I',
        issuing_state: 'UTO',
        document_number: 'D23145890',
        last_name: 'ERIKSSON',
        first_names: 'ANNA MARIA',
        nationality: 'UTO',
        birth_date: '1974-08-12',
        sex: 'F',
        expiry_date: '2012-04-15',
      },
      check_digits: { document_number: true, birth_date: true, expiry_date: true, composite: true },
      check_digits_hold: true,
      expired: true,
    });
  });

  it('reads the TD3 passport, its personal number as the optional data', () => {
    const reading = parseMrz(TD3_SPECIMEN, TODAY);
    expect(reading).toMatchObject({
      format: 'TD3',
      fields: { document_number: 'L898902C3', optional_data: 'ZE184226B', birth_date: '1974-08-12' },
      check_digits_hold: true,
      expired: true,
    });
  });

  it('a changed digit breaks its check digit and the composite, and nothing else', () => {
    const lines = [...TD1_SPECIMEN];
    lines[1] = `7408132${(lines[1] as string).slice(7)}`;
    const reading = parseMrz(lines, TODAY);
    expect(reading?.check_digits).toEqual({
      document_number: true,
      birth_date: false,
      expiry_date: true,
      composite: false,
    });
    expect(reading?.check_digits_hold).toBe(false);
    // The date itself is well formed: it is shown, and its check digit says it cannot be trusted.
    expect(reading?.fields.birth_date).toBe('1974-08-13');
  });

  it('finds the zone in OCR text with noise lines, spaces and « for fillers', () => {
    const text = `REPUBLIC OF UTOPIA\nIDENTITY CARD\n${TD3_SPECIMEN[0]?.replace(/<<<<</, '« <<<')}\n ${TD3_SPECIMEN[1]} \n`;
    expect(findMrzLines(text)).toEqual(TD3_SPECIMEN);
    expect(readMrz('no zone here\nat all', TODAY)).toBeNull();
  });

  it('reads fillers misread as L, K or S, and a blurred filler run read short', () => {
    const text = `P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<LLKS<<S\n${TD3_SPECIMEN[1]}`;
    expect(findMrzLines(text)).toEqual(TD3_SPECIMEN);
    const short = `P<UTOERIKSSON<<ANNA<MARIA<<<<<\n${TD3_SPECIMEN[1]}`;
    expect(parseMrz(findMrzLines(short) ?? [], TODAY)?.check_digits_hold).toBe(true);
    // An ID card's lines are never taken for a passport's, however short they look.
    expect(findMrzLines(TD1_SPECIMEN.join('\n'))).toEqual(TD1_SPECIMEN);
  });

  it('reads a zero taken for an O in the document number again when only that makes its check digit hold', () => {
    const lines = [...TD3_SPECIMEN];
    lines[1] = `L898902C36${(lines[1] as string).slice(10)}`.replace('L898902C3', 'L8989O2C3');
    const reading = parseMrz(lines, TODAY);
    expect(reading?.fields.document_number).toBe('L898902C3');
    expect(reading?.check_digits_hold).toBe(true);
    expect(reading?.corrected).toEqual(['document number L8989O2C3 read as L898902C3']);
    // A wrong check digit that no look-alike explains stays wrong.
    const forged = [...TD3_SPECIMEN];
    forged[1] = `L898902C37${(forged[1] as string).slice(10)}`;
    expect(parseMrz(forged, TODAY)?.check_digits.document_number).toBe(false);
  });

  it('corrects a letter O read in a date to the digit 0', () => {
    const lines = [...TD1_SPECIMEN];
    lines[1] = `74O8122${(lines[1] as string).slice(7)}`;
    expect(parseMrz(lines, TODAY)?.fields.birth_date).toBe('1974-08-12');
  });
});

describe('a second look at the lines with check digits', () => {
  it("takes a passport's second line from the second reading and keeps its names line as first read", () => {
    const firstRead = [
      TD3_SPECIMEN[0] as string,
      (TD3_SPECIMEN[1] as string).replace('L898902C3', 'L89B902C3'),
    ];
    expect(parseMrz(firstRead, TODAY)?.check_digits_hold).toBe(false);
    // The second reading holds the digits line only; a names line it may have misread is never taken.
    const merged = withCheckedLinesFrom(firstRead, `\n${TD3_SPECIMEN[1]}\n`);
    expect(merged).toEqual(TD3_SPECIMEN);
    expect(parseMrz(merged ?? [], TODAY)?.check_digits_hold).toBe(true);
  });

  it("takes an ID card's first two lines from the second reading and keeps the names line", () => {
    const firstRead = [
      (TD1_SPECIMEN[0] as string).replace('D23145890', 'D2314S890'),
      ...TD1_SPECIMEN.slice(1),
    ];
    const merged = withCheckedLinesFrom(firstRead, `${TD1_SPECIMEN[0]}\n${TD1_SPECIMEN[1]}`);
    expect(merged).toEqual(TD1_SPECIMEN);
    expect(parseMrz(merged ?? [], TODAY)?.check_digits_hold).toBe(true);
  });

  it('answers null when the second reading holds no such lines', () => {
    expect(withCheckedLinesFrom([...TD3_SPECIMEN], 'NOTHING READ')).toBeNull();
    // A passport's digits line is 44 characters: a run of ID card lines is no replacement for it.
    expect(withCheckedLinesFrom([...TD3_SPECIMEN], TD1_SPECIMEN.slice(0, 2).join('\n'))).toBeNull();
  });
});

describe('dates of the zone', () => {
  it('puts birth dates in the past and expiries at most 20 years ahead', () => {
    expect(mrzDate('991231', 'birth', TODAY)).toBe('1999-12-31');
    expect(mrzDate('250101', 'birth', TODAY)).toBe('2025-01-01');
    expect(mrzDate('300101', 'birth', TODAY)).toBe('1930-01-01');
    expect(mrzDate('360101', 'expiry', TODAY)).toBe('2036-01-01');
    expect(mrzDate('991231', 'expiry', TODAY)).toBe('1999-12-31');
    expect(mrzDate('990231', 'birth', TODAY)).toBeNull();
    expect(mrzDate('99123', 'birth', TODAY)).toBeNull();
  });
});

const person = fc.record({
  format: fc.constantFrom('TD1' as const, 'TD3' as const),
  // Without O and I, as issuers print them: those two are read as the digits they look like.
  documentNumber: fc.stringMatching(/^[A-HJ-NP-Z0-9]{9}$/),
  lastName: fc.stringMatching(/^[A-Z]{2,10}$/),
  firstNames: fc.stringMatching(/^[A-Z]{2,8}$/),
  birth: fc.date({ min: new Date('1930-01-01'), max: new Date('2008-12-31'), noInvalidDate: true }),
  expiry: fc.date({ min: new Date('2010-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }),
  wrongDocumentDigit: fc.boolean(),
});
const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replace(/-/g, '');

describe('composed zones (property)', () => {
  it('read back what was written; a wrong check digit is always caught', () => {
    fc.assert(
      fc.property(person, (p) => {
        const doc: MrzPerson = {
          ...p,
          documentCode: p.format === 'TD1' ? 'I' : 'P',
          issuingState: 'TUR',
          nationality: 'TUR',
          sex: 'M',
          birthDate: yymmdd(p.birth),
          expiryDate: yymmdd(p.expiry),
        };
        const reading = parseMrz(composeMrz(doc), TODAY);
        expect(reading?.format).toBe(p.format);
        expect(reading?.fields.birth_date).toBe(p.birth.toISOString().slice(0, 10));
        expect(reading?.fields.last_name).toBe(p.lastName);
        expect(reading?.check_digits.document_number).toBe(!p.wrongDocumentDigit);
        expect(reading?.check_digits_hold).toBe(!p.wrongDocumentDigit);
        expect(reading?.expired).toBe(p.expiry.toISOString().slice(0, 10) < '2026-06-01');
      }),
      { numRuns: 200 },
    );
  });

  it('the check digit of the specimens', () => {
    expect(mrzCheckDigit('D23145890')).toBe('7');
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
  });
});

describe('cross-checks', () => {
  const turkish = parseMrz(
    composeMrz({
      format: 'TD1',
      documentCode: 'I',
      issuingState: 'TUR',
      documentNumber: 'A12B34567',
      lastName: 'Yılmaz Öztürk',
      firstNames: 'Ayşe Gül',
      nationality: 'TUR',
      birthDate: '900215',
      sex: 'F',
      expiryDate: '300101',
    }),
    TODAY,
  );
  const onFile: OnFile = {
    name: 'Ayşe Gül Yılmaz Öztürk',
    birthDate: '1990-02-15',
    nationality: 'TR',
    idNumbers: ['a12b 34567'],
    typedSerial: 'A12-B34567',
  };
  const results = (r: ReturnType<typeof crossChecks>) =>
    Object.fromEntries(r.map((c) => [c.field, c.result]));

  it('every field agrees for the same person, Turkish letters folded', () => {
    expect(turkish?.fields.last_name).toBe('YILMAZ OZTURK');
    expect(results(crossChecks(turkish, onFile))).toEqual({
      last_name: 'agrees',
      first_names: 'agrees',
      birth_date: 'agrees',
      nationality: 'agrees',
      document_number: 'agrees',
      typed_serial: 'agrees',
    });
  });

  it('says which fields differ', () => {
    const other = {
      ...onFile,
      name: 'Ayşe Gül Demir',
      birthDate: '1990-02-16',
      nationality: 'DE',
      typedSerial: 'X1',
    };
    expect(results(crossChecks(turkish, other))).toEqual({
      last_name: 'differs',
      first_names: 'agrees',
      birth_date: 'differs',
      nationality: 'differs',
      document_number: 'agrees',
      typed_serial: 'differs',
    });
  });

  it('nothing on file or nothing read is not read, never differs', () => {
    const empty: OnFile = {
      name: null,
      birthDate: null,
      nationality: null,
      idNumbers: [],
      typedSerial: null,
    };
    expect(new Set(crossChecks(turkish, empty).map((c) => c.result))).toEqual(new Set(['not_read']));
    expect(new Set(crossChecks(null, onFile).map((c) => c.result))).toEqual(new Set(['not_read']));
  });

  it('umlauts written out in the zone agree with the name on file', () => {
    const german = parseMrz(
      composeMrz({
        format: 'TD3',
        documentCode: 'P',
        issuingState: 'D',
        documentNumber: 'C01X00T47',
        lastName: 'MUELLER',
        firstNames: 'JOERG',
        nationality: 'D',
        birthDate: '640812',
        sex: 'M',
        expiryDate: '310101',
      }),
      TODAY,
    );
    const checks = results(
      crossChecks(german, { ...onFile, name: 'Jörg Müller', nationality: 'DE', birthDate: '1964-08-12' }),
    );
    expect(checks).toMatchObject({ last_name: 'agrees', first_names: 'agrees', nationality: 'agrees' });
  });

  it('folds names as the profile search does (property: folding is idempotent and ASCII for Turkish text)', () => {
    expect(foldName('İĞÜŞÖÇ ığüşöç')).toBe('igusoc igusoc');
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'abcçdefgğhıijklmnoöprsştuüvyzABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ '),
        }),
        (s) => {
          const folded = foldName(s);
          expect(foldName(folded)).toBe(folded);
          expect(folded).toMatch(/^[a-z ]*$/);
        },
      ),
    );
  });

  it('maps nationalities to the zone’s codes', () => {
    expect(mrzNationality('TR')).toBe('TUR');
    expect(mrzNationality('de')).toBe('D');
    expect(mrzNationality('GBR')).toBe('GBR');
    expect(mrzNationality('Turkish')).toBeNull();
    expect(mrzNationality(null)).toBeNull();
  });
});
