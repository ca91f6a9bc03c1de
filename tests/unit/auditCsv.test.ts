import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/contract/audit';
import { auditChanges, auditCsv } from '../../src/machines/auditCsv';

const labels = {
  time: 'Time',
  user: 'User',
  address: 'Address',
  objectType: 'Object type',
  objectId: 'Object id',
  action: 'Action',
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
      labels,
    );
    expect(csv.split('\r\n')).toEqual([
      'Time,User,Address,Object type,Object id,Action,Before,After',
      '2026-11-24T03:00:00.000Z,admin@acme.test,127.0.0.1,user,7,user_updated,"{""last_name"":""Old""}","{""last_name"":""=HYPERLINK(\\""x\\"")""}"',
      '2026-11-24T03:00:00.000Z,,,user,7,user_created,,',
      '',
    ]);
    expect(auditCsv([entry({ actor_email: '@evil' })], labels)).toContain(",'@evil,");
  });

  it('summarises each changed field as before → after', () => {
    expect(auditChanges({ before: { is_active: true }, after: { is_active: false, role: 'User' } })).toEqual([
      'is_active: true → false',
      'role: — → "User"',
    ]);
  });
});
