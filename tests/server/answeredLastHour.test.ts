/**
 * The calls each agent answered in the last hour, as one-at-a-time routing counts them: read once from the
 * database, then kept up to date by this process's answers, each call counted once, calls older than an hour
 * dropped as time moves.
 */
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '#contract/time';
import { videoCalls } from '../../server/db/schema';
import { createAnsweredLastHour } from '../../server/realtime/callDesk/answeredLastHour';
import { makeAgents, startTestApp, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A finished call of `agentId` that started at `startedAt` (ms). */
async function answeredAt(agentId: number, startedAt: number): Promise<number> {
  const [row] = await t.app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId: 20,
      agentId,
      roomId: `last-hour-${agentId}-${startedAt}`,
      status: 3,
      callStartTime: new Date(startedAt),
      callEndTime: new Date(startedAt + 60_000),
    })
    .returning({ id: videoCalls.id });
  return row?.id as number;
}

describe('calls answered in the last hour', () => {
  it('reads the last hour once, adds this process’s answers once each, and drops calls as they age', async () => {
    const [first, second, third] = (await makeAgents(t.app, 'window', 3)) as [number, number, number];
    const now = Date.now();
    const inHour = await answeredAt(first, now - 30 * 60_000);
    await answeredAt(first, now - 5 * 60_000);
    await answeredAt(second, now - HOUR_MS - 60_000);
    const window = createAnsweredLastHour(t.app.ctx.db);
    try {
      expect(await window.counts(1, [first, second, third], now)).toEqual(
        new Map([
          [first, 2],
          [second, 0],
          [third, 0],
        ]),
      );
      // A call already read from the database counts once; a new answer counts at once.
      window.answered(first, inHour, now - 30 * 60_000);
      window.answered(third, 999_999, now);
      expect(await window.counts(1, [first, second, third], now)).toEqual(
        new Map([
          [first, 2],
          [second, 0],
          [third, 1],
        ]),
      );
      // 31 minutes later the call of 30 minutes ago is more than an hour old.
      const later = now + 31 * 60_000;
      expect((await window.counts(1, [first, third], later)).get(first)).toBe(1);
    } finally {
      await t.app.ctx.db.delete(videoCalls).where(inArray(videoCalls.agentId, [first, second, third]));
    }
  });
});
