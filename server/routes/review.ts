/** The reviewers' desk: `server/domain/review/*`, contract `contract/review.ts`, docs/review.md. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  assignBodySchema,
  awaitCustomerBodySchema,
  confirmBodySchema,
  decisionAnswerSchema,
  decisionBodySchema,
  moveBodySchema,
  queueBodySchema,
  REVIEW_DECISIONS,
  REVIEW_DETAILS,
  REVIEW_VIEWS,
  type ReviewCase,
  reasonCodesBodySchema,
  reasonCodesSchema,
  returnBodySchema,
  reviewCaseDetailSchema,
  reviewCaseListQuery,
  reviewCasePageSchema,
  reviewCaseSchema,
  reviewerBodySchema,
  reviewerSchema,
  reviewQueueSchema,
  rulesBodySchema,
  rulesSchema,
  snoozeBodySchema,
} from '#contract/review';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import type { Principal } from '../domain/principal';
import { assignCase, moveCase, nextCase, peekNextCase, unassignCase } from '../domain/review/assign';
import { confirmDecision, decideCase, returnDecision } from '../domain/review/decide';
import { caseDetail, listCases, listQueues, readCase } from '../domain/review/reads';
import {
  getReasonCodes,
  getRules,
  listReviewers,
  setQueue,
  setReasonCodes,
  setReviewer,
  setRules,
} from '../domain/review/settings';
import { awaitCustomer, resumeByHand, snoozeCase } from '../domain/review/waiting';
import { forbidden, HttpError } from '../errors';
import { need, principalOf } from '../http/access';
import { toKeysetPage } from '../http/paging';
import { authErrors } from './shared';

const review = need('review_profiles');
const admin = need('review_profiles', { admin: true });
const tags = ['review'];
const writeErrors = { ...authErrors, 409: errorSchema };
const caseAnswer = { 200: reviewCaseSchema, ...writeErrors };

export function reviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  /** Tells the company's reviewers of a committed case change (`review.case_changed`). */
  const tell = (companyId: number, c: ReviewCase) =>
    ctx.reviewFeed.changed(companyId, [{ id: c.id, state: c.state, assignee: c.assignee }]);
  /** Runs a case write in a transaction and answers the case as the list shows it; the reviewers hear of it. */
  const write = async (companyId: number, run: (tx: Tx) => Promise<{ id: number }>) => {
    const row = await ctx.db.transaction(run);
    const answer = await readCase(ctx.db, companyId, row.id);
    tell(companyId, answer);
    return answer;
  };
  /** A decided case may have changed its profile's status: list counts and open copies of the profile follow. */
  const profileDecided = (actor: Principal, profileId: number) => {
    ctx.profileCounts.invalidate(actor.companyId);
    ctx.profileWatch.changed({ companyId: actor.companyId, userId: actor.id, profileId, what: 'status' });
  };
  return async (app) => {
    app.get(
      '/review/cases',
      {
        config: { access: review },
        schema: {
          summary: 'List review cases',
          tags,
          description:
            'Cases of the company that are not decided (or those of `state`), soonest due first, with paging. ' +
            `Filters: \`queue\`, \`assignee\` (user ids), \`view\` (${REVIEW_VIEWS.map((v) => `\`${v}\``).join(', ')}), ` +
            '`due_before` (ISO date-time with offset), `profile` (one profile’s cases); `ordering` `due_at` (default) or ' +
            '`-due_at`. `overdue` marks a running case past its due time; a waiting ' +
            'case (awaiting customer, snoozed) is never overdue. A snooze that ran out is back before the answer. ' +
            'Needs `review_profiles`.',
          querystring: reviewCaseListQuery,
          response: { 200: reviewCasePageSchema, ...authErrors },
        },
      },
      async (request) => {
        const page = await listCases(ctx.db, principalOf(request), request.query, ctx.config.listCountCap);
        return toKeysetPage(request, request.query.limit, page, page.links, page.results);
      },
    );

    app.get(
      '/review/cases/:id',
      {
        config: { access: review },
        schema: {
          summary: 'Read a review case with its timeline',
          tags,
          description:
            'The case, the decision waiting for a second review (`pending`) and the timeline of every step, oldest ' +
            'first. Another company’s case answers 404. Needs `review_profiles`.',
          params: idParams,
          response: { 200: reviewCaseDetailSchema, ...authErrors },
        },
      },
      async (request) => caseDetail(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.post(
      '/review/cases/:id/assign',
      {
        config: { access: review },
        schema: {
          summary: 'Take a review case or assign it to a colleague',
          tags,
          description:
            'Body `{ user }` assigns the case to that user, `{}` takes it yourself. The user must be an active ' +
            'reviewer (`review_profiles`) of your company, and for a senior queue also have `second_review` (400 ' +
            'otherwise). A case assigned to someone else is reassigned only by them or an Admin (409). A decided case ' +
            'or one awaiting a second review cannot be assigned (409). Audited; on the timeline.',
          params: idParams,
          body: assignBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) => assignCase(tx, actor, request.params.id, request.body.user));
      },
    );

    app.post(
      '/review/cases/:id/unassign',
      {
        config: { access: review },
        schema: {
          summary: 'Unassign a review case',
          tags,
          description: 'By the assignee or an Admin (403 otherwise); a decided case answers 409. Audited.',
          params: idParams,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) => unassignCase(tx, actor, request.params.id));
      },
    );

    app.post(
      '/review/cases/:id/move',
      {
        config: { access: review },
        schema: {
          summary: 'Move a review case to another queue',
          tags,
          description:
            'Body `{ queue }`: a queue of your company (400 otherwise). Someone else’s case moves only by them or an ' +
            'Admin (409); a decided case or one awaiting a second review cannot move (409). The due time stays; a ' +
            'running case becomes escalated in a senior queue and open in an ordinary one; an assignee who may not ' +
            'review the new queue is unassigned. Audited; on the timeline.',
          params: idParams,
          body: moveBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) => moveCase(tx, actor, request.params.id, request.body.queue));
      },
    );

    app.post(
      '/review/cases/:id/decision',
      {
        config: { access: review },
        schema: {
          summary: 'Decide a review case',
          tags,
          description:
            `\`decision\` one of ${REVIEW_DECISIONS.map((d) => `\`${d}\``).join(', ')}, with \`reason_code\` and ` +
            '`note`. Only the assignee or an Admin decides (403). A decision that has reason codes needs one of them ' +
            '(400), and a code marked `note_required` a note. approve → Approved, reject → Rejected (the note, or the ' +
            'code’s label, is the reject reason: at least 10 characters), resubmit → Pending Upload, abort leaves the ' +
            'profile as it is, escalate moves the case to the senior queue (a note of at least 10 characters; the ' +
            'case is unassigned). An approval caught by the company’s four-eyes rules waits as ' +
            '`awaiting_second_review` (answer `second_review_required: true`, webhook `review.requested`) and the ' +
            'profile changes only on confirmation; otherwise the case is decided at once (webhook `review.decided`).',
          params: idParams,
          body: decisionBodySchema,
          response: { 200: decisionAnswerSchema, ...writeErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const outcome = await ctx.db.transaction((tx) =>
          decideCase(tx, actor, request.params.id, request.body),
        );
        if (outcome.row.state === 'decided') profileDecided(actor, outcome.row.profileId);
        const answer = await readCase(ctx.db, actor.companyId, outcome.row.id);
        tell(actor.companyId, answer);
        return {
          second_review_required: outcome.secondReviewRequired,
          rules: outcome.rules,
          case: answer,
        };
      },
    );

    app.post(
      '/review/cases/:id/confirm',
      {
        config: { access: need('second_review') },
        schema: {
          summary: 'Confirm a decision awaiting a second review',
          tags,
          description:
            'Four-eyes: a reviewer with `second_review` who is not the maker (403 for the maker) confirms the ' +
            'waiting decision; the profile’s status changes now and the case is decided (webhook `review.decided` ' +
            'with `second_review: true`). 409 when the case is not awaiting a second review.',
          params: idParams,
          body: confirmBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const answer = await write(actor.companyId, (tx) =>
          confirmDecision(tx, actor, request.params.id, request.body.note ?? null),
        );
        profileDecided(actor, answer.profile);
        return answer;
      },
    );

    app.post(
      '/review/cases/:id/return',
      {
        config: { access: need('second_review') },
        schema: {
          summary: 'Return a decision awaiting a second review',
          tags,
          description:
            'Four-eyes: a reviewer with `second_review` who is not the maker sends the decision back with a note ' +
            '(10 to 1000 characters); the case runs again with its maker and the profile is unchanged.',
          params: idParams,
          body: returnBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) =>
          returnDecision(tx, actor, request.params.id, request.body.note),
        );
      },
    );

    app.post(
      '/review/cases/:id/snooze',
      {
        config: { access: review },
        schema: {
          summary: 'Snooze a review case until a date',
          tags,
          description:
            'By the assignee or an Admin: the SLA clock stops until `until` (in the future, at most 365 days ahead); ' +
            'then the case is back with its due time moved on by the time it slept.',
          params: idParams,
          body: snoozeBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const { until, note } = request.body;
        return write(actor.companyId, (tx) =>
          snoozeCase(tx, actor, request.params.id, new Date(until), note ?? null),
        );
      },
    );

    app.post(
      '/review/cases/:id/await_customer',
      {
        config: { access: review },
        schema: {
          summary: 'Set a review case to await the customer',
          tags,
          description:
            'By the assignee or an Admin: the SLA clock stops until the customer acts (a new upload, call, AML hit ' +
            'or Pending Review of the profile for the same kind of case) or the case is resumed by hand.',
          params: idParams,
          body: awaitCustomerBodySchema,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) =>
          awaitCustomer(tx, actor, request.params.id, request.body.note ?? null),
        );
      },
    );

    app.post(
      '/review/cases/:id/resume',
      {
        config: { access: review },
        schema: {
          summary: 'Resume a waiting review case',
          tags,
          description:
            'By the assignee or an Admin: a snoozed case or one awaiting the customer runs again; its due time moves ' +
            'on by the time the clock stood still. 409 when the case is not waiting.',
          params: idParams,
          response: caseAnswer,
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return write(actor.companyId, (tx) => resumeByHand(tx, actor, request.params.id));
      },
    );

    app.get(
      '/review/next',
      {
        config: { access: review },
        schema: {
          summary: 'See the next review case without taking it',
          tags,
          description:
            'The case that `POST /review/next` would assign to you now, without assigning it (the studio loads its ' +
            'profile ahead); 404 when none is waiting. Another reviewer may take it first.',
          response: { 200: reviewCaseSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const id = await peekNextCase(ctx.db, actor);
        if (id === null) throw new HttpError(404, REVIEW_DETAILS.noCase);
        return readCase(ctx.db, actor.companyId, id);
      },
    );

    app.post(
      '/review/next',
      {
        config: { access: review },
        schema: {
          summary: 'Take the next review case',
          tags,
          description:
            'Assigns to you the oldest due unassigned case (open or escalated) of your queues (every ordinary queue; ' +
            'senior queues with `second_review`) and answers it; 404 when none is waiting. Atomic: concurrent ' +
            'callers never get the same case.',
          response: { 200: reviewCaseSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const row = await nextCase(ctx.db, actor);
        if (!row) throw new HttpError(404, REVIEW_DETAILS.noCase);
        const answer = await readCase(ctx.db, actor.companyId, row.id);
        tell(actor.companyId, answer);
        return answer;
      },
    );

    app.get(
      '/review/queues',
      {
        config: { access: review },
        schema: {
          summary: 'Review queues',
          tags,
          description:
            'The company’s queues (by default Identity, AML and the senior Escalations) with their SLA in hours and ' +
            'their open, overdue and awaiting-second-review case counts.',
          response: { 200: z.array(reviewQueueSchema), ...authErrors },
        },
      },
      async (request) => listQueues(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/review/queues/:id',
      {
        config: { access: admin },
        schema: {
          summary: "Set a review queue's SLA and auto-assignment",
          tags,
          description:
            'Admins only: `sla_hours` (1 to 8760; applies to cases opened or escalated from now on) and `auto_assign` ' +
            '(new cases go at once to the least-loaded reviewer who is not away and under capacity; switching it on ' +
            "assigns the queue's waiting unassigned cases now). Another company's queue answers 404. Audited.",
          params: idParams,
          body: queueBodySchema,
          response: { 200: reviewQueueSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return ctx.db.transaction((tx) => setQueue(tx, actor, request.params.id, request.body));
      },
    );

    app.get(
      '/review/rules',
      {
        config: { access: admin },
        schema: {
          summary: 'Four-eyes rules',
          tags,
          description:
            'When an approval needs a second reviewer: approving High or Very High risk, approving after a failed ' +
            'identification step, overriding an AML hit, every approval. Admins only.',
          response: { 200: rulesSchema, ...authErrors },
        },
      },
      async (request) => getRules(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/review/rules',
      {
        config: { access: admin },
        schema: {
          summary: 'Set the four-eyes rules',
          tags,
          description:
            'Admins only; all four flags. Audited (`review_rules_changed`). Decisions already waiting keep their second review.',
          body: rulesBodySchema,
          response: { 200: rulesSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return ctx.db.transaction((tx) => setRules(tx, actor, request.body));
      },
    );

    app.get(
      '/review/reason_codes',
      {
        config: { access: review },
        schema: {
          summary: 'Reason codes of decisions',
          tags,
          description:
            'Per decision (reject, resubmit, escalate, abort): code, English and Turkish labels, and whether the ' +
            'code needs a note. A decision with codes needs one of them. Readable by reviewers, written by Admins.',
          response: { 200: reasonCodesSchema, ...authErrors },
        },
      },
      async (request) => ({ codes: await getReasonCodes(ctx.db, principalOf(request).companyId) }),
    );

    app.put(
      '/review/reason_codes',
      {
        config: { access: admin },
        schema: {
          summary: 'Set the reason codes',
          tags,
          description:
            'Admins only: the whole list (at most 100) replaces the stored one; a code is lower-case letters, digits ' +
            'and underscores, once per decision; labels 1 to 200 characters in both languages. Audited.',
          body: reasonCodesBodySchema,
          response: { 200: reasonCodesSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        return { codes: await ctx.db.transaction((tx) => setReasonCodes(tx, actor, request.body.codes)) };
      },
    );

    app.get(
      '/review/reviewers',
      {
        config: { access: review },
        schema: {
          summary: 'Reviewers with their load',
          tags,
          description:
            'The company’s reviewers (active users with `review_profiles`): capacity (auto-assignment stops there), ' +
            'away status, open cases assigned and whether they may do second reviews.',
          response: { 200: z.array(reviewerSchema), ...authErrors },
        },
      },
      async (request) => listReviewers(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/review/reviewers/:id',
      {
        config: { access: review },
        schema: {
          summary: "Set a reviewer's capacity and away status",
          tags,
          description:
            'An Admin sets any reviewer’s `capacity` (0 to 1000) and `away`; a reviewer sets only their own `away` ' +
            '(403 otherwise). A user who is not a reviewer of your company answers 404. Audited.',
          params: idParams,
          body: reviewerBodySchema,
          response: { 200: reviewerSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = principalOf(request);
        const own = request.params.id === actor.id && request.body.capacity === undefined;
        if (actor.role !== 'Admin' && !own) throw forbidden();
        return ctx.db.transaction((tx) => setReviewer(tx, actor, request.params.id, request.body));
      },
    );
  };
}
