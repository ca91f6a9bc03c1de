import { describe, expect, it } from 'vitest';
import type { Document } from '#contract/documents';
import type { Profile } from '#contract/profiles';
import {
  changesMeanwhile,
  conflictCurrent,
  DOCUMENT_FIELDS,
  myChanges,
  PROFILE_FIELDS,
} from '../../../src/machines/versionConflict';

const base = {
  id: 7,
  name: 'Ayşe Yılmaz',
  gender: 'female',
  email: 'ayse@example.com',
  phone: '+90 555 111 2233',
  nationality: 'TR',
  date_of_birth: '1990-05-17',
  address: { province: 'İstanbul', city: 'Üsküdar', street: 'Çamlıca Sokak 3' },
  status: 'Pending Review',
  reject_reason: null,
  risk_level: 'Low',
  version: 3,
} as unknown as Profile;

describe('myChanges', () => {
  it('keeps only the fields that differ from what the reviewer opened (blank equals null)', () => {
    expect(
      myChanges(PROFILE_FIELDS, base, {
        name: 'Ayşe Yılmaz',
        email: '  ',
        phone: '+90 555 999 0000',
        city: 'Kadıköy',
      }),
    ).toEqual({ email: '  ', phone: '+90 555 999 0000', city: 'Kadıköy' });
  });
});

describe('changesMeanwhile', () => {
  it('lists what the other reviewer changed, and flags clashes with my change', () => {
    const current = {
      ...base,
      status: 'Pending Approval',
      phone: '+90 555 444 5566',
      address: { ...base.address, city: 'Kadıköy' },
      version: 4,
    } as Profile;
    const changes = changesMeanwhile(PROFILE_FIELDS, base, current, {
      phone: '+90 555 999 0000',
      city: 'Kadıköy',
      name: 'Ayşe Kaya',
    });
    expect(changes).toEqual([
      {
        field: 'phone',
        before: '+90 555 111 2233',
        theirs: '+90 555 444 5566',
        mine: '+90 555 999 0000',
        touchedByMe: true,
        clash: true,
      },
      // Both typed the same city: no clash.
      {
        field: 'city',
        before: 'Üsküdar',
        theirs: 'Kadıköy',
        mine: 'Kadıköy',
        touchedByMe: true,
        clash: false,
      },
      {
        field: 'status',
        before: 'Pending Review',
        theirs: 'Pending Approval',
        mine: null,
        touchedByMe: false,
        clash: false,
      },
    ]);
  });

  it('is empty when only parts it does not compare changed (a check list answer)', () => {
    expect(changesMeanwhile(PROFILE_FIELDS, base, { ...base, version: 4 }, { name: 'X' })).toEqual([]);
  });

  it('compares documents: decision, archive flag, type, fields and overridden alerts', () => {
    const doc = {
      status: 'pending_review',
      review_reason: null,
      archived: false,
      type: { id: 1, name: 'Passport' },
      content: { FirstName: 'Ayşe' },
      alerts: [{ name: 'MRZ check', overridden: false }],
    } as unknown as Document;
    const now = {
      ...doc,
      status: 'rejected',
      review_reason: 'Blurred photo page',
      content: { FirstName: 'Ayse' },
      alerts: [{ name: 'MRZ check', overridden: true }],
    } as unknown as Document;
    const changes = changesMeanwhile(DOCUMENT_FIELDS, doc, now, { status: 'approved' });
    expect(changes.map((c) => [c.field, c.theirs, c.clash])).toEqual([
      ['status', 'rejected', true],
      ['review_reason', 'Blurred photo page', false],
      ['FirstName', 'Ayse', false],
      ['alerts', 'MRZ check', false],
    ]);
  });
});

describe('conflictCurrent', () => {
  it("reads a 409's current object and nothing else", () => {
    expect(conflictCurrent({ status: 409, body: { detail: 'x', current: { id: 1 } } })).toEqual({ id: 1 });
    expect(conflictCurrent({ status: 400, body: { detail: 'x', current: { id: 1 } } })).toBeNull();
    expect(conflictCurrent({ status: 409, body: { detail: 'x' } })).toBeNull();
    expect(conflictCurrent(new Error('boom'))).toBeNull();
  });
});
