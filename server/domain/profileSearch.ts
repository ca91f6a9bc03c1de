import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import { profiles } from '../db/schema';

/**
 * The list's `search` as one condition with placeholders (record 0165). Every form is served by an index of
 * migration 0034: the trigram index on the stored `search_text` (a substring of the folded name, e-mail or ID
 * number, or of the phone's digits), the b-tree on the start of `search_text`, the folded name (a 1–2 character search
 * is a name prefix: trigrams need 3 characters) and the b-tree on the ID number (an exact ID number).
 *
 * Folding happens in the database (`profile_search_fold`), on the search and on the profile alike, so
 * "çelik", "ÇELİK" and "CELIK" find the same profiles and no second copy of the rule exists here.
 *
 * An exact ID number is answered on its own: when the company has a profile with exactly that ID number, the
 * search finds that profile (and a profile whose id is the search), not the profiles that merely contain the
 * digits. The list's ordering and paging stay as they are.
 */
export function searchConditionOf(
  search: string,
  p: typeof sql.placeholder,
): { condition: SQL; values: Record<string, string | number> } {
  const term = search.replace(/\s+/g, ' ');
  // Nothing to look for (punctuation, symbols, emoji): no profile matches, and no index would help.
  // Its value is unused: the key alone gives this condition a prepared query of its own (the list keys its
  // prepared queries by the names of the values), apart from the list without a search.
  if (!/[\p{L}\p{N}]/u.test(term)) return { condition: sql`false`, values: { searchNothing: 1 } };
  // "+49 170 1234567", "(0532) 123-45-67", "12345678901": compared by their digits.
  const needle = isPhoneLike(term) ? term.replace(/\D/g, '') : term;
  const short = [...needle].length < 3;
  // The placeholders' names tell the two forms apart: the list prepares one query per set of names.
  const needleName = short ? 'searchPrefix' : 'searchNeedle';
  const values: Record<string, string | number> = {
    // A prefix is compared as text; a substring goes into LIKE, whose metacharacters are made literal.
    [needleName]: short ? needle : needle.replace(/[\\%_]/g, (c) => `\\${c}`),
    searchExact: needle,
  };
  // Folded in a subquery, so the fold runs once a query (an InitPlan), not once a row that a plan filters.
  const fuzzy = short
    ? // The folded name starts search_text: a prefix of it, as a range on the b-tree of its first 64
      // characters (a range serves a generic plan too: a LIKE prefix must be known when planning).
      sql`(left(${profiles.searchText}, 64) ~>=~ (select profile_search_fold(${p(needleName)})) and left(${profiles.searchText}, 64) ~<~ (select profile_search_fold(${p(needleName)}) || chr(1114111)))`
    : substring(sql`(select '%' || profile_search_fold(${p(needleName)}) || '%')`);
  const exactIdNumber = eq(profiles.idCardNumber, p('searchExact'));
  const anyExact = sql`exists (select 1 from profiles exact where exact.company_id = ${p('companyId')} and exact.id_card_number = ${p('searchExact')})`;
  const terms: (SQL | undefined)[] = [exactIdNumber, and(sql`not ${anyExact}`, fuzzy)];
  if (/^\d{1,9}$/.test(needle)) {
    terms.push(eq(profiles.id, p('searchId')));
    values.searchId = Number(needle);
  }
  return { condition: or(...terms) ?? sql`false`, values };
}

/** Digits with the usual phone punctuation only, and at least one digit. */
function isPhoneLike(term: string): boolean {
  return /^\+?[\d ().\-/]+$/.test(term) && /\d/.test(term);
}

/**
 * search_text LIKE the pattern, written twice. A prepared list query soon runs a generic plan, which cannot
 * know the pattern and guesses that 1 profile in 200 matches: at 1,000,000 profiles it then walks the
 * company's newest-first index and filters every row, about 2 s for a search that finds nothing. Two equal
 * conditions halve the guess's exponent (1 in 40,000), so the plan reads the trigram index and sorts the
 * few matches; the second condition costs one comparison a match.
 */
function substring(pattern: SQL): SQL {
  return sql`(${profiles.searchText} like ${pattern} and ${profiles.searchText} like ${pattern})`;
}
