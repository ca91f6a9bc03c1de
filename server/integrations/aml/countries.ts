import { transliterate } from './text';

/** Names the lists use that differ from the English region names of ICU. */
const EXTRA_NAMES: Record<string, string> = {
  'korea, north': 'KP',
  'korea north': 'KP',
  'north korea': 'KP',
  'korea, south': 'KR',
  'south korea': 'KR',
  russia: 'RU',
  'russian federation': 'RU',
  iran: 'IR',
  syria: 'SY',
  turkey: 'TR',
  turkiye: 'TR',
  burma: 'MM',
  'congo, democratic republic of the': 'CD',
  'congo, republic of the': 'CG',
  palestinian: 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  'united states': 'US',
  'united kingdom': 'GB',
  laos: 'LA',
  vietnam: 'VN',
  'cote d ivoire': 'CI',
  'ivory coast': 'CI',
  bolivia: 'BO',
  venezuela: 'VE',
  tanzania: 'TZ',
  moldova: 'MD',
  'macedonia, the former yugoslav republic of': 'MK',
  'north macedonia': 'MK',
  'bosnia and herzegovina': 'BA',
};

let byName: Map<string, string> | null = null;

function names(): Map<string, string> {
  if (byName) return byName;
  const map = new Map<string, string>();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters)
    for (const second of letters) {
      const code = `${first}${second}`;
      const name = display.of(code);
      if (name && name !== code) map.set(transliterate(name), code);
    }
  for (const [name, code] of Object.entries(EXTRA_NAMES)) map.set(transliterate(name), code);
  byName = map;
  return map;
}

/** ISO 3166-1 alpha-2 code of a country name or code as lists write them ("Korea, North", "ru"), else null. */
export function countryCode(value: string): string | null {
  const trimmed = value.trim();
  if (/^[a-z]{2}$/i.test(trimmed)) return trimmed.toUpperCase();
  return names().get(transliterate(trimmed)) ?? null;
}
