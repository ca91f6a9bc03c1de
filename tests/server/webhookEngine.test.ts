import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { readRetrySchedule } from '../../server/config';
import { isRetryable, nextRetryDelayMs, parseRetryAfter } from '../../server/integrations/webhooks/schedule';
import { newWebhookSecret, signedHeaders } from '../../server/integrations/webhooks/signer';
import { isForbiddenAddress } from '../../server/integrations/webhooks/ssrf';

describe('signer (checked with the standardwebhooks package)', () => {
  it('makes whsec_ secrets of 32 random bytes whose signatures the reference library accepts', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({
      type: 'profile.created',
      timestamp: new Date().toISOString(),
      data: { a: 1 },
    });
    const headers = signedHeaders([secret], 'msg_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('puts one signature per secret, space-separated, each verifiable alone', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"type":"x","timestamp":"t","data":{}}';
    const headers = signedHeaders([a, b], 'msg_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
  });
});

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('retry schedule', () => {
  it('waits the scheduled delay with ±20 % jitter, then gives up', () => {
    const schedule = [5, 300];
    expect(nextRetryDelayMs(schedule, 1, null, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(schedule, 1, null, () => 1)).toBe(6_000);
    expect(nextRetryDelayMs(schedule, 2, null, () => 0.5)).toBe(300_000);
    expect(nextRetryDelayMs(schedule, 3, null)).toBeNull();
  });

  it('honours a longer Retry-After (seconds or an HTTP date)', () => {
    expect(nextRetryDelayMs([5], 1, 60, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs([5], 1, 1, () => 0.5)).toBe(5_000);
    expect(parseRetryAfter('120')).toBe(120);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('retries network errors, 408, 429 and 5xx; other answers are final', () => {
    expect([null, 408, 429, 500, 502, 503].every(isRetryable)).toBe(true);
    expect([400, 401, 404, 410, 422, 301].some(isRetryable)).toBe(false);
  });

  it('reads WEBHOOK_RETRY_SCHEDULE as comma-separated seconds', () => {
    expect(readRetrySchedule('1, 2.5,10')).toEqual([1, 2.5, 10]);
    expect(readRetrySchedule(undefined)).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]);
    expect(() => readRetrySchedule('1,x')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => readRetrySchedule('-1')).toThrow();
  });
});
