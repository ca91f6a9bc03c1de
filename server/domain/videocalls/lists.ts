/** The calls as the API lists and shows them, and the status codes with their labels. */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { CALL_STATUSES, type CallStatusName } from '#contract/common';
import type { VideoCall, VideoCallListQuery } from '#contract/videocalls';
import type { DbOrTx } from '../../db/client';
import { users, videoCalls } from '../../db/schema';
import { notFound } from '../../errors';
import type { Storage } from '../../storage/storage';
import { countList, DEFAULT_COUNT_CAP, type ListCount } from '../counting';
import { fullName, iso } from '../format';
import { type KeysetLinks, type KeysetOrdering, keyTextOf, readKeysetPage } from '../keyset';

/** Turkish labels of the call status codes (the en-US labels are the status names in title case). */
const TR_LABELS: Record<CallStatusName, string> = {
  WAITING: 'Bekliyor',
  TALKING: 'Görüşmede',
  MISSED: 'Cevapsız',
  COMPLETE: 'Tamamlandı',
  INCOMPLETE: 'Tamamlanmadı',
  ESCALATED: 'Üst birime aktarıldı',
  'BAD QUALITY': 'Kötü kalite',
  'CONNECTION ERROR': 'Bağlantı hatası',
  DISCONNECTED: 'Bağlantı kesildi',
  SUSPICIOUS: 'Şüpheli',
};

const titleCase = (name: string) => name.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());

export function callStatusList() {
  return CALL_STATUSES.map((name, code) => ({
    code,
    name,
    labels: { 'en-US': titleCase(name), tr: TR_LABELS[name] },
  }));
}

const withAgent = (db: DbOrTx) =>
  db
    .select({ call: videoCalls, first: users.firstName, last: users.lastName })
    .from(videoCalls)
    .leftJoin(users, eq(users.id, videoCalls.agentId));
type CallWithAgent = Awaited<ReturnType<ReturnType<typeof withAgent>['execute']>>[number];

function toVideoCall(storage: Storage, { call, first, last }: CallWithAgent): VideoCall {
  return {
    id: call.id,
    profile: call.profileId,
    agent: call.agentId !== null ? { id: call.agentId, name: fullName(first ?? '', last ?? '') } : null,
    room_id: call.roomId,
    status: call.status,
    status_name: CALL_STATUSES[call.status] ?? 'WAITING',
    call_start_time: iso(call.callStartTime),
    call_end_time: iso(call.callEndTime),
    recorded_file: call.recordingKey ? storage.signedUrl(call.recordingKey) : null,
    end_reason: call.endReason,
    outcome_reason: call.outcomeReason,
    recording_sha256: call.recordingKey ? call.recordingSha256 : null,
    created_at: iso(call.createdAt),
  };
}

/**
 * The calls list's one ordering, newest first, read by keyset so a page far down costs what the first one does
 * (docs/decisions/0164-keyset-lists.md).
 */
const CALL_ORDERING: KeysetOrdering = {
  name: '-created_at',
  key: { expr: videoCalls.createdAt, kind: 'timestamp' },
  id: videoCalls.id,
  descending: true,
};

export async function listVideoCalls(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  query: VideoCallListQuery,
  countCap = DEFAULT_COUNT_CAP,
): Promise<ListCount & { links: KeysetLinks; results: VideoCall[] }> {
  const filters: SQL[] = [eq(videoCalls.companyId, companyId)];
  if (query.profile !== undefined) filters.push(eq(videoCalls.profileId, query.profile));
  if (query.status !== undefined) filters.push(eq(videoCalls.status, query.status));
  const where = and(...filters);
  const [total, page] = await Promise.all([
    countList(db, db.select({ one: sql`1` }).from(videoCalls).where(where), countCap),
    readKeysetPage(
      CALL_ORDERING,
      query,
      (place, orderBy, limit) =>
        db
          .select({
            call: videoCalls,
            first: users.firstName,
            last: users.lastName,
            position: keyTextOf(CALL_ORDERING),
          })
          .from(videoCalls)
          .leftJoin(users, eq(users.id, videoCalls.agentId))
          .where(place ? and(where, place) : where)
          .orderBy(...orderBy)
          .limit(limit),
      (row) => ({ key: row.position, id: row.call.id }),
      { db, where },
    ),
  ]);
  return { ...total, links: page.links, results: page.rows.map((row) => toVideoCall(storage, row)) };
}

/** One call of the company as the API shows it, or 404. */
export async function oneVideoCall(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
): Promise<VideoCall> {
  const [row] = await withAgent(db).where(
    and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)),
  );
  if (!row) throw notFound();
  return toVideoCall(storage, row);
}
