import { and, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { agentStatusSchema } from '#contract/common';
import { CALL_STATUS_MISSED, CALL_STATUS_TALKING } from '#contract/constants';
import type { BoardAgent, InstantStats, WaitingFigures } from '#contract/socket';
import { STATS_EVERY_MS } from '../config';
import type { DbOrTx } from '../db/client';
import { users, videoCalls } from '../db/schema';
import { fullName } from '../domain/format';
import type { DeskEvent } from './callDesk';
import { createPacer } from './pacer';

/** Agents are the company's active studio users who may take calls (roles Admin and User, no API users). */
const AGENT_ROLES = ['Admin', 'User'];

interface CompanyFigures {
  day: string;
  agents: Map<number, BoardAgent>;
  /** call id → when the customer joined */
  waiting: Map<number, string>;
  talking: Set<number>;
  answeredToday: number;
  missedToday: number;
  handlingSeconds: number;
  handled: number;
}

/**
 * The count, the oldest and the mean of the moments customers joined. The mean is taken over offsets from the
 * oldest (whole milliseconds), so it is exact and the same in whatever order the moments come.
 */
export function waitingFiguresOf(moments: Iterable<string>): WaitingFigures {
  const times = Array.from(moments, (moment) => Date.parse(moment));
  if (times.length === 0) return { count: 0, oldest_since: null, mean_since: null };
  let oldest = Number.POSITIVE_INFINITY;
  for (const time of times) if (time < oldest) oldest = time;
  let offsets = 0;
  for (const time of times) offsets += time - oldest;
  return {
    count: times.length,
    oldest_since: new Date(oldest).toISOString(),
    mean_since: new Date(oldest + Math.round(offsets / times.length)).toISOString(),
  };
}

const today = (now = new Date()) => now.toISOString().slice(0, 10);
const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * The instant stats of every company, kept in memory from the call desk's events (a customer queued, a call
 * answered, missed or ended, an agent's status) and rebuilt from the database when first asked for, after a
 * restart and at each new (UTC) day. Changes are pushed at once, or paced under bursts (STATS_EVERY_MS).
 */
export function createInstantStats(deps: {
  db: DbOrTx;
  /** The waiting calls whose customer is connected (the desk's presence). */
  waiting: (companyId: number) => Promise<{ call_id: number; created_at: string }[]>;
  push: (companyId: number, stats: InstantStats) => void;
  onError: (error: unknown) => void;
  /** The least time between two pushes of a company's stats (default STATS_EVERY_MS). */
  everyMs?: number;
}) {
  const companies = new Map<number, Promise<CompanyFigures>>();
  /** Companies whose rebuild has finished: later events are applied to them in memory. */
  const settled = new Set<number>();
  const pushes = createPacer(deps.everyMs ?? STATS_EVERY_MS);

  async function rebuild(companyId: number): Promise<CompanyFigures> {
    const day = today();
    const since = startOfDay(day);
    const [agentRows, talkingRows, answered, missed, handledRows, waiting] = await Promise.all([
      deps.db
        .select({
          id: users.id,
          first: users.firstName,
          last: users.lastName,
          email: users.email,
          status: users.agentStatus,
          since: users.agentStatusSince,
        })
        .from(users)
        .where(
          and(
            eq(users.companyId, companyId),
            eq(users.isActive, true),
            eq(users.isApiUser, false),
            inArray(users.role, AGENT_ROLES),
          ),
        ),
      deps.db
        .select({ id: videoCalls.id, agent: videoCalls.agentId })
        .from(videoCalls)
        .where(
          and(
            eq(videoCalls.companyId, companyId),
            eq(videoCalls.status, CALL_STATUS_TALKING),
            isNull(videoCalls.callEndTime),
          ),
        ),
      deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(videoCalls)
        .where(and(eq(videoCalls.companyId, companyId), gte(videoCalls.callStartTime, since))),
      deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(videoCalls)
        .where(
          and(
            eq(videoCalls.companyId, companyId),
            eq(videoCalls.status, CALL_STATUS_MISSED),
            gte(videoCalls.createdAt, since),
          ),
        ),
      deps.db
        .select({
          n: sql<number>`count(*)::int`,
          total: sql<number>`coalesce(sum(extract(epoch from (${videoCalls.callEndTime} - ${videoCalls.callStartTime}))), 0)::float8`,
        })
        .from(videoCalls)
        .where(
          and(
            eq(videoCalls.companyId, companyId),
            gte(videoCalls.callStartTime, since),
            isNotNull(videoCalls.callEndTime),
          ),
        ),
      deps.waiting(companyId),
    ]);
    const callOf = new Map(talkingRows.filter((r) => r.agent !== null).map((r) => [r.agent as number, r.id]));
    const agents = new Map<number, BoardAgent>(
      agentRows.map((row) => {
        const status = agentStatusSchema.safeParse(row.status);
        return [
          row.id,
          {
            id: row.id,
            name: fullName(row.first, row.last) || row.email,
            status: status.success ? status.data : 'Offline',
            since: row.since?.toISOString() ?? null,
            call_id: callOf.get(row.id) ?? null,
          },
        ];
      }),
    );
    return {
      day,
      agents,
      waiting: new Map(waiting.map((w) => [w.call_id, w.created_at])),
      talking: new Set(talkingRows.map((r) => r.id)),
      answeredToday: answered[0]?.n ?? 0,
      missedToday: missed[0]?.n ?? 0,
      handlingSeconds: handledRows[0]?.total ?? 0,
      handled: handledRows[0]?.n ?? 0,
    };
  }

  function figuresOf(companyId: number): Promise<CompanyFigures> {
    let figures = companies.get(companyId);
    if (!figures) {
      figures = rebuild(companyId);
      companies.set(companyId, figures);
      figures.then(
        () => settled.add(companyId),
        () => companies.delete(companyId),
      );
    }
    return figures.then((f) => {
      if (f.day === today()) return f;
      companies.delete(companyId);
      settled.delete(companyId);
      return figuresOf(companyId);
    });
  }

  function snapshot(f: CompanyFigures): InstantStats {
    return {
      agents: [...f.agents.values()].sort((a, b) => a.name.localeCompare(b.name)),
      waiting: waitingFiguresOf(f.waiting.values()),
      talking: f.talking.size,
      answered_today: f.answeredToday,
      missed_today: f.missedToday,
      average_handling_s: f.handled > 0 ? Math.round(f.handlingSeconds / f.handled) : null,
      at: new Date().toISOString(),
    };
  }

  /**
   * Pushes the company's stats at once, or within `everyMs` of the last push: however many events moved
   * them, every staff screen of the company gets one message per period.
   */
  function schedule(companyId: number) {
    pushes.request(companyId, () => {
      figuresOf(companyId)
        .then((f) => deps.push(companyId, snapshot(f)))
        .catch(deps.onError);
    });
  }

  function apply(f: CompanyFigures, event: DeskEvent) {
    switch (event.kind) {
      case 'queued':
        f.waiting.set(event.callId, event.since);
        break;
      case 'answered': {
        f.waiting.delete(event.callId);
        f.talking.add(event.callId);
        f.answeredToday += 1;
        const agent = f.agents.get(event.agentId);
        if (agent) {
          agent.call_id = event.callId;
          // The board's "time in state" restarts when a call starts.
          agent.since = event.since;
        }
        break;
      }
      case 'missed':
        f.waiting.delete(event.callId);
        f.missedToday += 1;
        break;
      case 'closed':
        f.waiting.delete(event.callId);
        break;
      case 'ended': {
        f.talking.delete(event.callId);
        const agent = event.agentId === null ? undefined : f.agents.get(event.agentId);
        if (agent?.call_id === event.callId) {
          agent.call_id = null;
          if (event.since !== null) agent.since = event.since;
        }
        if (event.seconds !== null && event.seconds >= 0) {
          f.handlingSeconds += event.seconds;
          f.handled += 1;
        }
        break;
      }
      case 'agent': {
        const agent = f.agents.get(event.userId);
        if (agent) {
          agent.status = event.status;
          agent.since = event.since;
        }
        break;
      }
    }
  }

  return {
    /**
     * The company's stats for a staff socket that just connected. A user the figures do not know yet (added
     * since they were built) has them rebuilt and pushed to everyone.
     */
    async current(companyId: number, userId: number): Promise<InstantStats> {
      const figures = await figuresOf(companyId);
      if (figures.agents.has(userId)) return snapshot(figures);
      companies.delete(companyId);
      settled.delete(companyId);
      const rebuilt = await figuresOf(companyId);
      if (rebuilt.agents.has(userId)) schedule(companyId);
      return snapshot(rebuilt);
    },
    /** Applies a desk event to the company's figures (if they are loaded) and pushes the new stats. */
    record(event: DeskEvent) {
      const loaded = companies.get(event.companyId);
      if (loaded && settled.has(event.companyId)) {
        loaded
          .then((f) => apply(f, event))
          .then(() => schedule(event.companyId))
          .catch(deps.onError);
        return;
      }
      // Not loaded, or a rebuild still running that may or may not include this event: read it all again.
      companies.delete(event.companyId);
      schedule(event.companyId);
    },
    /** Calls off the pushes that are due. */
    close() {
      pushes.close();
    },
  };
}

export type InstantStatsStore = ReturnType<typeof createInstantStats>;
