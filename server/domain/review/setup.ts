/**
 * A company's desk is made on first use: its four-eyes rules row (all off), the default queues and
 * reason codes. Every company gets them the same way, the demo's and those that sign up later.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { ReasonDecision, ReviewCaseKind } from '#contract/review';
import { HOUR_MS } from '#contract/time';
import type { DbOrTx } from '../../db/client';
import { reviewQueues, reviewReasonCodes, reviewRules } from '../../db/schema';

export const DEFAULT_QUEUES = [
  { name: 'Identity', slaHours: 24, senior: false },
  { name: 'AML', slaHours: 48, senior: false },
  { name: 'Escalations', slaHours: 72, senior: true },
] as const;

/** The default queue of each kind of case (by name; the first non-senior queue when it is gone). */
const QUEUE_OF_KIND: Record<ReviewCaseKind, string> = {
  pending_review: 'Identity',
  video_identification: 'Identity',
  document_review: 'Identity',
  aml_hit: 'AML',
};

export const DEFAULT_REASON_CODES: {
  decision: ReasonDecision;
  code: string;
  labelEn: string;
  labelTr: string;
  noteRequired?: boolean;
}[] = [
  {
    decision: 'reject',
    code: 'document_forged',
    labelEn: 'Document looks forged',
    labelTr: 'Belge sahte görünüyor',
  },
  {
    decision: 'reject',
    code: 'face_mismatch',
    labelEn: 'Face does not match the document',
    labelTr: 'Yüz belgeyle eşleşmiyor',
  },
  {
    decision: 'reject',
    code: 'sanctions_match',
    labelEn: 'Confirmed sanctions or watchlist match',
    labelTr: 'Doğrulanmış yaptırım veya izleme listesi eşleşmesi',
  },
  {
    decision: 'reject',
    code: 'other',
    labelEn: 'Other (explain in the note)',
    labelTr: 'Diğer (notta açıklayın)',
    noteRequired: true,
  },
  {
    decision: 'resubmit',
    code: 'document_unreadable',
    labelEn: 'Document unreadable',
    labelTr: 'Belge okunamıyor',
  },
  {
    decision: 'resubmit',
    code: 'document_expired',
    labelEn: 'Document expired',
    labelTr: 'Belgenin süresi dolmuş',
  },
  {
    decision: 'resubmit',
    code: 'selfie_quality',
    labelEn: 'Selfie of poor quality',
    labelTr: 'Özçekim kalitesi düşük',
  },
  {
    decision: 'escalate',
    code: 'possible_fraud',
    labelEn: 'Possible fraud',
    labelTr: 'Olası dolandırıcılık',
  },
  {
    decision: 'escalate',
    code: 'pep_or_sanctions',
    labelEn: 'PEP or sanctions question',
    labelTr: 'PEP veya yaptırım sorusu',
  },
  { decision: 'escalate', code: 'policy_question', labelEn: 'Policy question', labelTr: 'Politika sorusu' },
  { decision: 'abort', code: 'duplicate', labelEn: 'Duplicate case', labelTr: 'Mükerrer vaka' },
  { decision: 'abort', code: 'customer_withdrew', labelEn: 'Customer withdrew', labelTr: 'Müşteri vazgeçti' },
];

/** Makes the company's rules row, default queues and reason codes once (a no-op afterwards). */
export async function ensureReviewSetup(db: DbOrTx, companyId: number): Promise<void> {
  const [known] = await db
    .select({ companyId: reviewRules.companyId })
    .from(reviewRules)
    .where(eq(reviewRules.companyId, companyId));
  if (known) return;
  const made = await db
    .insert(reviewRules)
    .values({ companyId })
    .onConflictDoNothing()
    .returning({ companyId: reviewRules.companyId });
  if (made.length === 0) return;
  await db
    .insert(reviewQueues)
    .values(DEFAULT_QUEUES.map((q) => ({ companyId, ...q })))
    .onConflictDoNothing();
  await db
    .insert(reviewReasonCodes)
    .values(DEFAULT_REASON_CODES.map((c, i) => ({ companyId, ...c, sortOrder: i })))
    .onConflictDoNothing();
}

export type QueueRow = typeof reviewQueues.$inferSelect;

/** The queue a new case of this kind goes to. */
export async function queueForKind(db: DbOrTx, companyId: number, kind: ReviewCaseKind): Promise<QueueRow> {
  await ensureReviewSetup(db, companyId);
  const rows = await db
    .select()
    .from(reviewQueues)
    .where(and(eq(reviewQueues.companyId, companyId), eq(reviewQueues.senior, false)))
    .orderBy(sql`${reviewQueues.name} = ${QUEUE_OF_KIND[kind]} desc`, asc(reviewQueues.id));
  const queue = rows[0];
  if (!queue) throw new Error(`company ${companyId} has no review queue`);
  return queue;
}

/** The company's first senior queue (escalations), or null. */
export async function seniorQueue(db: DbOrTx, companyId: number): Promise<QueueRow | null> {
  const [queue] = await db
    .select()
    .from(reviewQueues)
    .where(and(eq(reviewQueues.companyId, companyId), eq(reviewQueues.senior, true)))
    .orderBy(asc(reviewQueues.id))
    .limit(1);
  return queue ?? null;
}

/** When a case of this queue is due, counted from `from`. */
export const dueFrom = (queue: Pick<QueueRow, 'slaHours'>, from: Date) =>
  new Date(from.getTime() + queue.slaHours * HOUR_MS);
