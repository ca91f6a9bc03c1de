import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { CALL_STATUSES, type CallStatusName } from '../../src/contract/common';
import type { VideoCall } from '../../src/contract/videocalls';
import type { DbOrTx } from '../db/client';
import { users, videoCallQuestions, videoCalls } from '../db/schema';
import { notFound } from '../errors';
import type { Storage } from '../storage/storage';
import { fullName, iso } from './format';

/** Turkish labels of the call status codes (en-US labels are the §4 names in title case). */
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

export async function listVideoCalls(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  query: { profile?: number | undefined; status?: number | undefined; limit: number; offset: number },
): Promise<{ count: number; results: VideoCall[] }> {
  const filters: SQL[] = [eq(videoCalls.companyId, companyId)];
  if (query.profile !== undefined) filters.push(eq(videoCalls.profileId, query.profile));
  if (query.status !== undefined) filters.push(eq(videoCalls.status, query.status));
  const where = and(...filters);
  const [total, rows] = await Promise.all([
    db.select({ value: count() }).from(videoCalls).where(where),
    db
      .select({ call: videoCalls, first: users.firstName, last: users.lastName })
      .from(videoCalls)
      .leftJoin(users, eq(users.id, videoCalls.agentId))
      .where(where)
      .orderBy(desc(videoCalls.createdAt), desc(videoCalls.id))
      .limit(query.limit)
      .offset(query.offset),
  ]);
  return {
    count: total[0]?.value ?? 0,
    results: rows.map(({ call, first, last }) => ({
      id: call.id,
      profile: call.profileId,
      agent: call.agentId !== null ? { id: call.agentId, name: fullName(first ?? '', last ?? '') } : null,
      room_id: call.roomId,
      status: call.status,
      status_name: CALL_STATUSES[call.status] ?? 'WAITING',
      call_start_time: iso(call.callStartTime),
      call_end_time: iso(call.callEndTime),
      recorded_file: call.recordingKey ? storage.signedUrl(call.recordingKey) : null,
      created_at: iso(call.createdAt),
    })),
  };
}

/** The company's call questions in one language; the call must be the company's. */
export async function callQuestions(db: DbOrTx, companyId: number, callId: number, lang: 'EN' | 'TR') {
  const [call] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)));
  if (!call) throw notFound();
  const rows = await db
    .select()
    .from(videoCallQuestions)
    .where(eq(videoCallQuestions.companyId, companyId))
    .orderBy(asc(videoCallQuestions.sortOrder));
  return rows.map((q) => ({
    id: q.id,
    question: lang === 'TR' ? q.textTr : q.textEn,
    sort_order: q.sortOrder,
  }));
}
