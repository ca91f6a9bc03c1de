/**
 * The screening: compares one customer (name, birth date, nationality) with every person of a watchlist.
 *
 * Name: both names are transliterated (Turkish letters, diacritics, Cyrillic) and split into tokens;
 * particles (al, bin, van …) are dropped. Tokens are paired regardless of order, best Jaro-Winkler pair
 * first; a pair below 0.84 does not count. Each side's coverage is the length-weighted similarity of its
 * paired tokens; the name score is 0.7 × the better coverage + 0.3 × the other (a listed middle name the
 * customer leaves out costs a little, a customer token the list lacks costs as much). A single paired
 * token, where either name has two or more, halves the score ("Demir" alone is not "DEMIR, Ismail").
 * Every listed name and alias is tried; the best counts.
 *
 * Birth date and nationality then move the score: the same date +10, the same year +4 (the list gives
 * only a year, or the day differs), no listed year matching −20; a listed nationality +5, none of the
 * listed ones −10; nothing listed or nothing known about the customer: 0. The score (0–100) is a hit from
 * the threshold on, if the name score alone reaches the candidate floor (NAME_FLOOR).
 */
import type { AmlMatch, AmlMatchBirthDate, AmlMatchNationality } from '#contract/amlMatch';
import { jaroWinkler } from './jaroWinkler';
import type { Watchlist, WatchlistEntry } from './lists';
import { nameTokens } from './text';

export interface ScreeningSubject {
  name: string;
  /** `YYYY-MM-DD` */
  birthDate?: string | null;
  /** ISO 3166-1 alpha-2 */
  nationality?: string | null;
}

export interface ScreeningResult {
  database: string;
  /** People on the list. */
  entries: number;
  threshold: number;
  /** Hits, best first (at most `maxMatches`). */
  matches: AmlMatch[];
}

export interface Screener {
  readonly database: string;
  readonly size: number;
  readonly threshold: number;
  screen(subject: ScreeningSubject): ScreeningResult;
}

/** Two tokens below this similarity are not a pair. */
export const TOKEN_MIN = 0.84;
/** A name score (0–1) below this is never a hit, whatever birth date and nationality add. */
export const NAME_FLOOR = 0.8;
export const POINTS = {
  birthExact: 10,
  birthYear: 4,
  birthMismatch: -20,
  nationalityMatch: 5,
  nationalityMismatch: -10,
} as const;
export const DEFAULT_THRESHOLD = 85;

interface TokenPair {
  subject: string;
  listed: string;
  similarity: number;
}

interface NameComparison {
  score: number;
  pairs: TokenPair[];
}

const weight = (token: string) => Math.max(token.length, 1);

function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  // An initial ("V. Putin") pairs with a token that starts with it.
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 0.9 : 0;
  return jaroWinkler(a, b);
}

/** Order-independent token comparison of two tokenised names (see the module comment). */
export function compareTokens(subject: readonly string[], listed: readonly string[]): NameComparison {
  if (subject.length === 0 || listed.length === 0) return { score: 0, pairs: [] };
  const candidates: { i: number; j: number; similarity: number }[] = [];
  subject.forEach((a, i) => {
    listed.forEach((b, j) => {
      const similarity = tokenSimilarity(a, b);
      if (similarity >= TOKEN_MIN) candidates.push({ i, j, similarity });
    });
  });
  candidates.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const usedSubject = new Set<number>();
  const usedListed = new Set<number>();
  const pairs: (TokenPair & { i: number; j: number })[] = [];
  for (const candidate of candidates) {
    if (usedSubject.has(candidate.i) || usedListed.has(candidate.j)) continue;
    usedSubject.add(candidate.i);
    usedListed.add(candidate.j);
    pairs.push({
      i: candidate.i,
      j: candidate.j,
      subject: subject[candidate.i] as string,
      listed: listed[candidate.j] as string,
      similarity: candidate.similarity,
    });
  }
  const total = (tokens: readonly string[]) => tokens.reduce((sum, token) => sum + weight(token), 0);
  const subjectCoverage =
    pairs.reduce((sum, p) => sum + p.similarity * weight(p.subject), 0) / total(subject);
  const listedCoverage = pairs.reduce((sum, p) => sum + p.similarity * weight(p.listed), 0) / total(listed);
  let score =
    0.7 * Math.max(subjectCoverage, listedCoverage) + 0.3 * Math.min(subjectCoverage, listedCoverage);
  if (pairs.length === 0) score = 0;
  else if (pairs.length < Math.min(2, Math.max(subject.length, listed.length))) score /= 2;
  pairs.sort((x, y) => x.i - y.i);
  return {
    score,
    pairs: pairs.map(({ subject: s, listed: l, similarity }) => ({
      subject: s,
      listed: l,
      similarity: round2(similarity),
    })),
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function compareBirthDate(
  subject: string | null | undefined,
  listed: readonly string[],
): AmlMatchBirthDate {
  if (listed.length === 0) return { result: 'not_listed', listed: [], points: 0 };
  if (!subject) return { result: 'not_given', listed: [...listed], points: 0 };
  const year = subject.slice(0, 4);
  if (listed.includes(subject)) return { result: 'exact', listed: [...listed], points: POINTS.birthExact };
  if (listed.some((date) => date.slice(0, 4) === year))
    return { result: 'year', listed: [...listed], points: POINTS.birthYear };
  return { result: 'mismatch', listed: [...listed], points: POINTS.birthMismatch };
}

export function compareNationality(
  subject: string | null | undefined,
  listed: readonly string[],
): AmlMatchNationality {
  if (listed.length === 0) return { result: 'not_listed', listed: [], points: 0 };
  if (!subject) return { result: 'not_given', listed: [...listed], points: 0 };
  return listed.includes(subject.toUpperCase())
    ? { result: 'match', listed: [...listed], points: POINTS.nationalityMatch }
    : { result: 'mismatch', listed: [...listed], points: POINTS.nationalityMismatch };
}

interface IndexedName {
  entry: number;
  name: string;
  tokens: string[];
}

/**
 * A screener over one watchlist. Names are tokenised once; a screening compares only listed names that
 * share a token's first letter with the customer's name (a pair of tokens above TOKEN_MIN nearly always
 * does, and two pairs are needed for a hit).
 */
export function createScreener(
  list: Watchlist,
  options: { threshold?: number; maxMatches?: number } = {},
): Screener {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const maxMatches = options.maxMatches ?? 10;
  const names: IndexedName[] = [];
  const byInitial = new Map<string, number[]>();
  list.entries.forEach((entry, e) => {
    const seen = new Set<string>();
    for (const name of [entry.name, ...entry.aliases]) {
      const tokens = nameTokens(name);
      const key = [...tokens].sort().join(' ');
      if (tokens.length === 0 || seen.has(key)) continue;
      seen.add(key);
      const index = names.push({ entry: e, name, tokens }) - 1;
      for (const initial of new Set(tokens.map((token) => token[0] as string))) {
        const bucket = byInitial.get(initial);
        if (bucket) bucket.push(index);
        else byInitial.set(initial, [index]);
      }
    }
  });

  function screen(subject: ScreeningSubject): ScreeningResult {
    const tokens = nameTokens(subject.name);
    const best = new Map<number, { comparison: NameComparison; name: string }>();
    const candidates = new Set<number>();
    for (const initial of new Set(tokens.map((token) => token[0] as string)))
      for (const index of byInitial.get(initial) ?? []) candidates.add(index);
    for (const index of candidates) {
      const indexed = names[index] as IndexedName;
      const comparison = compareTokens(tokens, indexed.tokens);
      if (comparison.score < NAME_FLOOR) continue;
      const previous = best.get(indexed.entry);
      if (!previous || comparison.score > previous.comparison.score)
        best.set(indexed.entry, { comparison, name: indexed.name });
    }
    const matches: AmlMatch[] = [];
    for (const [e, { comparison, name }] of best) {
      const entry = list.entries[e] as WatchlistEntry;
      const birth = compareBirthDate(subject.birthDate, entry.birthDates);
      const nationality = compareNationality(subject.nationality, entry.nationalities);
      const nameScore = Math.round(comparison.score * 100);
      const score = Math.max(0, Math.min(100, nameScore + birth.points + nationality.points));
      if (score < threshold) continue;
      matches.push({
        entry_id: entry.id,
        name: entry.name,
        matched_name: name,
        lists: entry.lists,
        list: entry.lists.join(', '),
        programs: entry.programs,
        score,
        name_score: nameScore,
        matched_fields: [
          'name',
          ...(birth.result === 'exact' || birth.result === 'year' ? (['birth_date'] as const) : []),
          ...(nationality.result === 'match' ? (['nationality'] as const) : []),
        ],
        name_tokens: comparison.pairs,
        birth_date: birth,
        nationality,
        subject: {
          name: subject.name,
          birth_date: subject.birthDate ?? null,
          nationality: subject.nationality ?? null,
        },
      });
    }
    matches.sort((a, b) => b.score - a.score || b.name_score - a.name_score || a.name.localeCompare(b.name));
    return {
      database: list.database,
      entries: list.entries.length,
      threshold,
      matches: matches.slice(0, maxMatches),
    };
  }

  return { database: list.database, size: list.entries.length, threshold, screen };
}
