/**
 * Names as the screening compares them: Latin letters a–z only, lower case, split into tokens.
 * Turkish letters are transliterated first (ç→c, ğ→g, ı→i, İ→i, ö→o, ş→s, ü→u), then every other
 * diacritic is dropped by Unicode decomposition; a few letters that do not decompose (ß, æ, ø, œ, ł, đ,
 * þ, ə …) and Cyrillic are written out. Tokens of other scripts are left out.
 */

const LETTERS: Record<string, string> = {
  // Turkish (and Azerbaijani) letters that a plain lower-casing or decomposition gets wrong
  ı: 'i',
  İ: 'i',
  I: 'i',
  ə: 'e',
  Ə: 'e',
  // Letters without a decomposition
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  œ: 'oe',
  Œ: 'oe',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ħ: 'h',
  ŋ: 'n',
  // Cyrillic (Russian, Ukrainian, Belarusian), a common passport-style romanisation
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ў: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/**
 * Particles and titles that say nothing about who someone is; dropped unless nothing else is left
 * ("AL-ASAD, Bashar" and "Bashar Asad" compare equal).
 */
const PARTICLES = new Set([
  'al',
  'el',
  'bin',
  'ibn',
  'bint',
  'ben',
  'de',
  'del',
  'della',
  'der',
  'den',
  'van',
  'von',
  'da',
  'di',
  'du',
  'la',
  'le',
  'y',
  'mr',
  'mrs',
  'ms',
  'dr',
]);

/** Transliterates to lower-case a–z with spaces; anything else becomes a space. */
export function transliterate(text: string): string {
  let out = '';
  for (const char of text) {
    const mapped = LETTERS[char] ?? LETTERS[char.toLowerCase()];
    out += mapped ?? char;
  }
  return (
    out
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      // O'Neil, Ma'ruf: apostrophes join; every other sign separates
      .replace(/['’‘`ʼ]/g, '')
      .replace(/[^a-z]+/g, ' ')
      .trim()
  );
}

/** The tokens of a name, particles dropped (kept when they are all there is). */
export function nameTokens(name: string): string[] {
  const all = transliterate(name).split(' ').filter(Boolean);
  const meaningful = all.filter((token) => !PARTICLES.has(token));
  return meaningful.length > 0 ? meaningful : all;
}
