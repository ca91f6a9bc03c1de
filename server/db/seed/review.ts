/**
 * The demo's reviewers' desk: Acme's four-eyes rule (approving High and Very High risk needs a second
 * reviewer), every company's default queues and reason codes, and a few hundred open Acme cases on the seeded
 * profiles. Only the desk's own tables are written: profiles, statuses and counts stay as the rest of the seed
 * made them. Times count back from the moment of seeding, so some cases are overdue and some are not.
 */
import { asc, eq } from 'drizzle-orm';
import { REVIEW_CASE_KINDS, type ReviewCaseKind } from '#contract/review';
import { DAY_MS, HOUR_MS } from '#contract/time';
import { ensureReviewSetup } from '../../domain/review/setup';
import type { Db } from '../client';
import {
  profiles,
  reviewCaseEvents,
  reviewCases,
  reviewPendingDecisions,
  reviewQueues,
  reviewRules,
} from '../schema';
import { insertAll } from './profiles';

const CHUNK = 1000;

export interface ReviewSeed {
  companyIds: number[];
  /** The company whose profiles get cases, and its reviewers (assignees, makers). */
  acme: { id: number; reviewerIds: number[] };
  now?: number;
}

export async function seedReview(db: Db, seed: ReviewSeed): Promise<number> {
  for (const companyId of seed.companyIds) await ensureReviewSetup(db, companyId);
  const { acme } = seed;
  await db.update(reviewRules).set({ approveHighRisk: true }).where(eq(reviewRules.companyId, acme.id));
  const queues = await db.select().from(reviewQueues).where(eq(reviewQueues.companyId, acme.id));
  const queueNamed = (name: string) => queues.find((q) => q.name === name) as (typeof queues)[number];
  const now = seed.now ?? Date.now();
  const reviewer = (n: number) => acme.reviewerIds[n % acme.reviewerIds.length] as number;
  const profileRows = await db
    .select({ id: profiles.id, risk: profiles.riskLevel })
    .from(profiles)
    .where(eq(profiles.companyId, acme.id))
    .orderBy(asc(profiles.id));
  const highRisk = new Set(
    profileRows.filter((p) => p.risk === 'High' || p.risk === 'Very High').map((p) => p.id),
  );

  const rows: (typeof reviewCases.$inferInsert)[] = [];
  const pendingOf: { index: number; maker: number }[] = [];
  profileRows.forEach(({ id: profileId }, i) => {
    const kinds: ReviewCaseKind[] = [REVIEW_CASE_KINDS[i % 4] as ReviewCaseKind];
    if (i % 3 === 0) kinds.push(REVIEW_CASE_KINDS[(i + 1) % 4] as ReviewCaseKind);
    for (const kind of kinds) {
      const n = rows.length;
      const escalated = n % 25 === 7;
      const queue = escalated
        ? queueNamed('Escalations')
        : queueNamed(kind === 'aml_hit' ? 'AML' : 'Identity');
      // Opened over the last 60 hours: the older ones are past their SLA.
      const created = new Date(now - ((n * 37) % 60) * HOUR_MS - (n % 50) * 60_000);
      const assigned = n % 10 === 3 || n % 50 === 11;
      const base = {
        companyId: acme.id,
        profileId,
        kind,
        queueId: queue.id,
        state: 'open',
        assigneeId: assigned ? reviewer(n) : null,
        assignedAt: assigned ? new Date(created.getTime() + HOUR_MS) : null,
        dueAt: new Date(created.getTime() + queue.slaHours * HOUR_MS),
        createdAt: created,
        updatedAt: created,
      };
      if (escalated) base.state = 'escalated';
      else if (n % 40 === 13) {
        Object.assign(base, {
          state: 'snoozed',
          pausedAt: new Date(now - HOUR_MS),
          snoozedUntil: new Date(now + (1 + (n % 5)) * DAY_MS),
        });
      } else if (n % 45 === 21)
        Object.assign(base, { state: 'awaiting_customer', pausedAt: new Date(now - 2 * HOUR_MS) });
      else if (n % 50 === 11 && highRisk.has(profileId)) {
        base.state = 'awaiting_second_review';
        pendingOf.push({ index: n, maker: base.assigneeId as number });
      }
      rows.push(base);
    }
  });
  // In chunks (a bench seeds 10,000 cases: one statement would pass PostgreSQL's 65,535 parameters).
  const inserted: { id: number }[] = [];
  for (let i = 0; i < rows.length; i += CHUNK)
    inserted.push(
      ...(await db
        .insert(reviewCases)
        .values(rows.slice(i, i + CHUNK))
        .returning({ id: reviewCases.id })),
    );
  await insertAll(
    db,
    reviewCaseEvents,
    inserted.map((c, n) => ({
      caseId: c.id,
      companyId: acme.id,
      actorId: null,
      kind: 'opened',
      data: { kind: rows[n]?.kind, queue: rows[n]?.queueId, source: 'demo' },
      createdAt: rows[n]?.createdAt,
    })),
  );
  if (pendingOf.length > 0)
    await db.insert(reviewPendingDecisions).values(
      pendingOf.map(({ index, maker }) => ({
        caseId: inserted[index]?.id as number,
        companyId: acme.id,
        makerId: maker,
        decision: 'approve',
        rules: ['approve_high_risk'],
        createdAt: new Date(now - HOUR_MS),
      })),
    );
  return inserted.length;
}
