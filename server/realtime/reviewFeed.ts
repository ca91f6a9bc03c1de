/**
 * The reviewers' desk live (docs/events.md "Review"): every committed change of a case (opened, taken,
 * assigned, unassigned, moved, decided, waiting) sends `review.case_changed` `{ id, state, assignee }` to the room
 * `reviewers:<company>`, which holds only the staff sockets of that company whose user may review profiles
 * (`review_profiles`, not an API user) as of the connection. The studio's desk refetches what it shows.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Server } from 'socket.io';
import type { ReviewCaseState } from '#contract/review';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '#contract/socket';
import type { DbOrTx } from '../db/client';
import { reviewCases } from '../db/schema';
import { reviewersRoom } from './rooms';

type FeedServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface CaseChange {
  id: number;
  state: ReviewCaseState;
  assignee: number | null;
}

export interface ReviewFeed {
  bind(io: FeedServer): void;
  /** Tells the company's reviewers that committed writes changed these cases. */
  changed(companyId: number, cases: readonly CaseChange[]): void;
  /**
   * Tells them of the open cases of a profile (after a write that may have opened one: a status set to Pending
   * Review, a video call's final status, an AML hit, an upload). Never throws (errors go to onError).
   */
  profileCases(companyId: number, profileId: number): void;
}

export function createReviewFeed(deps: { db: DbOrTx; onError: (error: unknown) => void }): ReviewFeed {
  let server: FeedServer | null = null;
  const changed = (companyId: number, cases: readonly CaseChange[]) => {
    if (!server) return;
    for (const c of cases)
      server.to(reviewersRoom(companyId)).emit('review.case_changed', {
        id: c.id,
        state: c.state,
        assignee: c.assignee,
      });
  };
  return {
    bind(io) {
      server = io;
    },
    changed,
    profileCases(companyId, profileId) {
      if (!server) return;
      deps.db
        .select({ id: reviewCases.id, state: reviewCases.state, assignee: reviewCases.assigneeId })
        .from(reviewCases)
        .where(
          and(
            eq(reviewCases.companyId, companyId),
            eq(reviewCases.profileId, profileId),
            ne(reviewCases.state, 'decided'),
          ),
        )
        .then((rows) => changed(companyId, rows as CaseChange[]), deps.onError);
    },
  };
}
