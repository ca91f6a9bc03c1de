/**
 * Supervisors watching live calls (docs/decisions/0208-supervisors-watch-calls.md). A watch is the server's
 * decision, made here and nowhere else: the watcher may monitor calls, the call is the company's and talking,
 * and the watcher is not its agent. A watch is a row from its start to its end, so every process (and the
 * evidence package) knows who watches and who watched; starts, stops and whispers are audited.
 */
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  type CallWatcher,
  type CallWatchSettings,
  MAX_WATCHED_CALLS,
  WATCH_NOT_TALKING,
  WATCH_NOT_WATCHING,
  WATCH_OWN_CALL,
  WATCH_TOO_MANY,
  type WatchEndReason,
  type Whisper,
} from '#contract/callWatch';
import { CALL_STATUS_TALKING, mayMonitorCalls } from '#contract/constants';
import type { DbOrTx } from '../db/client';
import {
  companies,
  profiles,
  users,
  type videoCalls,
  videoCallWatches,
  videoCallWhispers,
} from '../db/schema';
import { conflict, forbidden, notFound } from '../errors';
import { recordAudit, recordAudits } from './audit';
import { fullName, iso } from './format';
import type { Principal } from './principal';
import { requireCall } from './videocalls/calls';

type WatchRow = typeof videoCallWatches.$inferSelect;
type CallRow = typeof videoCalls.$inferSelect;

/** 403 for anyone who may not watch calls (the permission, and never an API user or a Restricted User). */
export function assertMayWatch(principal: Pick<Principal, 'role' | 'permissions' | 'isApiUser'>): void {
  if (!mayMonitorCalls(principal)) throw forbidden();
}

export const toWatcher = (row: WatchRow): CallWatcher => ({
  id: row.id,
  user_id: row.watcherId,
  name: row.watcherName,
  started_at: iso(row.startedAt),
  ended_at: iso(row.endedAt),
  end_reason: (row.endReason as WatchEndReason | null) ?? null,
});

const toWhisper = (row: typeof videoCallWhispers.$inferSelect): Whisper => ({
  id: row.id,
  call_id: row.callId,
  author: { id: row.authorId, name: row.authorName },
  text: row.text,
  created_at: iso(row.createdAt),
});

async function userName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return '';
  return fullName(row.first, row.last) || row.email;
}

/** The company's call in progress, or 404 (another company's, none) or 409 (not talking, or hung up). */
export async function talkingCall(db: DbOrTx, companyId: number, callId: number): Promise<CallRow> {
  const call = await requireCall(db, companyId, callId);
  if (call.status !== CALL_STATUS_TALKING || call.callEndTime !== null) throw conflict(WATCH_NOT_TALKING);
  return call;
}

const openWatch = (callId: number, watcherId: number) =>
  and(
    eq(videoCallWatches.callId, callId),
    eq(videoCallWatches.watcherId, watcherId),
    isNull(videoCallWatches.endedAt),
  );

/** The watcher's open watch of the call, if any. */
export async function openWatchOf(db: DbOrTx, callId: number, watcherId: number): Promise<WatchRow | null> {
  const [row] = await db.select().from(videoCallWatches).where(openWatch(callId, watcherId));
  return row ?? null;
}

/** Everyone who watched the call, in the order they started; `open` only those watching now. */
export async function callWatchers(db: DbOrTx, callId: number, open = false): Promise<CallWatcher[]> {
  const rows = await db
    .select()
    .from(videoCallWatches)
    .where(
      open
        ? and(eq(videoCallWatches.callId, callId), isNull(videoCallWatches.endedAt))
        : eq(videoCallWatches.callId, callId),
    )
    .orderBy(asc(videoCallWatches.id));
  return rows.map(toWatcher);
}

export interface StartedWatch {
  call: CallRow;
  watch: WatchRow;
  /** False when the watcher already watched (a reload takes up the open watch). */
  created: boolean;
}

/**
 * Starts (or takes up) the principal's watch of a call: the one decision of who may watch. At most
 * MAX_WATCHED_CALLS calls at once per watcher.
 */
export async function startWatch(db: DbOrTx, principal: Principal, callId: number): Promise<StartedWatch> {
  assertMayWatch(principal);
  return db.transaction(async (tx) => {
    const call = await talkingCall(tx, principal.companyId, callId);
    if (call.agentId === principal.id) throw conflict(WATCH_OWN_CALL);
    const held = await openWatchOf(tx, callId, principal.id);
    if (held) return { call, watch: held, created: false };
    const [others] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(videoCallWatches)
      .where(
        and(
          eq(videoCallWatches.watcherId, principal.id),
          isNull(videoCallWatches.endedAt),
          ne(videoCallWatches.callId, callId),
        ),
      );
    if ((others?.n ?? 0) >= MAX_WATCHED_CALLS) throw conflict(WATCH_TOO_MANY);
    // Two starts at once (two tabs): the unique open watch lets one in, and the other takes it up.
    const [inserted] = await tx
      .insert(videoCallWatches)
      .values({
        companyId: principal.companyId,
        callId,
        watcherId: principal.id,
        watcherName: await userName(tx, principal.id),
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      const now = await openWatchOf(tx, callId, principal.id);
      if (!now) throw conflict(WATCH_NOT_TALKING);
      return { call, watch: now, created: false };
    }
    await recordAudit(tx, {
      companyId: principal.companyId,
      actorId: principal.id,
      object: 'videocall',
      objectId: callId,
      action: 'call_watch_started',
      after: { watcher: principal.id, watch: inserted.id },
    });
    return { call, watch: inserted, created: true };
  });
}

/**
 * Ends watches of a call: one watcher's (`watcherId`) or all of them, with a reason, each audited with its
 * watcher as the actor. Returns the watches it ended.
 */
export async function endWatches(
  db: DbOrTx,
  companyId: number,
  callId: number,
  reason: WatchEndReason,
  watcherId?: number,
): Promise<WatchRow[]> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(videoCallWatches)
      .set({ endedAt: new Date(), endReason: reason })
      .where(
        and(
          eq(videoCallWatches.companyId, companyId),
          watcherId === undefined
            ? and(eq(videoCallWatches.callId, callId), isNull(videoCallWatches.endedAt))
            : openWatch(callId, watcherId),
        ),
      )
      .returning();
    await recordAudits(
      tx,
      ended.map((watch) => ({
        companyId,
        actorId: watch.watcherId,
        object: 'videocall' as const,
        objectId: callId,
        action: 'call_watch_stopped' as const,
        after: { watcher: watch.watcherId, watch: watch.id, reason },
      })),
    );
    return ended;
  });
}

/** The principal stops watching the call (404 for another company's call; nothing to stop is fine). */
export async function stopWatch(db: DbOrTx, principal: Principal, callId: number): Promise<WatchRow[]> {
  assertMayWatch(principal);
  await requireCall(db, principal.companyId, callId);
  return endWatches(db, principal.companyId, callId, 'stopped', principal.id);
}

/** The calls the user watches now, in the order the watches started. */
async function openWatchesBy(db: DbOrTx, userId: number) {
  return db
    .select({ callId: videoCallWatches.callId, startedAt: videoCallWatches.startedAt })
    .from(videoCallWatches)
    .where(and(eq(videoCallWatches.watcherId, userId), isNull(videoCallWatches.endedAt)))
    .orderBy(asc(videoCallWatches.id));
}

export const callsWatchedBy = async (db: DbOrTx, userId: number) =>
  (await openWatchesBy(db, userId)).map((row) => row.callId);

/** The calls the principal watches now: the wall after a reload. */
export async function watchedCalls(db: DbOrTx, principal: Principal) {
  assertMayWatch(principal);
  const rows = await openWatchesBy(db, principal.id);
  return rows.map((row) => ({ call_id: row.callId, started_at: iso(row.startedAt) }));
}

/**
 * A whisper to the call's agent: only from a supervisor watching the call now, while it talks; kept with the
 * call and audited.
 */
export async function addWhisper(
  db: DbOrTx,
  principal: Principal,
  callId: number,
  text: string,
): Promise<Whisper> {
  assertMayWatch(principal);
  return db.transaction(async (tx) => {
    await talkingCall(tx, principal.companyId, callId);
    const watch = await openWatchOf(tx, callId, principal.id);
    if (!watch) throw conflict(WATCH_NOT_WATCHING);
    const [row] = await tx
      .insert(videoCallWhispers)
      .values({ callId, authorId: principal.id, authorName: watch.watcherName, text })
      .returning();
    if (!row) throw new Error('whisper not stored');
    await recordAudit(tx, {
      companyId: principal.companyId,
      actorId: principal.id,
      object: 'videocall',
      objectId: callId,
      action: 'call_whisper_sent',
      after: { whisper: row.id, text },
    });
    return toWhisper(row);
  });
}

/** The call's whispers, oldest first (404 for another company's call). */
export async function callWhispers(db: DbOrTx, companyId: number, callId: number): Promise<Whisper[]> {
  await requireCall(db, companyId, callId);
  const rows = await db
    .select()
    .from(videoCallWhispers)
    .where(eq(videoCallWhispers.callId, callId))
    .orderBy(asc(videoCallWhispers.id));
  return rows.map(toWhisper);
}

/** What a watcher is told of the call it watches (the grant without its ICE). */
export async function watchedCallFacts(db: DbOrTx, call: CallRow) {
  const [profile] = await db
    .select({ name: profiles.name })
    .from(profiles)
    .where(eq(profiles.id, call.profileId));
  return {
    call_id: call.id,
    profile: call.profileId,
    profile_name: profile?.name ?? null,
    agent: call.agentId ? { id: call.agentId, name: await userName(db, call.agentId) } : null,
    call_start_time: iso(call.callStartTime),
  };
}

export async function getCallWatchSettings(db: DbOrTx, companyId: number): Promise<CallWatchSettings> {
  const [row] = await db
    .select({ notice: companies.callWatchNotice })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return { customer_notice: row.notice };
}

/** Sets whether customers are told a supervisor may join, audited. */
export async function setCallWatchSettings(
  db: DbOrTx,
  companyId: number,
  actorId: number,
  body: CallWatchSettings,
): Promise<CallWatchSettings> {
  return db.transaction(async (tx) => {
    const before = await getCallWatchSettings(tx, companyId);
    if (before.customer_notice === body.customer_notice) return before;
    await tx
      .update(companies)
      .set({ callWatchNotice: body.customer_notice })
      .where(eq(companies.id, companyId));
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'company',
      objectId: companyId,
      action: 'call_watch_changed',
      before,
      after: body,
    });
    return body;
  });
}
