import { z } from 'zod';
import type { LiveQuality, QualitySummary } from './callQualityRules';
import { callOfferSchema } from './callRouting';
import type { CallWatcher, WatchEnded, Whisper } from './callWatchers';
import { agentStatusSchema, callStatusCodeSchema, idSchema } from './common';
import type { CallStep, CodeSent, StepKind } from './identProcedure';
import type { MachineCheck } from './machineChecks';
import type { NotificationEvent } from './notifications';
import type { ReviewCaseState } from './review';

/**
 * The socket.io event table shared by the server and the studio (docs/events.md).
 * Connect with `io(server, { path: '/socket.io', auth: { token } })`, the token coming from
 * POST /api/v2/user/socket_token. The server puts each socket in a room of its company and of its user.
 */

/** A waiting call as agents hear of it. It carries no room id: only the agent whose answer won learns it. */
export const queuedCallSchema = z.object({
  call_id: z.number().int(),
  profile: z.number().int(),
  profile_name: z.string().nullable(),
  status: callStatusCodeSchema,
  /** When the customer joined the queue (ISO). */
  created_at: z.string(),
  /**
   * One-at-a-time routing: the one agent the call is offered to now, null while nobody free is left
   * to offer it to. Absent when the company rings every free agent.
   */
  offer: callOfferSchema.nullable().optional(),
});
export type QueuedCall = z.infer<typeof queuedCallSchema>;

export const callTakenSchema = z.object({ call_id: z.number().int(), agent_id: z.number().int() });
export const callCancelledSchema = z.object({ call_id: z.number().int(), reason: z.string() });
/** A call was closed with a status its agent did not set: the reason is a CALL_END_REASONS code. */
export const callClosedSchema = z.object({
  call_id: z.number().int(),
  status: callStatusCodeSchema,
  reason: z.string(),
});
/**
 * An agent's availability and the call they are in, as the server holds them. Only an agent the server holds
 * Online and free (`call_id` null), with a connected socket, is offered calls.
 */
export const agentStatusEventSchema = z.object({
  user_id: z.number().int(),
  status: agentStatusSchema,
  call_id: z.number().int().nullable(),
});
export type AgentState = z.infer<typeof agentStatusEventSchema>;

/** One agent on the status board. */
export const boardAgentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: agentStatusSchema,
  /** When the agent entered this status (ISO); null when not known. */
  since: z.string().nullable(),
  /** The call the agent is in, if any. */
  call_id: z.number().int().nullable(),
});
export type BoardAgent = z.infer<typeof boardAgentSchema>;

/**
 * The waiting customers in three figures: a queue of thousands is not sent as a list to every screen.
 * Waits are given as moments, so screens count them up live.
 */
export const waitingFiguresSchema = z.object({
  count: z.number().int(),
  /** When the customer waiting longest joined (ISO); null when nobody waits. */
  oldest_since: z.string().nullable(),
  /** The mean of the moments the waiting customers joined (ISO): the average wait is now minus it. */
  mean_since: z.string().nullable(),
});
export type WaitingFigures = z.infer<typeof waitingFiguresSchema>;

/**
 * Instant stats of a company (pushed as `stats.update` when they move, at most a few times a second, and to each
 * staff socket on connect).
 */
export const instantStatsSchema = z.object({
  agents: z.array(boardAgentSchema),
  waiting: waitingFiguresSchema,
  talking: z.number().int(),
  answered_today: z.number().int(),
  missed_today: z.number().int(),
  /** Average handling time of today's ended calls, in seconds; null before the first. */
  average_handling_s: z.number().nullable(),
  /** When the server built this snapshot (ISO). */
  at: z.string(),
});
export type InstantStats = z.infer<typeof instantStatsSchema>;

/** Opaque WebRTC signal (offer, answer, candidate) relayed between the sockets of one call room. */
export const signalPayloadSchema = z.record(z.string(), z.unknown());
export const signalJoinSchema = z.object({ room: z.string().min(1).max(100) });
export const signalRelaySchema = z.object({ room: z.string().min(1).max(100), data: signalPayloadSchema });
/** A signal of a watch channel (docs/decisions/0208-supervisors-watch-calls.md). */
/**
 * `watch.join`: the call, and the name of the watcher's page's receiver of its media. The agent's browser keeps a
 * connection that already plays for that receiver instead of offering a new one (a wall that remounts, a socket
 * that reconnects).
 */
export const watchJoinSchema = z.object({
  call_id: idSchema,
  receiver: z.string().min(1).max(64).optional(),
});

export const watchSignalSchema = z.object({
  call_id: idSchema,
  watcher_id: idSchema.optional(),
  data: signalPayloadSchema,
});

/**
 * One STUN or TURN server as RTCPeerConnection takes it. TURN entries carry credentials minted for one side of
 * one call, valid for a limited time (the TURN REST API scheme of coturn's `use-auth-secret`).
 */
export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/**
 * How one side of a call reaches the other: the servers and whether only relayed (TURN) paths are allowed.
 * Given only to that call's agent (with the answer) and customer (when its socket joins the call, and on
 * request with `call.ice`).
 */
export const callIceSchema = z.object({
  iceServers: z.array(iceServerSchema),
  iceTransportPolicy: z.enum(['all', 'relay']),
});
export type CallIce = z.infer<typeof callIceSchema>;

/** The call an agent answered: the room to signal in and the customer's profile. */
export interface AnsweredCall {
  call_id: number;
  profile: number;
  room_id: string;
}

/** Told to the waiting customer whenever the queue moves. */
export interface QueuePosition {
  call_id: number;
  /** 1 = next. */
  position: number;
  /** Seconds, estimated from recent handling times and the agents online. */
  expected_wait_s: number;
}

/** A member of staff who has a profile open (presence). */
export interface ProfileViewer {
  user_id: number;
  name: string;
}

export const profileWatchSchema = z.object({ profile: idSchema });

export interface ProfilePresence {
  profile: number;
  /** Each user once, however many tabs they have open; sorted by name. */
  viewers: ProfileViewer[];
}

/** What a write changed: the profile's status, its details, a check list answer, a note, a document, an alert. */
export type ProfileChangeKind = 'status' | 'details' | 'checklist' | 'note' | 'document' | 'alert';

export interface ProfileChange {
  profile: number;
  what: ProfileChangeKind;
  /** The document written, for `document` and `alert`. */
  document: number | null;
  /** The version the written object (profile, or the document) has now. */
  version: number;
  by: ProfileViewer;
  /** When (ISO). */
  at: string;
}

export type Ack<T extends object = object> = (
  reply: ({ ok: true } & T) | { ok: false; detail: string },
) => void;

export interface ServerToClientEvents {
  /** A customer joined the queue (company room). */
  'call.incoming': (call: QueuedCall) => void;
  /**
   * One-at-a-time routing: the call is offered to another agent now, or to nobody (`offer` null);
   * only the offered agent rings (it also gets `call.incoming`), the others stop (agents of the company).
   */
  'call.offer': (call: QueuedCall) => void;
  /** An agent answered the call; other agents stop ringing (company room). */
  'call.taken': (event: z.infer<typeof callTakenSchema>) => void;
  /** The customer left or the call ended before it was answered (company room). */
  'call.cancelled': (event: z.infer<typeof callCancelledSchema>) => void;
  /**
   * An agent's availability or call changed (company room; also sent to a socket right after it connects, and
   * to the agent alone when an answer is refused, so a stale screen corrects itself).
   */
  'agent.status': (event: z.infer<typeof agentStatusEventSchema>) => void;
  /** The customer's call was answered: create the answering (non-initiator) peer now (customer socket). */
  'call.answered': (event: { call_id: number; room_id: string; agent_name: string }) => void;
  /** The other side hung up (the customer, and the call's agent). */
  'call.ended': (event: { call_id: number; by: 'agent' | 'customer' }) => void;
  /**
   * The call was closed with a status its agent did not set (the agent gone past the grace period, both sides
   * gone, a restart, an admin): to the call's agent; the customer hears `call.ended`.
   */
  'call.closed': (event: z.infer<typeof callClosedSchema>) => void;
  /** The agent shows the customer another step of the guided procedure (customer socket). */
  'call.step': (event: { call_id: number; kind: StepKind }) => void;
  /** The agent sent the second-channel code: type it now (customer socket). */
  'call.code_sent': (event: { call_id: number } & CodeSent) => void;
  /** The customer's entry recorded a step result (a code, a serial number): to the call's agent. */
  'call.step_recorded': (event: { call_id: number; step: CallStep }) => void;
  /** A machine check of the call's screenshots ended (face match, MRZ): a hint, to the call's agent. */
  'call.check_done': (event: { call_id: number; check: MachineCheck }) => void;
  /**
   * The customer's page sent quality samples: its last one and the summary of all so far, to the call's agent.
   */
  'call.customer_quality': (event: { call_id: number } & LiveQuality) => void;
  /**
   * The customer's STUN/TURN servers and transport policy for its call (that customer's socket only, as soon as
   * it joined its call, again on every reconnect).
   */
  'call.ice': (event: { call_id: number; ice: CallIce }) => void;
  /** The waiting customer's place in the queue (customer socket). */
  'queue.position': (event: QueuePosition) => void;
  /** Instant stats moved (company room). */
  'stats.update': (stats: InstantStats) => void;
  /** A WebRTC signal from another member of a call room. */
  'signal.message': (event: { room: string; from: string; data: Record<string, unknown> }) => void;
  /** Another socket joined a call room this socket is in. */
  'signal.peer_joined': (event: { room: string; peer: string }) => void;
  /** Another socket left a call room this socket is in. */
  'signal.peer_left': (event: { room: string; peer: string }) => void;
  /** Who has a profile open right now (profile room; after every watch, unwatch and disconnect). */
  'profile.presence': (event: ProfilePresence) => void;
  /** A profile or one of its documents was written (profile room): refresh it. */
  'profile.changed': (event: ProfileChange) => void;
  /** Someone mentioned you in a note (your user's room only). */
  'notification.new': (event: NotificationEvent) => void;
  /** Your unread count changed (read in another tab): your user's room only. */
  'notification.unread': (event: { unread: number }) => void;
  /**
   * A review case was opened, taken, assigned, unassigned, moved, decided or set waiting: to the staff
   * of the company with `review_profiles` only.
   */
  'review.case_changed': (event: ReviewCaseChanged) => void;
  /**
   * Who watches the call now (docs/decisions/0208-supervisors-watch-calls.md): to the call's agent and its
   * watchers, after every start and end of a watch; never to the customer.
   */
  'call.watchers': (event: { call_id: number; watchers: CallWatcher[] }) => void;
  /** A watcher whispered: to the call's agent and its watchers, never to the customer. */
  'call.whisper': (event: Whisper) => void;
  /** A watcher's socket joined its watch channel: the agent's browser offers it the call's media now. */
  'watch.ready': (event: { call_id: number; watcher_id: number; receiver?: string }) => void;
  /** A WebRTC signal of a watch channel (agent to one watcher, or a watcher to the agent). */
  'watch.signal': (event: { call_id: number; watcher_id: number; data: Record<string, unknown> }) => void;
  /** The watched call ended, or the watch was ended (to the watcher's sockets of that call). */
  'watch.ended': (event: WatchEnded) => void;
  /**
   * A step of a watched call was passed, failed or skipped: to its watchers (never the customer). Without the
   * step's details (what the customer typed), which stay behind `view_calls_page`.
   */
  'watch.step': (event: {
    call_id: number;
    step: Pick<CallStep, 'id' | 'kind' | 'result' | 'offset_ms' | 'created_at'>;
  }) => void;
  /** A quality reading of a watched call arrived: both sides' summaries so far, to its watchers. */
  'watch.quality': (event: {
    call_id: number;
    agent: QualitySummary | null;
    customer: QualitySummary | null;
  }) => void;
}

/** What a reviewer's socket hears of a case change: enough to know the lists it shows may be stale. */
export interface ReviewCaseChanged {
  id: number;
  state: ReviewCaseState;
  assignee: number | null;
}

/** The refusal of `call.answer` for a waiting call whose customer is not connected right now (docs/decisions/0175-answer-refused-customer-not-connected.md). */
export const CUSTOMER_NOT_CONNECTED = 'Customer Not Connected';

export interface ClientToServerEvents {
  /** The calls waiting now, oldest first (staff): the studio re-syncs its queue with it after a reconnect. */
  'queue.sync': (ack: Ack<{ calls: QueuedCall[] }>) => void;
  /**
   * Answer a waiting call; exactly one agent gets it, the others get `Call Already Answered`. The winner learns
   * the call's room here, and only here. A call still waiting whose customer is not connected (a dropped
   * connection, a server that restarted) is refused with `CUSTOMER_NOT_CONNECTED`; it rings again once the
   * customer is back (`call.incoming`).
   */
  'call.answer': (payload: { call_id: number }, ack: Ack<{ call: AnsweredCall; ice: CallIce }>) => void;
  /**
   * Fresh STUN/TURN credentials for a call (a reconnect, a new peer): only the call's agent while it talks, or
   * its customer.
   */
  'call.ice': (payload: { call_id: number }, ack: Ack<{ ice: CallIce }>) => void;
  /** Hang up (agent or customer); the other side gets `call.ended`. */
  'call.hangup': (payload: { call_id: number }, ack: Ack) => void;
  /**
   * Join a call room; wait for the acknowledgement before sending signals (browser-tests note 2). Only the
   * call's agent (while the call talks) may; the customer's socket is in its call's room from the start.
   */
  'signal.join': (payload: z.infer<typeof signalJoinSchema>, ack: Ack<{ peers: string[] }>) => void;
  'signal.leave': (payload: z.infer<typeof signalJoinSchema>, ack: Ack) => void;
  /** Relay a signal to the other members of a room this socket has joined. */
  'signal.send': (payload: z.infer<typeof signalRelaySchema>, ack: Ack) => void;
  /** Open a profile (staff with view_profiles_page, own company): join its room; answers who has it open. */
  'profile.watch': (payload: { profile: number }, ack: Ack<{ viewers: ProfileViewer[] }>) => void;
  /** Close a profile: leave its room (the others get `profile.presence`). */
  'profile.unwatch': (payload: { profile: number }, ack: Ack) => void;
  /**
   * A watcher's socket joins the watch channel of a call it holds a grant for (POST /videocall/{id}/watch):
   * the agent hears `watch.ready`. Refused without the grant, `monitor_calls`, or once the call stopped talking.
   */
  'watch.join': (payload: z.infer<typeof watchJoinSchema>, ack: Ack<{ watchers: CallWatcher[] }>) => void;
  /**
   * A signal of a watch channel: the call's agent names the watcher (`watcher_id`); a watcher's signal goes to
   * the call's agent only. Nobody else may send one, and it never reaches the customer.
   */
  'watch.signal': (payload: z.infer<typeof watchSignalSchema>, ack: Ack) => void;
}

/** Data the server keeps on each socket: a staff member, or the customer of one call. */
export type SocketData =
  /**
   * `takesCalls`: the user may take calls (mayTakeCalls) as of the connection; `reviews`: the user reviews
   * profiles (`review_profiles`, not an API user), as of the connection.
   */
  | { kind: 'staff'; userId: number; companyId: number; takesCalls: boolean; reviews: boolean }
  | { kind: 'customer'; profileId: number; companyId: number; callId: number };
