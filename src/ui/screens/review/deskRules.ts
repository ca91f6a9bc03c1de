/**
 * The reviewers' desk's rules as the studio shows them: who may do what to a case, the SLA time-left
 * colour, the four-eyes role of the viewer, and what a decision needs before it is sent. Pure functions, no
 * React: the views only ask. The server checks every one of them again (docs/review.md).
 */
import type {
  ReasonCode,
  ReasonDecision,
  ReviewCase,
  ReviewCaseState,
  ReviewDecision,
} from '#contract/review';
import { REVIEW_LIMITS } from '#contract/review';
import { DAY_MS, HOUR_MS } from '#contract/time';
import { toDate, toDay } from '../../format';

/** Who is looking: the signed-in user's id, whether an Admin, and whether they may do second reviews. */
export interface Viewer {
  id: number;
  admin: boolean;
  secondReview: boolean;
}

type CaseLike = Pick<ReviewCase, 'state' | 'assignee'>;

const WORKABLE: readonly ReviewCaseState[] = ['open', 'escalated', 'awaiting_customer', 'snoozed'];
const WAITING: readonly ReviewCaseState[] = ['awaiting_customer', 'snoozed'];

export const isWorkable = (c: Pick<ReviewCase, 'state'>) => WORKABLE.includes(c.state);
export const isWaiting = (c: Pick<ReviewCase, 'state'>) => WAITING.includes(c.state);
const ownsOrAdmin = (c: CaseLike, me: Viewer) => c.assignee === me.id || me.admin;

/** Take: a workable case not mine, free, or anyone's for an Admin. */
export const mayTake = (c: CaseLike, me: Viewer) =>
  isWorkable(c) && c.assignee !== me.id && (c.assignee === null || me.admin);
/** Assign to a colleague: a workable case that is free, mine, or anyone's for an Admin. */
export const mayAssign = (c: CaseLike, me: Viewer) =>
  isWorkable(c) && (c.assignee === null || ownsOrAdmin(c, me));
/** Unassign: an assigned case not decided, by its assignee or an Admin. */
export const mayUnassign = (c: CaseLike, me: Viewer) =>
  c.assignee !== null && c.state !== 'decided' && ownsOrAdmin(c, me);
/** Move to another queue: as assigning. */
export const mayMove = mayAssign;
/** Decide, snooze, await the customer: the assignee or an Admin, on a case not decided nor awaiting a second review. */
export const mayDecide = (c: CaseLike, me: Viewer) => isWorkable(c) && ownsOrAdmin(c, me);
export const maySnooze = mayDecide;
export const mayResume = (c: CaseLike, me: Viewer) => isWaiting(c) && ownsOrAdmin(c, me);

/**
 * The viewer's part in a decision awaiting a second review: `checker` confirms or returns it (second_review, not
 * the maker), `maker` waits for someone else, `onlooker` may do neither; `none` when nothing waits.
 */
export type FourEyesRole = 'none' | 'checker' | 'maker' | 'onlooker';
export function fourEyesRole(
  c: Pick<ReviewCase, 'state'>,
  pending: { maker: number | null } | null,
  me: Viewer,
): FourEyesRole {
  if (c.state !== 'awaiting_second_review' || !pending) return 'none';
  if (pending.maker === me.id) return 'maker';
  return me.secondReview ? 'checker' : 'onlooker';
}

/** The colour of the time left: green, amber under a quarter of the SLA left, red overdue; none while waiting. */
export type TimeTone = 'ok' | 'soon' | 'overdue' | 'stopped';

export interface TimeLeft {
  /** Milliseconds until due (negative: overdue). */
  ms: number;
  tone: TimeTone;
}

export const SOON_SHARE = 0.25;

/**
 * Time left of a case at `now`. `slaHours` is its queue's SLA (the whole span); without it the span from opening
 * to due stands in. A waiting case's clock stands still; a decided one has no time left to show.
 */
export function timeLeft(
  c: Pick<ReviewCase, 'state' | 'due_at' | 'created_at' | 'overdue'>,
  now: number,
  slaHours?: number,
): TimeLeft {
  const due = Date.parse(c.due_at);
  const ms = due - now;
  if (isWaiting(c) || c.state === 'decided') return { ms, tone: 'stopped' };
  if (ms <= 0 || c.overdue) return { ms, tone: 'overdue' };
  const span = slaHours ? slaHours * HOUR_MS : due - Date.parse(c.created_at);
  return { ms, tone: span > 0 && ms < span * SOON_SHARE ? 'soon' : 'ok' };
}

/** Whole hours and minutes of a duration (its sign dropped), for "3 h 05 min left" / "2 h overdue". */
export function hoursMinutes(ms: number): { hours: number; minutes: number } {
  const total = Math.floor(Math.abs(ms) / 60_000);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/** The reason codes of a decision (approve has none). */
export const codesFor = (decision: ReviewDecision, codes: readonly ReasonCode[]) =>
  decision === 'approve' ? [] : codes.filter((code) => code.decision === (decision as ReasonDecision));

export type DecisionProblem = 'reasonRequired' | 'noteRequired' | 'noteTooShort' | 'noteTooLong' | null;

/**
 * What keeps a decision from being sent: a decision with codes needs one; a code marked `note_required` needs a
 * note; an escalation needs a note of at least 10 characters, and a rejection too when no code gives its reason.
 */
export function decisionProblem(
  form: { decision: ReviewDecision; reasonCode: string | null; note: string },
  codes: readonly ReasonCode[],
): DecisionProblem {
  const own = codesFor(form.decision, codes);
  const note = form.note.trim();
  if (note.length > REVIEW_LIMITS.noteMax) return 'noteTooLong';
  const code = own.find((c) => c.code === form.reasonCode) ?? null;
  if (own.length > 0 && !code) return 'reasonRequired';
  if (code?.note_required && !note) return 'noteRequired';
  const needsLong = form.decision === 'escalate' || (form.decision === 'reject' && !code);
  if (needsLong && note.length < REVIEW_LIMITS.noteMin) return note ? 'noteTooShort' : 'noteRequired';
  if (form.decision === 'reject' && note && note.length < REVIEW_LIMITS.noteMin) return 'noteTooShort';
  return null;
}

/** A return's note: 10 to 1000 characters after trimming. */
export function returnNoteProblem(note: string): 'noteTooShort' | 'noteTooLong' | null {
  const length = note.trim().length;
  if (length < REVIEW_LIMITS.noteMin) return 'noteTooShort';
  return length > REVIEW_LIMITS.noteMax ? 'noteTooLong' : null;
}

export type BulkAction = 'assign' | 'move' | 'snooze';
const BULK_RULE: Record<BulkAction, (c: CaseLike, me: Viewer) => boolean> = {
  assign: mayAssign,
  move: mayMove,
  snooze: maySnooze,
};

/** The selected cases a bulk action applies to, and those it leaves out (the dialog says how many). */
export function bulkSplit<T extends CaseLike>(action: BulkAction, selected: readonly T[], me: Viewer) {
  const apply = selected.filter((c) => BULK_RULE[action](c, me));
  return { apply, skipped: selected.length - apply.length };
}

/** The latest moment a snooze may reach from `now` (365 days). */
export const snoozeLimit = (now: number) => now + REVIEW_LIMITS.snoozeDaysMax * DAY_MS;

/** A snooze to a day ends at this hour, local time, that day: when the desk's working day begins. */
export const SNOOZE_HOUR = 8;

/** The moment a snooze to `day` (`YYYY-MM-DD`, the reviewer's calendar) ends. */
export function snoozeMoment(day: string): Date {
  const until = toDate(day);
  until.setHours(SNOOZE_HOUR);
  return until;
}

/** Whether a snooze may end at `until`: later than `now`, and no further than the snooze limit. */
export const snoozeValid = (until: Date | null, now: number): boolean =>
  until !== null && until.getTime() > now && until.getTime() <= snoozeLimit(now);

/** The first day a snooze may be set to, as a date input takes it. */
export const firstSnoozeDay = (now: number) => toDay(new Date(now + DAY_MS));
