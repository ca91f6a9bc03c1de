import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../server/config';
import { createAmlScreener } from '../../server/integrations/aml';
import { countryCode } from '../../server/integrations/aml/countries';
import { csvRows } from '../../server/integrations/aml/csv';
import { jaro, jaroWinkler } from '../../server/integrations/aml/jaroWinkler';
import {
  detectFormat,
  loadSampleWatchlist,
  loadWatchlistFile,
  parseBirthDate,
  parseOfacRemarks,
  type WatchlistEntry,
} from '../../server/integrations/aml/lists';
import {
  compareBirthDate,
  compareNationality,
  compareTokens,
  createScreener,
  POINTS,
} from '../../server/integrations/aml/screening';
import { nameTokens, transliterate } from '../../server/integrations/aml/text';

const fixtures = fileURLToPath(new URL('./fixtures/aml/', import.meta.url));
const sample = createAmlScreener({ listPath: undefined, listFormat: undefined, threshold: 85 });
const hitsOf = (name: string, birthDate: string | null = null, nationality: string | null = null) =>
  sample.screen({ name, birthDate, nationality }).matches;
const topHit = (name: string, birthDate: string | null = null, nationality: string | null = null) =>
  hitsOf(name, birthDate, nationality)[0];

describe('Jaro-Winkler', () => {
  it('gives the textbook values', () => {
    expect(jaro('martha', 'marhta')).toBeCloseTo(0.9444, 4);
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
  });

  it('is 1 for equal strings, 0 with nothing in common, and symmetric', () => {
    expect(jaroWinkler('serhat', 'serhat')).toBe(1);
    expect(jaroWinkler('', '')).toBe(1);
    expect(jaroWinkler('abc', '')).toBe(0);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('gencoglu', 'gencolgu')).toBeCloseTo(jaroWinkler('gencolgu', 'gencoglu'), 10);
  });
});

describe('names', () => {
  it('transliterates Turkish letters, other diacritics, ligatures and Cyrillic', () => {
    expect(transliterate('Çağrı Işık Gençoğlu Şükrü Öztürk İSMAİL')).toBe(
      'cagri isik gencoglu sukru ozturk ismail',
    );
    expect(transliterate('Nicolás Müller Dvořák Łukasz Øre Straße Æsir')).toBe(
      'nicolas muller dvorak lukasz ore strasse aesir',
    );
    expect(transliterate('Владимир Путин')).toBe('vladimir putin');
    expect(transliterate("O'Neil, Ma’ruf-Ali")).toBe('oneil maruf ali');
  });

  it('drops particles unless nothing else is left', () => {
    expect(nameTokens('AL-ASAD, Bashar')).toEqual(['asad', 'bashar']);
    expect(nameTokens('Ludwig van Beethoven')).toEqual(['ludwig', 'beethoven']);
    expect(nameTokens('El')).toEqual(['el']);
    expect(nameTokens('مادورو')).toEqual([]);
  });

  it('pairs tokens regardless of order and explains each pair', () => {
    const swapped = compareTokens(['serhat', 'gencoglu'], ['gencoglu', 'serhat']);
    expect(swapped.score).toBe(1);
    expect(swapped.pairs).toEqual([
      { subject: 'serhat', listed: 'serhat', similarity: 1 },
      { subject: 'gencoglu', listed: 'gencoglu', similarity: 1 },
    ]);
  });

  it('halves the score when only one token pairs, and is 0 when none does', () => {
    expect(compareTokens(['demir'], ['demir', 'ismail']).score).toBeLessThan(0.5);
    expect(compareTokens(['mehmet', 'demir'], ['demir', 'ismail']).score).toBeLessThan(0.3);
    expect(compareTokens(['john', 'smith'], ['putin', 'vladimir']).score).toBe(0);
  });
});

describe('names that must match (sample list)', () => {
  it('Turkish letters against the listed ASCII spelling', () => {
    expect(topHit('Serhat Gençoğlu')).toMatchObject({ name: 'GENCOGLU, Serhat', score: 100 });
    expect(topHit('İsmail Demir')?.name).toBe('DEMIR, Ismail');
    expect(topHit('Faruk Yiğit')?.name).toBe('YIGIT, Faruk');
  });

  it('swapped order and the comma form', () => {
    expect(topHit('Gençoğlu Serhat')?.name).toBe('GENCOGLU, Serhat');
    expect(topHit('Jong Un Kim')?.name).toBe('KIM, Jong Un');
    expect(topHit('Bashar al-Assad')?.name).toBe('AL-ASAD, Bashar');
  });

  it('small typos', () => {
    expect(topHit('Serhat Gencolgu')?.name).toBe('GENCOGLU, Serhat');
    expect(topHit('Nicolas Madura Moros')?.name).toBe('MADURO MOROS, Nicolas');
    expect(topHit('Sergey Lavrov', '1950-03-21')?.name).toBe('LAVROV, Sergey Viktorovich');
  });

  it('aliases and other scripts', () => {
    const lukashenko = topHit('Alexander Lukashenko');
    expect(lukashenko).toMatchObject({
      name: 'LUKASHENKA, Alyaksandr Ryhoravich',
      matched_name: 'LUKASHENKO, Alexander Grigoryevich',
    });
    expect(topHit('Владимир Путин')?.name).toBe('PUTIN, Vladimir Vladimirovich');
    expect(topHit('Dawood Ibrahim')?.name).toBe('DAWOOD IBRAHIM KASKAR');
  });

  it('says which fields matched and how the score was built', () => {
    const maduro = topHit('Nicolás Maduro', '1962-11-23', 'VE');
    expect(maduro).toMatchObject({
      entry_id: 'sample-ofac-maduro',
      lists: ['OFAC SDN'],
      programs: ['VENEZUELA'],
      matched_fields: ['name', 'birth_date', 'nationality'],
      birth_date: { result: 'exact', listed: ['1962-11-23'], points: POINTS.birthExact },
      nationality: { result: 'match', listed: ['VE'], points: POINTS.nationalityMatch },
      score: 100,
    });
    expect(maduro?.name_score).toBeGreaterThanOrEqual(85);
    expect(maduro?.name_score).toBeLessThan(100);
    expect(maduro?.name_tokens).toEqual([
      { subject: 'nicolas', listed: 'nicolas', similarity: 1 },
      { subject: 'maduro', listed: 'maduro', similarity: 1 },
    ]);
  });
});

describe('names that must not match', () => {
  it.each([
    ['Mehmet Demir'],
    ['Emre Demir'],
    ['Deniz Demir'],
    ['Ayşe Yılmaz'],
    ['John Smith'],
    ['Maria García'],
    ['Vladimir Nabokov'],
    ['Kim Yong Ho'],
    ['Demir'],
  ])('%s', (name) => {
    expect(hitsOf(name, '1985-04-12', 'TR')).toEqual([]);
    expect(hitsOf(name)).toEqual([]);
  });

  it('a shared family name and given name are not the same person (Kim Yo Jong is not Kim Jong Un)', () => {
    expect(hitsOf('Kim Yo Jong').map((m) => m.name)).toEqual(['KIM, Yo Jong']);
  });
});

describe('birth date and nationality', () => {
  it('compare dates exactly, by year, or as a mismatch', () => {
    expect(compareBirthDate('1952-10-07', ['1952-10-07'])).toMatchObject({ result: 'exact', points: 10 });
    expect(compareBirthDate('1977-05-05', ['1977', '1978'])).toMatchObject({ result: 'year', points: 4 });
    expect(compareBirthDate('1952-01-01', ['1952-10-07'])).toMatchObject({ result: 'year' });
    expect(compareBirthDate('1990-01-01', ['1952-10-07'])).toMatchObject({ result: 'mismatch', points: -20 });
    expect(compareBirthDate(null, ['1952-10-07'])).toMatchObject({ result: 'not_given', points: 0 });
    expect(compareBirthDate('1990-01-01', [])).toMatchObject({ result: 'not_listed', points: 0 });
    expect(compareNationality('tr', ['TR'])).toMatchObject({ result: 'match', points: 5 });
    expect(compareNationality('DE', ['RU'])).toMatchObject({ result: 'mismatch', points: -10 });
    expect(compareNationality(null, ['RU'])).toMatchObject({ result: 'not_given', points: 0 });
  });

  it('raise the score when they agree', () => {
    const bare = topHit('Vladimir Putin');
    const confirmed = topHit('Vladimir Putin', '1952-10-07', 'RU');
    expect(bare?.score).toBeLessThan(confirmed?.score ?? 0);
    expect(confirmed).toMatchObject({ score: 100, matched_fields: ['name', 'birth_date', 'nationality'] });
    expect(topHit('Siraj Haqqani', '1977-03-01', 'AF')).toMatchObject({
      matched_fields: ['name', 'birth_date', 'nationality'],
      birth_date: { result: 'year' },
    });
  });

  it('lower it below the threshold when they disagree', () => {
    expect(topHit('Vladimir Putin', '1952-10-07', 'RU')).toBeDefined();
    expect(hitsOf('Vladimir Putin', '1988-02-14', 'DE')).toEqual([]);
    expect(hitsOf('Ramzan Kadyrov', '1990-06-01', 'DE')).toEqual([]);
  });

  it('use a configurable threshold', () => {
    const strict = createAmlScreener({ listPath: undefined, listFormat: undefined, threshold: 100 });
    expect(strict.screen({ name: 'Vladimir Putin' }).matches).toEqual([]);
    expect(
      strict.screen({ name: 'Vladimir Putin', birthDate: '1952-10-07', nationality: 'RU' }).matches,
    ).toHaveLength(1);
  });
});

describe('list formats', () => {
  it('reads CSV with quotes, doubled quotes, line breaks, CRLF, BOM and a trailing Ctrl-Z', () => {
    expect([...csvRows('\ufeffa,"b,c","say ""hi""",\r\n1,"x\ny",3,4\n\u001a')]).toEqual([
      ['a', 'b,c', 'say "hi"', ''],
      ['1', 'x\ny', '3', '4'],
    ]);
  });

  it('reads birth dates and countries as lists write them', () => {
    expect(parseBirthDate('07 Oct 1952')).toEqual(['1952-10-07']);
    expect(parseBirthDate('circa 1977')).toEqual(['1977']);
    expect(parseBirthDate('1966 to 1968')).toEqual(['1966', '1967', '1968']);
    expect(parseBirthDate('1962-11-23')).toEqual(['1962-11-23']);
    expect(parseBirthDate('unknown')).toEqual([]);
    expect(parseOfacRemarks('DOB 08 Jan 1984; nationality Korea, North; citizen Russia.')).toEqual({
      birthDates: ['1984-01-08'],
      nationalities: ['KP', 'RU'],
    });
    expect(countryCode('Turkey')).toBe('TR');
    expect(countryCode('Türkiye')).toBe('TR');
    expect(countryCode('ve')).toBe('VE');
    expect(countryCode('Atlantis')).toBeNull();
  });

  it('parses an OFAC sdn.csv with the aliases of the alt.csv beside it (individuals only)', () => {
    const list = loadWatchlistFile(join(fixtures, 'sdn.csv'));
    expect(list.database).toBe('OFAC SDN sdn.csv + alt.csv (4 people)');
    expect(list.entries.map((e) => e.name)).toEqual([
      'PUTIN, Vladimir Vladimirovich',
      'HAQQANI, Sirajuddin',
      'GENCOGLU, Serhat',
      'KIM, Jong Un',
    ]);
    expect(list.entries[0]).toEqual<WatchlistEntry>({
      id: 'ofac-9001',
      lists: ['OFAC SDN'],
      name: 'PUTIN, Vladimir Vladimirovich',
      aliases: ['POUTINE, Vladimir'],
      birthDates: ['1952-10-07'],
      nationalities: ['RU'],
      programs: ['RUSSIA-EO14024'],
    });
    expect(list.entries[1]).toMatchObject({ birthDates: ['1977', '1978'], nationalities: ['AF'] });
    expect(list.entries[3]?.programs).toEqual(['DPRK2', 'NKOREA']);
    const screener = createScreener(list);
    expect(screener.screen({ name: 'Vladimir Poutine' }).matches[0]?.matched_name).toBe('POUTINE, Vladimir');
    expect(screener.screen({ name: 'Serhat Gençoğlu', nationality: 'TR' }).matches[0]).toMatchObject({
      entry_id: 'ofac-9003',
      matched_fields: ['name', 'nationality'],
    });
  });

  it('parses an OpenSanctions targets.simple.csv (people only, several values per cell)', () => {
    const list = loadWatchlistFile(join(fixtures, 'targets.simple.csv'));
    expect(list.database).toBe('OpenSanctions targets.simple.csv (3 people)');
    expect(list.entries[0]).toEqual<WatchlistEntry>({
      id: 'NK-example-1',
      lists: ['US OFAC Specially Designated Nationals (SDN) List'],
      name: 'Nicolás Maduro Moros',
      aliases: ['Nicolas MADURO MOROS', 'Николас Мадуро'],
      birthDates: ['1962-11-23'],
      nationalities: ['VE'],
      programs: ['US-VEN'],
    });
    expect(list.entries[1]?.lists).toEqual([
      'US OFAC Specially Designated Nationals (SDN) List',
      'EU Financial Sanctions Files (FSF)',
    ]);
    expect(list.entries[2]?.birthDates).toEqual(['1977', '1978']);
    const hit = createScreener(list).screen({ name: 'Aliaksandr Lukashenka', birthDate: '1954-08-30' });
    expect(hit.matches[0]).toMatchObject({ entry_id: 'NK-example-2', score: 100 });
  });

  it('detects the format by the first line, or takes AML_LIST_FORMAT', () => {
    expect(detectFormat('id,schema,name,aliases,birth_date,countries,addresses')).toBe('opensanctions');
    expect(
      detectFormat('36,"AEROCARIBBEAN AIRLINES",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- '),
    ).toBe('ofac-sdn');
    expect(detectFormat('name,dob')).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'aml-list-'));
    try {
      const odd = join(dir, 'list.csv');
      writeFileSync(odd, 'name,dob\nSomeone,1970\n');
      expect(() => loadWatchlistFile(odd)).toThrow(/AML_LIST_FORMAT/);
      // Without alt.csv beside it, the SDN file is read alone.
      copyFileSync(join(fixtures, 'sdn.csv'), join(dir, 'sdn.csv'));
      const alone = loadWatchlistFile(join(dir, 'sdn.csv'), 'ofac-sdn');
      expect(alone.database).toBe('OFAC SDN sdn.csv (4 people)');
      expect(alone.entries[0]?.aliases).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the configuration (AML_LIST_PATH, AML_LIST_FORMAT, AML_MATCH_THRESHOLD)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aml-config-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).aml).toEqual({ listPath: undefined, listFormat: undefined, threshold: 85 });
    expect(
      loadConfig({
        ...base,
        AML_LIST_PATH: '/lists/sdn.csv',
        AML_LIST_FORMAT: 'ofac-sdn',
        AML_MATCH_THRESHOLD: '90',
      }).aml,
    ).toEqual({ listPath: '/lists/sdn.csv', listFormat: 'ofac-sdn', threshold: 90 });
    expect(() => loadConfig({ ...base, AML_LIST_FORMAT: 'xml' })).toThrow(/AML_LIST_FORMAT/);
    expect(() => loadConfig({ ...base, AML_MATCH_THRESHOLD: '0' })).toThrow(/AML_MATCH_THRESHOLD/);
  });

  it('ships a sample list of a few dozen people with sources noted', () => {
    const list = loadSampleWatchlist();
    expect(list.entries.length).toBeGreaterThanOrEqual(30);
    expect(new Set(list.entries.map((e) => e.id)).size).toBe(list.entries.length);
    expect(
      list.entries.every((e) => e.lists.length > 0 && e.nationalities.every((c) => /^[A-Z]{2}$/.test(c))),
    ).toBe(true);
    expect(list.database).toMatch(/OFAC SDN and UN Security Council/);
  });
});
