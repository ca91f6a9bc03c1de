/**
 * Reading AML results and records for the screens (pure). Records of the reference server's engine carry
 * the match explanation (`AmlMatch`); records of other providers (and older demo data) are shown by their
 * name, list and score with their other fields as they are.
 */
import { AML_MATCH_FIELDS, type AmlMatch, type AmlMatchField } from '#contract/amlMatch';

export interface AmlRecordView {
  name: string | null;
  matchedName: string | null;
  lists: string[];
  programs: string[];
  score: number | null;
  matchedFields: AmlMatchField[];
  /** The engine's explanation, when the record has one. */
  match: AmlMatch | null;
  /** Other fields of a record that has no explanation, as text. */
  extra: [key: string, value: string][];
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : typeof value === 'number' ? String(value) : null;
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(text).filter((v): v is string => v !== null) : [];

function isMatch(record: Record<string, unknown>): boolean {
  return (
    typeof record.entry_id === 'string' &&
    Array.isArray(record.matched_fields) &&
    typeof record.birth_date === 'object' &&
    record.birth_date !== null &&
    typeof record.nationality === 'object' &&
    record.nationality !== null &&
    Array.isArray(record.name_tokens)
  );
}

const KNOWN = new Set(['name', 'matched_name', 'list', 'lists', 'programs', 'score', 'match_score']);

export function readRecord(record: Record<string, unknown>): AmlRecordView {
  if (isMatch(record)) {
    const match = record as unknown as AmlMatch;
    return {
      name: match.name,
      matchedName: match.matched_name !== match.name ? match.matched_name : null,
      lists: match.lists,
      programs: match.programs,
      score: match.score,
      matchedFields: AML_MATCH_FIELDS.filter((field) => match.matched_fields.includes(field)),
      match,
      extra: [],
    };
  }
  const score = typeof record.score === 'number' ? record.score : record.match_score;
  const lists = texts(record.lists);
  return {
    name: text(record.name),
    matchedName: text(record.matched_name),
    lists: lists.length > 0 ? lists : texts([record.list]),
    programs: texts(record.programs),
    score: typeof score === 'number' ? score : null,
    matchedFields: [],
    match: null,
    extra: Object.entries(record)
      .filter(([key]) => !KNOWN.has(key))
      .map(([key, value]) => [key, text(value) ?? JSON.stringify(value)] as [string, string]),
  };
}

/** What the result stands at: never screened, clear, or hits; and whether it is approved. */
export type AmlStanding = 'notChecked' | 'clear' | 'hit';

export interface AmlResultLike {
  records: unknown[];
  approved: boolean | null;
  updated_at: string | null;
  history: unknown[];
}

export function amlStanding(result: AmlResultLike): AmlStanding {
  if (result.updated_at === null && result.history.length === 0) return 'notChecked';
  return result.records.length > 0 ? 'hit' : 'clear';
}

/** A result can be approved once it exists and while it is not approved yet. */
export const canApprove = (result: AmlResultLike) =>
  amlStanding(result) !== 'notChecked' && result.approved !== true;

/** The score after the name: what birth date and nationality added or took. Sums to the score (clamped). */
export function scoreParts(match: AmlMatch): { name: number; birthDate: number; nationality: number } {
  return {
    name: match.name_score,
    birthDate: match.birth_date.points,
    nationality: match.nationality.points,
  };
}
