import { beforeAll, describe, expect, it } from 'vitest';
import { formatsFor, NO_VALUE } from '../../../src/ui/format';

// The studio writes moments in the viewer's time zone; these checks read them in UTC.
beforeAll(() => {
  process.env.TZ = 'UTC';
});

// Intl puts narrow no-break spaces in some formats; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('the one formatting module', () => {
  const at = '2026-11-25T14:58:48.000Z';

  it('writes dates, moments, numbers, amounts and durations in en-US', () => {
    const f = formatsFor('en-US');
    expect(f.date(at)).toBe('Nov 25, 2026');
    expect(plain(f.dateTime(at))).toBe('Nov 25, 2026, 2:58 PM');
    expect(plain(f.moment(at))).toBe('Nov 25, 2026, 2:58:48 PM');
    expect(f.day('1990-01-01')).toBe('Jan 1, 1990');
    expect(f.shortDay('2026-11-25')).toBe('Nov 25');
    expect(f.number(2000)).toBe('2,000');
    expect(plain(f.money(80_000, 'USD'))).toBe('$800.00');
    expect(f.duration(42.4)).toBe('42 sec');
    expect(f.duration(252)).toBe('4 min 12 sec');
    expect(f.duration(3 * 3600 + 125)).toBe('3 hr 2 min');
    expect(f.duration(null)).toBe(NO_VALUE);
  });

  it('writes the same values the Turkish way in tr', () => {
    const f = formatsFor('tr');
    expect(f.date(at)).toBe('25 Kas 2026');
    expect(plain(f.dateTime(at))).toBe('25 Kas 2026 14:58');
    expect(plain(f.moment(at))).toBe('25 Kas 2026 14:58:48');
    expect(f.day('1990-01-01')).toBe('1 Oca 1990');
    expect(f.number(2000)).toBe('2.000');
    expect(plain(f.money(80_000, 'USD'))).toBe('$800,00');
    expect(f.duration(252)).toBe('4 dk. 12 sn.');
  });

  it('names countries by their ISO code in the interface language, and leaves anything else as it came', () => {
    expect(formatsFor('en-US').country('DE')).toBe('Germany');
    expect(formatsFor('en-US').country('tr')).toBe('Türkiye');
    expect(formatsFor('tr').country('DE')).toBe('Almanya');
    expect(formatsFor('en-US').country('Germany')).toBe('Germany');
    expect(formatsFor('en-US').country('')).toBe('');
  });

  it('keeps a day a day in every time zone and leaves text that is no date as it came', () => {
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(formatsFor('en-US').day('1990-01-01')).toBe('Jan 1, 1990');
    } finally {
      process.env.TZ = 'UTC';
    }
    expect(formatsFor('en-US').dateTime('not a date')).toBe('not a date');
  });
});
