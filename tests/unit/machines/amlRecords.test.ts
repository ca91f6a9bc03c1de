import { describe, expect, it } from 'vitest';
import type { AmlMatch } from '#contract/amlMatch';
import { amlStanding, canApprove, readRecord, scoreParts } from '../../../src/machines/amlRecords';

const match: AmlMatch = {
  entry_id: 'sample-ofac-gencoglu',
  name: 'GENCOGLU, Serhat',
  matched_name: 'GENCOGLU, Serhat',
  lists: ['OFAC SDN'],
  list: 'OFAC SDN',
  programs: ['CAATSA - RUSSIA'],
  score: 100,
  name_score: 100,
  matched_fields: ['nationality', 'name'],
  name_tokens: [{ subject: 'serhat', listed: 'serhat', similarity: 1 }],
  birth_date: { result: 'not_listed', listed: [], points: 0 },
  nationality: { result: 'match', listed: ['TR'], points: 5 },
  subject: { name: 'Serhat Gençoğlu', birth_date: '1980-01-01', nationality: 'TR' },
};

const result = (over: Partial<Parameters<typeof amlStanding>[0]> = {}) => ({
  records: [],
  approved: null,
  updated_at: '2026-11-21T12:00:00.000Z',
  history: [{}],
  ...over,
});

describe('AML records', () => {
  it('reads an engine record with its explanation, fields in a fixed order', () => {
    const view = readRecord(match as unknown as Record<string, unknown>);
    expect(view).toMatchObject({
      name: 'GENCOGLU, Serhat',
      matchedName: null,
      lists: ['OFAC SDN'],
      score: 100,
      matchedFields: ['name', 'nationality'],
      extra: [],
    });
    expect(view.match).toBe(match);
    expect(scoreParts(match)).toEqual({ name: 100, birthDate: 0, nationality: 5 });
  });

  it('shows an alias that matched', () => {
    const alias = { ...match, matched_name: 'SHOYGU, Sergey' };
    expect(readRecord(alias as unknown as Record<string, unknown>).matchedName).toBe('SHOYGU, Sergey');
  });

  it('reads a record of another provider by name, list and score, keeping its other fields', () => {
    const view = readRecord({
      name: 'Ayşe Yılmaz',
      list: 'OFAC SDN',
      match_score: 72,
      country: 'TR',
      category: 'Sanctions',
      aka: ['A. Yilmaz'],
    });
    expect(view).toEqual({
      name: 'Ayşe Yılmaz',
      matchedName: null,
      lists: ['OFAC SDN'],
      programs: [],
      score: 72,
      matchedFields: [],
      match: null,
      extra: [
        ['country', 'TR'],
        ['category', 'Sanctions'],
        ['aka', '["A. Yilmaz"]'],
      ],
    });
    expect(readRecord({}).name).toBeNull();
  });

  it('tells never screened, clear and hit apart, and when approval is possible', () => {
    expect(amlStanding(result({ updated_at: null, history: [] }))).toBe('notChecked');
    expect(amlStanding(result())).toBe('clear');
    expect(amlStanding(result({ records: [match] }))).toBe('hit');
    expect(canApprove(result({ updated_at: null, history: [] }))).toBe(false);
    expect(canApprove(result({ records: [match] }))).toBe(true);
    expect(canApprove(result({ approved: true }))).toBe(false);
    expect(canApprove(result({ approved: false }))).toBe(true);
  });
});
