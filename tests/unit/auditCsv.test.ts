import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '#contract/audit';
import { describeAuditChanges } from '#contract/logText';
import { auditCsv } from '../../src/machines/auditCsv';
import { logReader } from '../support/logReader';

const en = logReader('en-US');
const tr = logReader('tr');

const labels = {
  time: 'Time',
  user: 'User',
  address: 'Address',
  objectType: 'Object type',
  objectId: 'Object id',
  action: 'Action',
  changes: 'Changes',
  before: 'Before',
  after: 'After',
};

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  created_at: '2026-11-24T03:00:00.000Z',
  actor: 1,
  actor_email: 'admin@acme.test',
  ip: '127.0.0.1',
  object_type: 'user',
  object_id: '7',
  action: 'user_updated',
  before: {},
  after: {},
  ...over,
});

describe('audit log CSV', () => {
  it('quotes JSON changes, neutralises formula-like text and ends lines with CRLF', () => {
    const csv = auditCsv(
      [
        entry({ before: { last_name: 'Old' }, after: { last_name: '=HYPERLINK("x")' } }),
        entry({ id: 2, actor: null, actor_email: null, ip: null, action: 'user_created' }),
      ],
      en,
      labels,
    );
    expect(csv.split('\r\n')).toEqual([
      'Time,User,Address,Object type,Object id,Action,Changes,Before,After',
      '2026-11-24T03:00:00.000Z,admin@acme.test,127.0.0.1,User,7,User updated,"Last name: Old → =HYPERLINK(""x"")","{""last_name"":""Old""}","{""last_name"":""=HYPERLINK(\\""x\\"")""}"',
      '2026-11-24T03:00:00.000Z,,,User,7,User created,,,',
      '',
    ]);
    expect(auditCsv([entry({ actor_email: '@evil' })], en, labels)).toContain(",'@evil,");
  });

  it('summarises each changed field as before → after, with labels and values in the reader’s language', () => {
    const change = {
      object_type: 'user',
      before: { is_active: true },
      after: { is_active: false, role: 'User' },
    };
    expect(describeAuditChanges(en, change)).toEqual(['Enabled: yes → no', 'Role: — → User']);
    expect(describeAuditChanges(tr, change)).toEqual(['Etkin: evet → hayır', 'Rol: — → Kullanıcı']);
    const status = {
      object_type: 'profile',
      before: { status: 'Pending Review' },
      after: { status: 'Approved' },
    };
    expect(describeAuditChanges(tr, status)).toEqual(['Durum: İnceleme bekleniyor → Onaylandı']);
  });

  it('writes the action and object names in the reader’s language', () => {
    const csv = auditCsv([entry({ action: 'user_disabled' })], tr, labels);
    expect(csv.split('\r\n')[1]).toBe(
      '2026-11-24T03:00:00.000Z,admin@acme.test,127.0.0.1,Kullanıcı,7,Kullanıcı devre dışı bırakıldı,,,',
    );
  });
});
