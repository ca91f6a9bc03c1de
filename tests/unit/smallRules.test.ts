/**
 * Small rules that the studio, the server and the contract share: written once, so each is checked once here
 * against the list or the lengths it stands for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALL_STATUSES,
  FINAL_CALL_STATUSES,
  isFinalCallStatus,
  REASON_ID_PATTERN,
} from '#contract/constants';
import { reasonIdSchema } from '#contract/identProcedure';
import { DAY_MS, HOUR_MS } from '#contract/time';
import {
  firstSnoozeDay,
  SNOOZE_HOUR,
  snoozeLimit,
  snoozeMoment,
  snoozeValid,
} from '../../src/ui/screens/review/deskRules';

describe('lengths of time', () => {
  it('an hour and a day in milliseconds', () => {
    expect(HOUR_MS).toBe(60 * 60 * 1000);
    expect(DAY_MS).toBe(24 * HOUR_MS);
  });
});

describe('final call statuses', () => {
  it('is final exactly for the codes FINAL_CALL_STATUSES lists: COMPLETE to the last status', () => {
    expect(FINAL_CALL_STATUSES).toEqual([3, 4, 5, 6, 7, 8, 9]);
    for (let code = -1; code <= CALL_STATUSES.length; code += 1)
      expect(isFinalCallStatus(code)).toBe(code >= 3 && code < CALL_STATUSES.length);
  });

  it('is never final for a number that is not a status code', () => {
    fc.assert(
      fc.property(
        fc.double().filter((n) => !Number.isInteger(n) || n < 0 || n >= CALL_STATUSES.length),
        (n) => !isFinalCallStatus(n),
      ),
    );
  });
});

describe('reason ids', () => {
  it('1 to 40 lower-case letters, digits or underscores, in the studio as in the contract', () => {
    const cases: [string, boolean][] = [
      ['bad_light', true],
      ['a', true],
      ['x'.repeat(40), true],
      ['x'.repeat(41), false],
      ['', false],
      ['Bad_light', false],
      ['bad-light', false],
      ['bad light', false],
      ['ışık', false],
    ];
    for (const [id, valid] of cases) {
      expect(REASON_ID_PATTERN.test(id)).toBe(valid);
      expect(reasonIdSchema.safeParse(id).success).toBe(valid);
    }
  });
});

describe('snoozing to a day', () => {
  it('ends at the snooze hour, local time, of that day', () => {
    const until = snoozeMoment('2031-03-09');
    expect([until.getFullYear(), until.getMonth(), until.getDate()]).toEqual([2031, 2, 9]);
    expect([until.getHours(), until.getMinutes(), until.getSeconds()]).toEqual([SNOOZE_HOUR, 0, 0]);
  });

  it('may end after now and no later than the snooze limit', () => {
    const now = Date.now();
    expect(snoozeValid(null, now)).toBe(false);
    expect(snoozeValid(new Date(now), now)).toBe(false);
    expect(snoozeValid(new Date(now + 1), now)).toBe(true);
    expect(snoozeValid(new Date(snoozeLimit(now)), now)).toBe(true);
    expect(snoozeValid(new Date(snoozeLimit(now) + 1), now)).toBe(false);
  });

  it('offers tomorrow first, and a snooze to it is valid', () => {
    const now = Date.now();
    const first = firstSnoozeDay(now);
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(snoozeValid(snoozeMoment(first), now)).toBe(true);
  });
});
