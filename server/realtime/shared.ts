import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

/**
 * What the call desk shares with the other server processes in distributed mode (REDIS_URL,
 * docs/decisions/0051-call-desk-state-in-redis.md): which waiting calls have their customer connected (on any
 * process), which process looks after each of them (its grace timer), which processes are alive, and run-once
 * marks. PostgreSQL stays the arbiter of every call's state and of answers; this holds only presence, which
 * no database row records.
 *
 * Keys: `idv:desk:present:<company>` (hash call id → owning process), `idv:desk:alive:<process>` (a lease
 * refreshed while the process runs), `idv:desk:once:<what>` (set once, expires after a day),
 * `idv:desk:processes` (the processes seen, to notice one that died).
 */
export interface SharedDesk {
  /** This process's id (unique per start). */
  readonly processId: string;
  /** Marks the call present, owned by this process; true when it was not present before (anywhere). */
  add(companyId: number, callId: number): Promise<boolean>;
  remove(companyId: number, callId: number): Promise<void>;
  has(companyId: number, callId: number): Promise<boolean>;
  /** The company's present calls. */
  of(companyId: number): Promise<Set<number>>;
  /** Whether the call's owner is a live process other than this one. */
  ownedElsewhere(companyId: number, callId: number): Promise<boolean>;
  /**
   * Present calls whose owning process is no longer alive, now owned by this process (the caller starts their
   * grace timers). `deadProcesses` are those seen dead for the first time by anyone (for once-only work).
   */
  adoptOrphans(): Promise<{ calls: { companyId: number; callId: number }[]; deadProcesses: string[] }>;
  /** True for the first caller only, across every process (for a day). */
  once(what: string): Promise<boolean>;
  /** Refreshes this process's lease; called on a timer by the desk. */
  heartbeat(): Promise<void>;
  /** Drops this process's lease at once (a graceful stop): the others adopt its calls without waiting. */
  leave(): Promise<void>;
}

const PREFIX = 'idv:desk:';
const presentKey = (companyId: number) => `${PREFIX}present:${companyId}`;
const aliveKey = (processId: string) => `${PREFIX}alive:${processId}`;
const PROCESSES = `${PREFIX}processes`;
/** A process not heard of for this long is dead. */
export const LEASE_MS = 6_000;

export function createSharedDesk(redis: Redis): SharedDesk {
  const processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  async function companiesWithPresence(): Promise<number[]> {
    const found: number[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}present:*`, 'COUNT', 200);
      cursor = next;
      for (const key of keys) {
        const id = Number(key.slice(`${PREFIX}present:`.length));
        if (Number.isInteger(id)) found.push(id);
      }
    } while (cursor !== '0');
    return found;
  }

  return {
    processId,
    async add(companyId, callId) {
      return (await redis.hset(presentKey(companyId), String(callId), processId)) === 1;
    },
    async remove(companyId, callId) {
      await redis.hdel(presentKey(companyId), String(callId));
    },
    async has(companyId, callId) {
      return (await redis.hexists(presentKey(companyId), String(callId))) === 1;
    },
    async of(companyId) {
      return new Set((await redis.hkeys(presentKey(companyId))).map(Number));
    },
    async ownedElsewhere(companyId, callId) {
      const owner = await redis.hget(presentKey(companyId), String(callId));
      if (!owner || owner === processId) return false;
      return (await redis.exists(aliveKey(owner))) === 1;
    },
    async adoptOrphans() {
      const calls: { companyId: number; callId: number }[] = [];
      const dead = new Set<string>();
      const alive = new Map<string, boolean>();
      for (const companyId of await companiesWithPresence()) {
        const entries = await redis.hgetall(presentKey(companyId));
        for (const [field, owner] of Object.entries(entries)) {
          if (owner === processId) continue;
          let live = alive.get(owner);
          if (live === undefined) {
            live = (await redis.exists(aliveKey(owner))) === 1;
            alive.set(owner, live);
          }
          if (live) continue;
          // Taken over only if nobody (another process adopting, the customer re-joining) changed it meanwhile.
          const taken = await redis.eval(
            "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('hset', KEYS[1], ARGV[1], ARGV[3]) return 1 end return 0",
            1,
            presentKey(companyId),
            field,
            owner,
            processId,
          );
          if (taken === 1) calls.push({ companyId, callId: Number(field) });
          dead.add(owner);
        }
      }
      // Processes that held no call die too: their agents' sockets are gone as well.
      for (const member of await redis.smembers(PROCESSES)) {
        if (member === processId) continue;
        if (alive.get(member) ?? (await redis.exists(aliveKey(member))) === 1) continue;
        dead.add(member);
      }
      const deadProcesses: string[] = [];
      for (const owner of dead) {
        await redis.srem(PROCESSES, owner);
        if (await this.once(`dead:${owner}`)) deadProcesses.push(owner);
      }
      return { calls, deadProcesses };
    },
    async once(what) {
      return (await redis.set(`${PREFIX}once:${what}`, processId, 'EX', 86_400, 'NX')) === 'OK';
    },
    async heartbeat() {
      await redis.set(aliveKey(processId), String(Date.now()), 'PX', LEASE_MS);
      await redis.sadd(PROCESSES, processId);
    },
    async leave() {
      await redis.del(aliveKey(processId));
      await redis.srem(PROCESSES, processId);
    },
  };
}
