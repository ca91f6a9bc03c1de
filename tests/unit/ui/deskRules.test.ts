/** The desk's rules as the studio shows them: src/ui/screens/review/deskRules.ts. */
import { describe, expect, it } from 'vitest';
import type { ReasonCode, ReviewCase } from '#contract/review';
import { HOUR_MS } from '#contract/time';
import {
  bulkSplit,
  decisionProblem,
  fourEyesRole,
  hoursMinutes,
  mayAssign,
  mayDecide,
  mayResume,
  mayTake,
  mayUnassign,
  returnNoteProblem,
  timeLeft,
} from '../../../src/ui/screens/review/deskRules';

const me = { id: 7, admin: false, secondReview: false };
const admin = { id: 1, admin: true, secondReview: true };
const checker = { id: 9, admin: false, secondReview: true };
const c = (state: ReviewCase['state'], assignee: number | null) => ({ state, assignee });

describe('who may do what', () => {
  it('takes a free case, not someone else’s (unless Admin), not a decided one', () => {
    expect(mayTake(c('open', null), me)).toBe(true);
    expect(mayTake(c('open', 8), me)).toBe(false);
    expect(mayTake(c('open', 8), admin)).toBe(true);
    expect(mayTake(c('open', 7), me)).toBe(false);
    expect(mayTake(c('decided', null), me)).toBe(false);
    expect(mayTake(c('awaiting_second_review', null), me)).toBe(false);
  });
  it('assigns and unassigns free or own cases; Admins any', () => {
    expect(mayAssign(c('escalated', null), me)).toBe(true);
    expect(mayAssign(c('open', 7), me)).toBe(true);
    expect(mayAssign(c('open', 8), me)).toBe(false);
    expect(mayUnassign(c('open', 7), me)).toBe(true);
    expect(mayUnassign(c('open', null), me)).toBe(false);
    expect(mayUnassign(c('snoozed', 8), admin)).toBe(true);
    expect(mayUnassign(c('decided', 7), me)).toBe(false);
  });
  it('decides only as the assignee or an Admin, never while a decision waits', () => {
    expect(mayDecide(c('open', 7), me)).toBe(true);
    expect(mayDecide(c('open', null), me)).toBe(false);
    expect(mayDecide(c('open', null), admin)).toBe(true);
    expect(mayDecide(c('awaiting_second_review', 7), me)).toBe(false);
    expect(mayResume(c('snoozed', 7), me)).toBe(true);
    expect(mayResume(c('open', 7), me)).toBe(false);
  });
  it('names the viewer’s four-eyes role: maker, checker, onlooker', () => {
    const waiting = { state: 'awaiting_second_review' as const };
    expect(fourEyesRole(waiting, { maker: 9 }, checker)).toBe('maker');
    expect(fourEyesRole(waiting, { maker: 7 }, checker)).toBe('checker');
    expect(fourEyesRole(waiting, { maker: 1 }, me)).toBe('onlooker');
    // An Admin maker is still the maker.
    expect(fourEyesRole(waiting, { maker: 1 }, admin)).toBe('maker');
    expect(fourEyesRole({ state: 'open' }, null, checker)).toBe('none');
  });
  it('splits a bulk selection into the cases an action applies to and those it leaves', () => {
    const rows = [c('open', null), c('open', 8), c('open', 7), c('decided', null)];
    expect(bulkSplit('assign', rows, me)).toMatchObject({ skipped: 2 });
    expect(bulkSplit('snooze', rows, me)).toMatchObject({ skipped: 3 });
    expect(bulkSplit('move', rows, admin)).toMatchObject({ skipped: 1 });
  });
});

describe('time left', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const at = (hoursFromNow: number, state: ReviewCase['state'] = 'open', overdue = false) => ({
    state,
    overdue,
    due_at: new Date(now + hoursFromNow * HOUR_MS).toISOString(),
    created_at: new Date(now + hoursFromNow * HOUR_MS - 24 * HOUR_MS).toISOString(),
  });
  it('is green with a quarter or more of the SLA left, amber under it, red past due', () => {
    expect(timeLeft(at(12), now, 24).tone).toBe('ok');
    expect(timeLeft(at(6), now, 24).tone).toBe('ok');
    expect(timeLeft(at(5.9), now, 24).tone).toBe('soon');
    expect(timeLeft(at(-1, 'open', true), now, 24).tone).toBe('overdue');
    expect(timeLeft(at(0), now, 24).tone).toBe('overdue');
  });
  it('takes the span from opening to due without the queue’s SLA', () => {
    expect(timeLeft(at(5), now).tone).toBe('soon');
    expect(timeLeft(at(20), now).tone).toBe('ok');
  });
  it('stands still while the case waits', () => {
    expect(timeLeft(at(-3, 'snoozed'), now, 24).tone).toBe('stopped');
    expect(timeLeft(at(3, 'awaiting_customer'), now, 24).tone).toBe('stopped');
  });
  it('splits a duration into hours and minutes', () => {
    expect(hoursMinutes(3 * HOUR_MS + 5 * 60_000 + 59_000)).toEqual({ hours: 3, minutes: 5 });
    expect(hoursMinutes(-90 * 60_000)).toEqual({ hours: 1, minutes: 30 });
  });
});

describe('what a decision needs', () => {
  const codes: ReasonCode[] = [
    {
      decision: 'reject',
      code: 'face_mismatch',
      label_en: 'Face mismatch',
      label_tr: 'Yüz',
      note_required: false,
    },
    { decision: 'reject', code: 'other', label_en: 'Other', label_tr: 'Diğer', note_required: true },
    {
      decision: 'escalate',
      code: 'possible_fraud',
      label_en: 'Fraud',
      label_tr: 'Dolandırıcılık',
      note_required: false,
    },
  ];
  it('approve needs nothing', () => {
    expect(decisionProblem({ decision: 'approve', reasonCode: null, note: '' }, codes)).toBeNull();
  });
  it('a decision with codes needs one; a code marked note_required a note', () => {
    expect(decisionProblem({ decision: 'reject', reasonCode: null, note: '' }, codes)).toBe('reasonRequired');
    expect(decisionProblem({ decision: 'reject', reasonCode: 'nope', note: '' }, codes)).toBe(
      'reasonRequired',
    );
    expect(decisionProblem({ decision: 'reject', reasonCode: 'face_mismatch', note: '' }, codes)).toBeNull();
    expect(decisionProblem({ decision: 'reject', reasonCode: 'other', note: '  ' }, codes)).toBe(
      'noteRequired',
    );
    expect(decisionProblem({ decision: 'reject', reasonCode: 'other', note: 'short' }, codes)).toBe(
      'noteTooShort',
    );
    expect(decisionProblem({ decision: 'abort', reasonCode: null, note: '' }, codes)).toBeNull();
  });
  it('an escalation needs a note of 10 characters; a note has at most 1000', () => {
    const escalate = { decision: 'escalate' as const, reasonCode: 'possible_fraud' };
    expect(decisionProblem({ ...escalate, note: '' }, codes)).toBe('noteRequired');
    expect(decisionProblem({ ...escalate, note: 'too short' }, codes)).toBe('noteTooShort');
    expect(decisionProblem({ ...escalate, note: 'long enough now' }, codes)).toBeNull();
    expect(decisionProblem({ ...escalate, note: 'x'.repeat(1001) }, codes)).toBe('noteTooLong');
  });
  it('a return’s note has 10 to 1000 characters after trimming', () => {
    expect(returnNoteProblem('   nine 789   ')).toBe('noteTooShort');
    expect(returnNoteProblem('ten chars!')).toBeNull();
    expect(returnNoteProblem('x'.repeat(1001))).toBe('noteTooLong');
  });
});
