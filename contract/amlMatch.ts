/**
 * A record of an AML screening by the reference server's engine (server/integrations/aml): one listed
 * person whose score reached the threshold, with what matched and how the score was built. Zod-free, so
 * the studio can use it. Records stored by other providers (or the demo seed) may carry other fields.
 */

export const AML_MATCH_FIELDS = ['name', 'birth_date', 'nationality'] as const;
export type AmlMatchField = (typeof AML_MATCH_FIELDS)[number];

export const AML_BIRTH_DATE_RESULTS = ['exact', 'year', 'mismatch', 'not_listed', 'not_given'] as const;
export const AML_NATIONALITY_RESULTS = ['match', 'mismatch', 'not_listed', 'not_given'] as const;

export interface AmlMatchBirthDate {
  result: (typeof AML_BIRTH_DATE_RESULTS)[number];
  /** Listed birth dates: `YYYY-MM-DD`, or `YYYY` where the list gives only the year. */
  listed: string[];
  /** What it added to (or took from) the score. */
  points: number;
}

export interface AmlMatchNationality {
  result: (typeof AML_NATIONALITY_RESULTS)[number];
  /** ISO 3166-1 alpha-2 codes. */
  listed: string[];
  points: number;
}

export interface AmlMatch {
  /** The list entry's id (e.g. `ofac-12345`, an OpenSanctions id). */
  entry_id: string;
  /** The listed name. */
  name: string;
  /** The listed name or alias that matched best. */
  matched_name: string;
  lists: string[];
  /** `lists` joined, for readers that expect one text. */
  list: string;
  programs: string[];
  /** 0–100: name score plus the birth-date and nationality points, clamped. */
  score: number;
  /** 0–100 */
  name_score: number;
  matched_fields: AmlMatchField[];
  /** Customer token ~ listed token pairs and their Jaro-Winkler similarity (0–1). */
  name_tokens: { subject: string; listed: string; similarity: number }[];
  birth_date: AmlMatchBirthDate;
  nationality: AmlMatchNationality;
  /** The customer as screened (the name may be one of the profile's aliases). */
  subject: { name: string; birth_date: string | null; nationality: string | null };
}
