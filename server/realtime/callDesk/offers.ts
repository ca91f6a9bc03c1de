import { CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import {
  type AgentState,
  type AnsweredCall,
  CUSTOMER_NOT_CONNECTED,
  type QueuedCall,
} from '#contract/socket';
import { fullName } from '../../domain/format';
import { answerCall, answerCallAlone } from '../../domain/videocalls/lifecycle';
import { callAttributes, inSpan } from '../../telemetry/spans';
import { agentStatusOf, agentsRoom, companyRoom, customerRoom, statusOf, userRoom } from '../rooms';
import type { DeskContext, Result } from './context';
import { agentCard, agentSince, type CallRow, callById, talkingAgentsOf, talkingCallOf } from './persistence';
import type { CallQueue } from './queue';
import type { CallRoute, CallRouter } from './routing';

const CALL_ALREADY_ANSWERED = 'Call Already Answered';
const MUST_BE_ONLINE = 'Set your status to Online to answer';
const ALREADY_IN_CALL = 'You are already in a call';

export interface CallOffers {
  /**
   * Offers a waiting call to the company's agents (`call.incoming`): their screens ring; with one-at-a-time
   * routing, one agent's at a time (the router's).
   */
  ring(companyId: number, call: QueuedCall, how: CallRoute): Promise<void>;
  answer(companyId: number, agentId: number, callId: number): Promise<Result<{ call: AnsweredCall }>>;
  /** Frees the call's agent; tells the stats once, with the call's handling time. */
  release(companyId: number, callId: number): Promise<CallRow | undefined>;
  /** The call an agent is in: this process's memory, or (distributed) the database. */
  callOfAgent(userId: number): Promise<number | undefined>;
  /** The call an agent is in on this process, if any. */
  callOf(agentId: number): number | undefined;
  /** The agents of the company in a call (distributed: from the database) for the waiting customers' estimate. */
  engagedAgents(
    companyId: number,
  ): Promise<Pick<ReadonlySet<number>, 'has'>> | Pick<ReadonlySet<number>, 'has'>;
  /** An agent's availability and call as the server holds them. */
  agentState(userId: number): Promise<AgentState>;
  /** Tells the company an agent's availability and call as they are now. */
  publishAgent(companyId: number, userId: number): Promise<void>;
  close(): void;
}

/**
 * Offering waiting calls to agents and settling who takes them: the answers that race each other (one agent's
 * two clicks, two agents, two processes), which agent is in which call, and freeing the agent when it ends.
 */
export function createCallOffers(ctx: DeskContext, queue: CallQueue, router: CallRouter): CallOffers {
  const { db, shared } = ctx;
  /** agent id → call id */
  const busy = new Map<number, number>();
  /** Calls this process saw answered: a late answer is refused without asking the database. */
  const taken = new Set<number>();

  async function callOfAgent(userId: number): Promise<number | undefined> {
    if (!shared) return busy.get(userId);
    return (await talkingCallOf(db, userId)) ?? busy.get(userId);
  }

  /** Agents of the company in a call, from the database (distributed). */
  async function busyAgents(companyId: number): Promise<Set<number>> {
    const talking = await talkingAgentsOf(db, companyId);
    return new Set([...talking, ...busy.keys()]);
  }

  async function agentState(userId: number): Promise<AgentState> {
    return {
      user_id: userId,
      status: await agentStatusOf(db, userId),
      call_id: (shared ? await callOfAgent(userId) : busy.get(userId)) ?? null,
    };
  }

  async function publishAgent(companyId: number, userId: number): Promise<void> {
    ctx
      .hub()
      .to(companyRoom(companyId))
      .emit('agent.status', await agentState(userId));
  }

  /** The handling time of an ended call, in seconds, if it started. */
  const handlingSeconds = (call: CallRow) =>
    call.callStartTime && call.callEndTime
      ? (call.callEndTime.getTime() - call.callStartTime.getTime()) / 1000
      : null;

  async function release(companyId: number, callId: number): Promise<CallRow | undefined> {
    if (shared) return releaseShared(companyId, callId);
    const freed: number[] = [];
    taken.delete(callId);
    for (const [agent, call] of busy) {
      if (call !== callId) continue;
      busy.delete(agent);
      freed.push(agent);
    }
    for (const agent of freed) await publishAgent(companyId, agent);
    const call = await callById(db, callId);
    if (freed.length > 0 && call) {
      const seconds = handlingSeconds(call);
      const since = call.agentId === null ? null : await agentSince(db, call.agentId);
      ctx.emitDesk({ kind: 'ended', companyId, callId, agentId: call.agentId, seconds, since });
      queue.reposition(companyId);
      router.settle(companyId);
    }
    return call;
  }

  /**
   * Distributed: the call's agent may have answered on another process. Once the call is over in the
   * database, the first process to see it (a run-once mark) frees the agent and tells the stats.
   */
  async function releaseShared(companyId: number, callId: number): Promise<CallRow | undefined> {
    taken.delete(callId);
    for (const [agent, call] of busy) if (call === callId) busy.delete(agent);
    const call = await callById(db, callId);
    const over = call && (call.callEndTime !== null || call.status !== CALL_STATUS_TALKING);
    if (!call || !over || call.agentId === null || !shared) return call;
    if (!(await shared.once(`ended:${callId}`))) return call;
    await publishAgent(companyId, call.agentId);
    const seconds = handlingSeconds(call);
    const since = await agentSince(db, call.agentId);
    ctx.emitDesk({ kind: 'ended', companyId, callId, agentId: call.agentId, seconds, since });
    queue.reposition(companyId);
    return call;
  }

  return {
    ring(companyId, call, how) {
      return inSpan(
        'call_desk.ring',
        { attributes: callAttributes(companyId, call.call_id) },
        async (span) => {
          // The answer, on an agent's socket, continues this span's trace.
          ctx.traces.keep(call.call_id, span);
          const routed = await router.route(companyId, call, how);
          span.setAttribute('idv.offer', routed ? 'one_agent' : 'all_agents');
          if (!routed) ctx.hub().to(agentsRoom(companyId)).emit('call.incoming', call);
          ctx.emitDesk({ kind: 'queued', companyId, callId: call.call_id, since: call.created_at });
        },
      );
    },

    async answer(companyId, agentId, callId) {
      /** A refusal the agent's screen should not have offered: it is told the truth again. */
      const refuse = async (detail: string) => {
        ctx
          .hub()
          .to(userRoom(agentId))
          .emit('agent.status', await agentState(agentId));
        return { ok: false as const, detail };
      };
      if (busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      const notOffered = router.refusal(callId, agentId);
      if (notOffered) return { ok: false, detail: notOffered };
      if (taken.has(callId)) return { ok: false, detail: CALL_ALREADY_ANSWERED };
      if (shared ? !(await shared.has(companyId, callId)) : !queue.isPresent(callId)) {
        // Still waiting, but its customer is not connected (not back yet after a drop or a restart): it rings
        // again when they are. Otherwise somebody answered it (on another process) or it is over.
        const call = await callById(db, callId);
        const away = call?.companyId === companyId && call.status === CALL_STATUS_WAITING;
        return { ok: false, detail: away ? CUSTOMER_NOT_CONNECTED : CALL_ALREADY_ANSWERED };
      }
      if (shared && busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      if ((await agentStatusOf(db, agentId)) !== 'Online') return refuse(MUST_BE_ONLINE);
      if (shared && busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      // Claimed before the await below, so one agent's two clicks cannot take two calls.
      busy.set(agentId, callId);
      let call: AnsweredCall | 'agent busy' | null = null;
      try {
        // The database decides among answers that race each other (distributed: also the same agent's
        // answers on two processes, by locking the agent's row).
        call = shared
          ? await answerCallAlone(db, companyId, callId, agentId)
          : await answerCall(db, companyId, callId, agentId);
      } finally {
        if (!call || call === 'agent busy' || shared) busy.delete(agentId);
      }
      if (call === 'agent busy') return refuse(ALREADY_IN_CALL);
      if (!call) return { ok: false, detail: CALL_ALREADY_ANSWERED };
      taken.add(callId);
      router.answered(agentId, callId, Date.now());
      router.done(callId);
      // One read for the customer's, the company's and the stats' news: an answer waits on the database once here.
      const agent = await agentCard(db, agentId);
      ctx
        .hub()
        .to(customerRoom(callId))
        .emit('call.answered', {
          call_id: callId,
          room_id: call.room_id,
          agent_name: fullName(agent?.first ?? '', agent?.last ?? ''),
        });
      ctx.hub().to(agentsRoom(companyId)).emit('call.taken', { call_id: callId, agent_id: agentId });
      // The agent is in this call now (distributed too: the database has it as theirs).
      ctx
        .hub()
        .to(companyRoom(companyId))
        .emit('agent.status', { user_id: agentId, status: statusOf(agent?.status), call_id: callId });
      ctx.emitDesk({
        kind: 'answered',
        companyId,
        callId,
        agentId,
        since: agent?.since?.toISOString() ?? '',
      });
      queue.reposition(companyId);
      return { ok: true, call };
    },

    release,
    callOfAgent,
    callOf: (agentId) => busy.get(agentId),
    engagedAgents: (companyId) => (shared ? busyAgents(companyId) : busy),
    agentState,
    publishAgent,

    close() {
      taken.clear();
    },
  };
}
