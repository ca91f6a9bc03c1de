import { and, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, perHandle } from '../db/client';
import { profiles } from '../db/schema';
import type { CountCache } from './countCache';

export interface SearchCondition {
  condition: SQL;
  values: Record<string, string | number>;
  /** A substring search: the condition for a page of many matches (see `substring`), `condition` for few. */
  many?: SQL;
  /** A substring search: the condition whose plan estimates the count past the cap (see `substring`). */
  estimate?: SQL;
}

/**
 * The list's `search` as one condition with placeholders (docs/decisions/0165-profile-search-by-index.md). Every form is served by an index of
 * migration 0034: the trigram index on the stored `search_text` (a substring of the folded name, e-mail or ID
 * number, or of the phone's digits), the b-tree on the start of `search_text`, the folded name (a 1–2 character search
 * is a name prefix: trigrams need 3 characters) and the b-tree on the ID number (an exact ID number).
 *
 * Folding happens in the database (`profile_search_fold`), on the search and on the profile alike, so
 * "çelik", "ÇELİK" and "CELIK" find the same profiles and no second copy of the rule exists here.
 *
 * An exact ID number is answered on its own: when the company has a profile with exactly that ID number (one
 * probe of the b-tree before the list is read), the search finds that profile (and a profile whose id is the
 * search), not the profiles that merely contain the digits. The list's ordering and paging stay as they are.
 * The probe's answer is kept with the list's counts (`counts`): as long, and forgotten by the same writes.
 */
export async function searchConditionOf(
  db: DbOrTx,
  companyId: number,
  search: string,
  p: typeof sql.placeholder,
  counts?: CountCache,
): Promise<SearchCondition> {
  const term = search.replace(/\s+/g, ' ');
  // Nothing to look for (punctuation, symbols, emoji): no profile matches, and no index would help.
  // Its value is unused: the key alone gives this condition a prepared query of its own (the list keys its
  // prepared queries by the names of the values), apart from the list without a search.
  if (!/[\p{L}\p{N}]/u.test(term)) return { condition: sql`false`, values: { searchNothing: 1 } };
  // "+49 170 1234567", "(0532) 123-45-67", "12345678901": compared by their digits.
  const needle = isPhoneLike(term) ? term.replace(/\D/g, '') : term;
  // A profile whose id is the search is found too.
  const byId = /^\d{1,9}$/.test(needle) ? { searchId: Number(needle) } : undefined;
  const withId = (condition: SQL, values: Record<string, string | number>) =>
    byId
      ? {
          condition: or(condition, eq(profiles.id, p('searchId'))) ?? condition,
          values: { ...values, ...byId },
        }
      : { condition, values };
  // An exact ID number, known before the list is read: the list is then one b-tree lookup, and a plan never
  // has to read the trigram index for the digits of every phone and ID number as well.
  if (await hasIdNumber(db, companyId, needle, counts))
    return withId(eq(profiles.idCardNumber, p('searchExact')), { searchExact: needle });
  const short = [...needle].length < 3;
  if (short)
    // The folded name starts search_text: a prefix of it, as a range on the b-tree of its first 64
    // characters (a range serves a generic plan too: a LIKE prefix must be known when planning). Folded in a
    // subquery: once a query (an InitPlan), not once a row.
    return withId(
      sql`(left(${profiles.searchText}, 64) ~>=~ (select profile_search_fold(${p('searchPrefix')})) and left(${profiles.searchText}, 64) ~<~ (select profile_search_fold(${p('searchPrefix')}) || chr(1114111)))`,
      { searchPrefix: needle },
    );
  // A substring goes into LIKE, whose metacharacters are made literal. Folded in a subquery (as above).
  const values = { searchNeedle: needle.replace(/[\\%_]/g, (c) => `\\${c}`) };
  const { few, many, estimate } = substring(p('searchNeedle'));
  return {
    ...withId(few, values),
    many: withId(many, values).condition,
    estimate: withId(estimate, values).condition,
  };
}

/**
 * Whether the company has a profile with exactly this ID number (the b-tree of migration 0034), kept in `counts`
 * beside the list's counts (whose keys are JSON arrays: never this key): paging through a search, or many people
 * looking for the same term, ask the database once.
 */
async function hasIdNumber(db: DbOrTx, companyId: number, idNumber: string, counts?: CountCache) {
  const key = `id number ${idNumber}`;
  const known = counts?.get(companyId, key);
  if (known !== undefined) return known === 1;
  const [row] = await idNumberProbe(db).execute({ companyId, searchExact: idNumber });
  counts?.set(companyId, key, row ? 1 : 0);
  return row !== undefined;
}

const idNumberProbe = perHandle((db) =>
  db
    .select({ one: sql`1` })
    .from(profiles)
    .where(
      and(
        eq(profiles.companyId, sql.placeholder('companyId')),
        eq(profiles.idCardNumber, sql.placeholder('searchExact')),
      ),
    )
    .limit(1)
    .prepare('profile_id_number_probe'),
);

/** Digits with the usual phone punctuation only, and at least one digit. */
function isPhoneLike(term: string): boolean {
  return /^\+?[\d ().\-/]+$/.test(term) && /\d/.test(term);
}

/**
 * A substring search as two conditions with the same matches, each kept by a generic plan on the read that
 * suits it (docs/decisions/0169-search-few-or-many.md). The list counts the matches first, up to `SEARCH_COUNT_CAP`, with `few`, then reads
 * its page with `few` or, from `manyFrom` matches on, with `many`:
 * - `few`: search_text LIKE the pattern, written twice. A generic plan cannot know the pattern and guesses that
 *   1 profile in 200 matches; two equal conditions bring the guess to 1 in 40,000, so the plan reads the
 *   trigram index and sorts the matches (a rare term: a few heap rows; the count: at most the cap + 1).
 * - `many`: the same LIKE on an expression no index holds, so the plan walks the list's ordering index and
 *   stops at the page's last row: a common term ("Yılmaz", one profile in sixteen) fills a page of 20 from
 *   about 320 rows, where the trigram plan fetched and sorted every match (62,500 at 1,000,000 profiles). The
 *   list reads the page's ids first: along the default ordering, from the index alone, which holds search_text
 *   (migration 0039, docs/decisions/0188-list-planned-once-ids-from-the-index.md).
 * - `estimate`: the count past the cap is the planner's estimate of this one, planned for the search itself
 *   (70,710 for those 62,500; the generic conditions above would say 25 or 5,000 whatever the term).
 */
function substring(needle: Placeholder): { few: SQL; many: SQL; estimate: SQL } {
  // Folded in a subquery: once a query (an InitPlan), not once a row of a generic plan.
  const pattern = sql`(select '%' || profile_search_fold(${needle}) || '%')`;
  return {
    few: sql`(${profiles.searchText} like ${pattern} and ${profiles.searchText} like ${pattern})`,
    many: sql`(${profiles.searchText} || '') like ${pattern}`,
    // EXPLAIN with the search's value: the planner folds it into a constant and reads the column's statistics.
    estimate: sql`${profiles.searchText} like '%' || profile_search_fold(${needle}) || '%'`,
  };
}

/**
 * The most matches of a substring search that are counted (and read through the trigram index); past it the
 * count is the planner's estimate and the page walks the ordering's index (see `substring`).
 */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * From how many matches a substring search's page is read along the ordering (`many`) rather than from the
 * trigram index (`few`). Reading the matches costs about a row each; walking the ordering costs about
 * `limit` × profiles ÷ matches rows. The two are equal at √(limit × profiles): 450 for a page of 20 among
 * 10,000 profiles (where "Yılmaz" has 661 matches), the cap (1,000) from 50,000 on. Profiles: the table's rows as
 * PostgreSQL last counted them (pg_class; -1 when never counted: the cap), read once a minute.
 */
export async function manyFrom(db: DbOrTx, limit: number, cap: number): Promise<number> {
  const rows = await tableRows(db)();
  return rows < 0 ? cap : Math.min(cap, Math.max(limit, Math.round(Math.sqrt(limit * rows))));
}

const tableRows = perHandle((db) => {
  let known: { rows: number; at: number } | undefined;
  return async () => {
    if (!known || Date.now() - known.at > 60_000) {
      const [row] = await db
        .execute<{ rows: number }>(
          sql`select reltuples::float8 as rows from pg_class where oid = 'profiles'::regclass`,
        )
        .then((result) => (result as unknown as { rows: { rows: number }[] }).rows);
      known = { rows: Number(row?.rows ?? -1), at: Date.now() };
    }
    return known.rows;
  };
});
