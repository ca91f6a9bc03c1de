import type { Server } from 'socket.io';
import type { AgentStatus } from '#contract/common';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '#contract/socket';
import type { DbOrTx } from '../../db/client';
import type { SharedDesk } from '../shared';
import type { CallTraces } from './traces';

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export type Result<T extends object = object> = ({ ok: true } & T) | { ok: false; detail: string };

/** What the desk tells the world about; the instant stats listen here. */
export type DeskEvent =
  | { kind: 'queued'; companyId: number; callId: number; since: string }
  | { kind: 'answered'; companyId: number; callId: number; agentId: number; since: string }
  | { kind: 'missed'; companyId: number; callId: number }
  /** A waiting call closed by an admin (not missed: it leaves the queue only). */
  | { kind: 'closed'; companyId: number; callId: number }
  | {
      kind: 'ended';
      companyId: number;
      callId: number;
      agentId: number | null;
      seconds: number | null;
      /** When the agent became free (their "time in state" restarts), if known. */
      since: string | null;
    }
  | { kind: 'agent'; companyId: number; userId: number; status: AgentStatus; since: string };

/** What the parts of the desk (queue, offers, availability) share; made by createCallDesk. */
export interface DeskContext {
  db: DbOrTx;
  /** Distributed mode's shared presence (REDIS_URL); unset: one process. */
  shared: SharedDesk | undefined;
  /** The socket server the desk is bound to. */
  hub(): HubServer;
  emitDesk(event: DeskEvent): void;
  onError(error: unknown): void;
  /** Closed with its process: no new timer starts. */
  isClosed(): boolean;
  /** Each waiting call's trace, continued by its answer. */
  traces: CallTraces;
}
