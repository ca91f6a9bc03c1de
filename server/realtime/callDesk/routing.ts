import type { CallOffer, CallRouting } from '#contract/callRouting';
import type { QueuedCall } from '#contract/socket';
import { onlineAgents, recordOffers } from '../../domain/callRouting';
import { fullName } from '../../domain/format';
import { agentsRoom, userRoom } from '../rooms';
import { createAnsweredLastHour } from './answeredLastHour';
import { chooseAgent, eligibleThisRound, type RandomSource, type RoutingChoice } from './chooseAgent';
import type { DeskContext } from './context';

export const OFFERED_TO_ANOTHER = 'This call is offered to another agent';

/** A waiting call routed one agent at a time. */
interface Routed {
  companyId: number;
  call: QueuedCall;
  language: string | null;
  offerSeconds: number;
  /** The agent offered the call now, and until when (ms); null: nobody free to offer it to. */
  offer: (CallOffer & { until: number }) | null;
  /** Agents offered the call in this round (they let it lapse, or went away). */
  hadIt: Set<number>;
  /** Whether the company's agents heard of the call (`call.offer`) yet. */
  announced: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** How a waiting call is offered: its company's routing when its customer joined, and the customer's language. */
export interface CallRoute {
  routing: CallRouting;
  offerSeconds: number;
  /** The language the customer gave consent in; null: not known. */
  language: string | null;
}

export interface CallRouter {
  /**
   * Offers a waiting call: with one-at-a-time routing to one agent (`call.incoming` to them alone, `call.offer`
   * to the company's agents); true when it did, false when the company rings every free agent.
   */
  route(companyId: number, call: QueuedCall, how: CallRoute): Promise<boolean>;
  /** Why the agent may not answer the call (offered to someone else), or null. */
  refusal(callId: number, agentId: number): string | null;
  /** The offer of a waiting call now, for the queue (undefined: rung to everyone). */
  offerOf(callId: number): CallOffer | null | undefined;
  /** The call left the queue (answered, missed, closed): no more offers. */
  done(callId: number): void;
  /** An agent answered a call (any routing): it counts in their calls of the last hour. */
  answered(agentId: number, callId: number, at: number): void;
  /** Agents came, went, or got busy or free: offers of the company's calls are looked at again. */
  settle(companyId: number): void;
  close(): void;
}

/**
 * One-at-a-time routing: each routed call is offered to one free agent, chosen by `chooseAgent`, for
 * the company's `offer_seconds`; then it goes to the next. An agent holds one offer at a time. Every change of
 * the company's offers runs one after the other (a chain per company), so two changes never pick at once.
 * One process only: in distributed mode every call rings all free agents (the setting is refused there).
 */
export function createCallRouter(
  ctx: DeskContext,
  engagedAgents: (
    companyId: number,
  ) => Promise<Pick<ReadonlySet<number>, 'has'>> | Pick<ReadonlySet<number>, 'has'>,
  random: RandomSource = Math.random,
): CallRouter {
  const routed = new Map<number, Routed>();
  /** Each company's routed calls, oldest first (kept in order as calls come and go, never sorted again). */
  const lines = new Map<number, Routed[]>();
  const chains = new Map<number, Promise<void>>();
  /** Each company's pass that has not started yet: later requests join it. */
  const pending = new Map<number, Promise<void>>();

  /** Where a call goes in its company's line: after every older call (by created_at, then id). */
  function placeOf(line: readonly Routed[], call: QueuedCall): number {
    let low = 0;
    let high = line.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const other = (line[middle] as Routed).call;
      const older =
        other.created_at < call.created_at ||
        (other.created_at === call.created_at && other.call_id < call.call_id);
      if (older) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function serial(companyId: number, run: () => Promise<void>): Promise<void> {
    const next = (chains.get(companyId) ?? Promise.resolve()).then(run).catch(ctx.onError);
    chains.set(companyId, next);
    void next.then(() => {
      if (chains.get(companyId) === next) chains.delete(companyId);
    });
    return next;
  }

  /**
   * Looks at the company's offers again, after the pass under way. Requests that come while a pass waits to
   * start share it: that pass sees every call and agent that came meanwhile, so a burst of a hundred joins costs
   * two passes, not a hundred one after the other (each join's ring waiting for all the passes before it).
   */
  function settleNow(companyId: number): Promise<void> {
    const waiting = pending.get(companyId);
    if (waiting) return waiting;
    const next = serial(companyId, () => {
      pending.delete(companyId);
      return reoffer(companyId);
    });
    pending.set(companyId, next);
    return next;
  }

  const lastHour = createAnsweredLastHour(ctx.db);

  /** The company's agents who could take a call now: Online, connected, not in a call. */
  async function freeAgents(companyId: number) {
    const sockets = await ctx.hub().in(agentsRoom(companyId)).fetchSockets();
    const connected = [...new Set(sockets.flatMap((s) => (s.data.kind === 'staff' ? [s.data.userId] : [])))];
    const [online, engaged] = await Promise.all([
      onlineAgents(ctx.db, companyId, connected),
      engagedAgents(companyId),
    ]);
    return online.filter((agent) => !engaged.has(agent.id));
  }

  const withOffer = (entry: Routed): QueuedCall => ({
    ...entry.call,
    offer: entry.offer && {
      agent_id: entry.offer.agent_id,
      agent_name: entry.offer.agent_name,
      expires_at: entry.offer.expires_at,
    },
  });

  /**
   * Gives every routed call of the company without a live offer to the next agent, oldest call first. Once no
   * agent is left to offer to, the rest of the line only needs telling when its offer lapsed or it is new: the
   * cost of a join stays that of the agents, not of the thousands waiting.
   */
  async function reoffer(companyId: number): Promise<void> {
    if (ctx.isClosed()) return;
    const line = lines.get(companyId);
    if (!line || line.length === 0) return;
    const free = await freeAgents(companyId);
    const freeIds = new Set(free.map((a) => a.id));
    const now = Date.now();
    const live = (e: Routed) => e.offer !== null && e.offer.until > now && freeIds.has(e.offer.agent_id);
    const holding = new Set(line.filter(live).map((e) => e.offer?.agent_id as number));
    const open = free.filter((a) => !holding.has(a.id));
    const names = new Map(free.map((a) => [a.id, a]));
    const calls =
      open.length > 0
        ? await lastHour.counts(
            companyId,
            open.map((a) => a.id),
            now,
          )
        : new Map<number, number>();
    /** Free agents not holding an offer yet. */
    let left = open.length;
    /** The offers of this pass: recorded in one statement, then rung. */
    const made: { entry: Routed; choice: RoutingChoice }[] = [];
    // A copy: calls may join or leave the line meanwhile.
    for (const entry of [...line]) {
      if (!routed.has(entry.call.call_id) || live(entry)) continue;
      const previous = entry.offer;
      const available = left > 0 ? open.filter((a) => !holding.has(a.id)) : [];
      if (available.length === 0 && previous === null && entry.announced) continue;
      clearTimeout(entry.timer);
      const { eligible, newRound } = eligibleThisRound(available, entry.hadIt);
      if (newRound) entry.hadIt.clear();
      const choice = chooseAgent(
        eligible.map((a) => ({ id: a.id, languages: a.languages, callsLastHour: calls.get(a.id) ?? 0 })),
        entry.language,
        random,
      );
      if (!choice) {
        entry.offer = null;
        if (previous !== null || !entry.announced)
          ctx.hub().to(agentsRoom(companyId)).emit('call.offer', withOffer(entry));
        entry.announced = true;
        continue;
      }
      holding.add(choice.agentId);
      left -= 1;
      entry.hadIt.add(choice.agentId);
      const until = Date.now() + entry.offerSeconds * 1000;
      const name = names.get(choice.agentId);
      entry.offer = {
        agent_id: choice.agentId,
        agent_name: fullName(name?.first ?? '', name?.last ?? ''),
        expires_at: new Date(until).toISOString(),
        until,
      };
      made.push({ entry, choice });
    }
    await recordOffers(
      ctx.db,
      made.map(({ entry, choice }) => ({
        companyId,
        callId: entry.call.call_id,
        agentId: choice.agentId,
        language: entry.language,
        languageMatched: choice.languageMatched,
        candidates: choice.candidates,
        fewestCalls: choice.fewestCalls,
        expiresAt: new Date(entry.offer?.until ?? now),
      })),
    );
    for (const { entry, choice } of made) {
      const offer = entry.offer;
      // Answered or gone while the offers were recorded: `done` has looked at the line again.
      if (!routed.has(entry.call.call_id) || offer?.agent_id !== choice.agentId) continue;
      const call = withOffer(entry);
      entry.announced = true;
      ctx.hub().to(agentsRoom(companyId)).emit('call.offer', call);
      ctx.hub().to(userRoom(choice.agentId)).emit('call.incoming', call);
      entry.timer = setTimeout(() => {
        if (!ctx.isClosed()) void settleNow(companyId);
      }, offer.until - Date.now());
    }
  }

  return {
    async route(companyId, call, how) {
      if (ctx.shared) return false;
      if (how.routing !== 'one_at_a_time') return false;
      if (!routed.has(call.call_id)) {
        const entry: Routed = {
          companyId,
          call: { ...call, offer: null },
          language: how.language,
          offerSeconds: how.offerSeconds,
          offer: null,
          hadIt: new Set(),
          announced: false,
          timer: undefined,
        };
        routed.set(call.call_id, entry);
        const line = lines.get(companyId) ?? [];
        line.splice(placeOf(line, entry.call), 0, entry);
        lines.set(companyId, line);
      }
      await settleNow(companyId);
      return true;
    },

    refusal(callId, agentId) {
      const entry = routed.get(callId);
      if (!entry) return null;
      if (entry.offer?.agent_id === agentId && entry.offer.until > Date.now()) return null;
      return OFFERED_TO_ANOTHER;
    },

    offerOf(callId) {
      const entry = routed.get(callId);
      return entry ? withOffer(entry).offer : undefined;
    },

    done(callId) {
      const entry = routed.get(callId);
      if (!entry) return;
      clearTimeout(entry.timer);
      routed.delete(callId);
      const line = lines.get(entry.companyId) ?? [];
      const at = line.indexOf(entry);
      if (at >= 0) line.splice(at, 1);
      if (line.length === 0) lines.delete(entry.companyId);
      // The agent it was offered to may take another waiting call now.
      if (entry.offer) void settleNow(entry.companyId);
    },

    answered: (agentId, callId, at) => lastHour.answered(agentId, callId, at),

    settle(companyId) {
      if (ctx.isClosed()) return;
      if (!lines.has(companyId)) return;
      void settleNow(companyId);
    },

    close() {
      for (const entry of routed.values()) clearTimeout(entry.timer);
      routed.clear();
      lines.clear();
    },
  };
}
