import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '#contract/constants';
import { isAcceptablePassword } from '#contract/passwords';
import { HOUR_MS } from '#contract/time';
import { createLimiters, createLoginGuard, FIRST_DELAY_SECONDS } from '../../server/auth/attemptLimiter';
import { totpCode, verifyTotp } from '../../server/auth/totp';
import { DEMO_USERS } from '../../server/db/seed/demo';
import { createRng } from '../../server/db/seed/prng';
import { createCountCache } from '../../server/domain/countCache';
import { contentOf } from '../../server/domain/documents';
import { likePattern } from '../../server/domain/format';
import { permissionsOf } from '../../server/domain/principal';
import { callStatusList } from '../../server/domain/videocalls/lists';
import { describeValidation } from '../../server/http/errors';
import { toPage } from '../../server/http/paging';

describe('permissions', () => {
  it('gives each role its pages and adds group permissions in the order of the permission list', () => {
    expect(permissionsOf('Restricted User', [])).toEqual(['view_profiles_page', 'view_settings_page']);
    expect(permissionsOf('Restricted User', ['view_calls_page', 'unknown'])).toEqual([
      'view_calls_page',
      'view_profiles_page',
      'view_settings_page',
    ]);
    expect(permissionsOf('Admin', []).toSorted()).toEqual([...PERMISSIONS].sort());
    expect(permissionsOf('Admin', [])).toContain('manage_calls');
  });
});

describe('sign-in guard (in memory)', () => {
  it('delays an address after its failures in a row, not the account elsewhere; a success clears them', async () => {
    const guard = createLoginGuard(createLimiters(undefined), {
      perAccount: 3,
      perAddress: 100,
      timeWindowMs: HOUR_MS,
    });
    const fail = async (address: string) => {
      const attempt = await guard.begin('a@x.test', address);
      if (!attempt.allowed) return attempt.retryAfterSeconds;
      await attempt.settle('failure');
      return 0;
    };
    expect([await fail('1'), await fail('1'), await fail('1')]).toEqual([0, 0, 0]);
    const waiting = await guard.begin('a@x.test', '1');
    expect(waiting).toEqual({ allowed: false, retryAfterSeconds: FIRST_DELAY_SECONDS });
    const elsewhere = await guard.begin('a@x.test', '2');
    expect(elsewhere.allowed).toBe(true);
    if (elsewhere.allowed) await elsewhere.settle('success');
    expect((await guard.begin('b@x.test', '1')).allowed).toBe(true);
  });
});

describe('count cache', () => {
  it('keeps counts per company and filters for its time, and forgets a company on invalidate', () => {
    const counts = createCountCache(2_000);
    counts.set(1, '[]', 240, { now: 0 });
    counts.set(1, '["Approved"]', 22, { now: 0 });
    counts.set(2, '[]', 30, { now: 0 });
    expect(counts.get(1, '[]', 1_999)).toBe(240);
    expect(counts.get(1, '[]', 2_000)).toBeUndefined();
    counts.invalidate(1);
    expect(counts.get(1, '["Approved"]', 10)).toBeUndefined();
    expect(counts.get(2, '[]', 10)).toBe(30);
    const none = createCountCache(0);
    none.set(1, '[]', 240, { now: 0 });
    expect(none.get(1, '[]', 1)).toBeUndefined();
  });

  it("keeps an estimated count a minute (the planner's figure), and forgets it on invalidate too", () => {
    const counts = createCountCache(2_000, 60_000);
    counts.set(1, '["yılmaz"]', 70_713, { estimated: true, now: 0 });
    counts.set(1, '["ayşe"]', 412, { now: 0 });
    expect(counts.get(1, '["yılmaz"]', 59_999)).toBe(70_713);
    expect(counts.get(1, '["ayşe"]', 2_000)).toBeUndefined();
    expect(counts.get(1, '["yılmaz"]', 60_000)).toBeUndefined();
    counts.set(1, '["yılmaz"]', 70_713, { estimated: true, now: 0 });
    counts.invalidate(1);
    expect(counts.get(1, '["yılmaz"]', 10)).toBeUndefined();
  });
});

describe('documents', () => {
  it('applies overrides over extracted fields and names them', () => {
    const { content, overridden } = contentOf({ FirstName: 'Ayse', LastName: 'Kaya' }, { FirstName: 'Ayşe' });
    expect(content.FirstName).toBe('Ayşe');
    expect(content.LastName).toBe('Kaya');
    expect(content.BirthPlace).toBeNull();
    expect(Object.keys(content)).toHaveLength(9);
    expect(overridden).toEqual(['FirstName']);
  });
});

describe('http helpers', () => {
  it('writes one readable line per validation problem', () => {
    expect(
      describeValidation('querystring', [
        { instancePath: '/limit', message: 'Too big: expected number to be <=200' },
        { instancePath: '', message: 'Unrecognized key: "x"' },
      ]),
    ).toBe('querystring.limit: Too big: expected number to be <=200; querystring: Unrecognized key: "x"');
  });

  it('builds next and previous addresses keeping the other query parameters', () => {
    const request = {
      url: '/api/v2/profile?status=Approved&limit=10&offset=10',
      protocol: 'http',
      host: 'h.test',
    };
    const page = toPage(request as FastifyRequest, { limit: 10, offset: 10 }, 25, [1]);
    expect(page.next).toBe('http://h.test/api/v2/profile?status=Approved&limit=10&offset=20');
    expect(page.previous).toBe('http://h.test/api/v2/profile?status=Approved&limit=10');
    expect(toPage(request as FastifyRequest, { limit: 10, offset: 20 }, 25, []).next).toBeNull();
  });

  it('escapes LIKE wildcards in searches', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});

describe('constants and rules', () => {
  it('numbers the call statuses 0..9 with both languages', () => {
    const list = callStatusList();
    expect(list[0]).toEqual({ code: 0, name: 'WAITING', labels: { 'en-US': 'Waiting', tr: 'Bekliyor' } });
    expect(list[7]?.labels['en-US']).toBe('Connection Error');
    expect(list).toHaveLength(10);
  });

  it('seeds demo passwords that satisfy the password rule', () => {
    for (const user of DEMO_USERS) expect(isAcceptablePassword(user.password), user.email).toBe(true);
    expect(isAcceptablePassword('abc123')).toBe(false);
    expect(isAcceptablePassword('Abc12345')).toBe(false);
  });

  it('verifies real TOTP codes with one step of drift', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const now = Math.floor(Date.now() / 1000);
    expect(verifyTotp(secret, totpCode(secret, now))).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now - 30))).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now - 600))).toBe(false);
    expect(verifyTotp(secret, 'abcdef')).toBe(false);
  });

  it('draws the same numbers from the same seed', () => {
    const a = createRng(7);
    const b = createRng(7);
    expect(Array.from({ length: 5 }, () => a.int(0, 1000))).toEqual(
      Array.from({ length: 5 }, () => b.int(0, 1000)),
    );
  });
});
