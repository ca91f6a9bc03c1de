import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import type { Note } from '#contract/notes';
import { profileSchema } from '#contract/profiles';
import {
  checklistAnswerBodySchema,
  checklistAnswerResponseSchema,
  fourEyesRefusalSchema,
  generateSummaryBodySchema,
  generateSummaryResponseSchema,
  noteCreateBodySchema,
  noteCreateResponseSchema,
  profileCreateBodySchema,
  profileCreateResponseSchema,
  profileEditBodySchema,
  profileEditResponseSchema,
  statusChangeBodySchema,
  statusChangeHeldSchema,
  statusChangeResponseSchema,
} from '#contract/profileWrites';
import type { AppContext } from '../context';
import { profiles } from '../db/schema';
import { recordMentions } from '../domain/notifications';
import { toProfile } from '../domain/profiles';
import {
  type Actor,
  addNote,
  answerChecklist,
  changeStatus,
  createProfile,
  editProfile,
  loadProfileFacts,
} from '../domain/profileWrites';
import { forbidden, HttpError, notFound } from '../errors';
import { need, principalOf } from '../http/access';
import { rateLimited, sharedLimit } from '../http/rateLimits';
import { conflictSchema, ifMatchHeaders, seenVersion, versioned, withEtag } from '../http/versioning';
import { createLocalSummariser, type Summariser } from '../integrations/summariser';
import { announceMentions } from './notifications';
import { authErrors } from './shared';

const access = need('view_profiles_page');

/** Restricted User reads profiles and adds notes, but does not create, edit, re-status or answer checklists. */
export async function notRestricted(request: FastifyRequest): Promise<void> {
  if (principalOf(request).role === 'Restricted User') throw forbidden();
}

export const actorOf = (request: FastifyRequest): Actor => {
  const principal = principalOf(request);
  return { userId: principal.id, companyId: principal.companyId };
};

/** Who wrote which profile, for `profile.changed`. */
export const watchOf = (actor: Actor, profileId: number) => ({
  companyId: actor.companyId,
  userId: actor.userId,
  profileId,
});

export const SUMMARY_FAILED = 'The summary could not be generated';

/** The 409 of a stale profile write (If-Match), with the profile as it is now. */
export const profileConflict = { 409: conflictSchema(profileSchema) };
const IF_MATCH =
  " Send the profile's ETag as If-Match: a newer version answers 409 with the current profile.";

/** The write paths of the profile screen: status, create, edit, notes, checklist, summary. */
export function profileWriteRoutes(
  ctx: AppContext,
  options: { summariser?: Summariser } = {},
): FastifyPluginAsyncZod {
  const summariser = options.summariser ?? createLocalSummariser();
  /** Runs a profile write that names the version it saw; 409 answers the profile as it is now. */
  const versionedProfile = <T>(request: FastifyRequest, run: () => Promise<T>) =>
    versioned(run, async (stale) => {
      const [row] = await ctx.db
        .select()
        .from(profiles)
        .where(and(eq(profiles.id, stale.id), eq(profiles.companyId, principalOf(request).companyId)));
      if (!row) throw notFound();
      return toProfile(row);
    });
  return async (app) => {
    app.patch(
      '/profile/:id/status',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: "Change a profile's status",
          tags: ['profiles'],
          description:
            'Allowed transitions only (docs/server.md); a refused one answers 200 `{ result: false, status: <current>, ' +
            "detail: 'Status change failed' }`. Rejected and Blacklisted need `reject_reason` (≥ 10 characters). " +
            "The company's four-eyes rules (docs/review.md) hold on this route too: a change they catch does not " +
            'happen but waits as the caller’s decision on the profile’s review case (opened when there is none) ' +
            'until another reviewer with second_review confirms it: 202 `{ result: false, status: <current>, detail, ' +
            'second_review: { case, decision, rules } }`. 409 `{ detail, rules, case }` when a decision on the ' +
            'profile already awaits a second review (it alone changes the status), or when the rules catch a change ' +
            'the desk cannot hold (Temporarily Approved, Blacklisted).' +
            IF_MATCH,
          params: idParams,
          headers: ifMatchHeaders,
          body: statusChangeBodySchema,
          response: {
            200: statusChangeResponseSchema,
            202: statusChangeHeldSchema,
            ...authErrors,
            409: z.union([profileConflict[409], fourEyesRefusalSchema]),
          },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const seen = seenVersion(request);
        const answer = await versionedProfile(request, () =>
          ctx.db.transaction((tx) => changeStatus(tx, actor, request.params.id, request.body, seen)),
        );
        if (answer.result) {
          ctx.profileCounts.invalidate(actor.companyId);
          ctx.profileWatch.changed({ ...watchOf(actor, request.params.id), what: 'status' });
        }
        if (answer.result || 'second_review' in answer)
          ctx.reviewFeed.profileCases(actor.companyId, request.params.id);
        if ('second_review' in answer) return reply.code(202).send(answer);
        return answer;
      },
    );

    app.post(
      '/profile',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Create a profile',
          tags: ['profiles'],
          description:
            'New profiles are Created, risk Unknown, source studio. Duplicate id card number: 400.',
          body: profileCreateBodySchema,
          response: { 201: profileCreateResponseSchema, ...authErrors },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const profile = await ctx.db.transaction((tx) => createProfile(tx, actor, request.body));
        ctx.profileCounts.invalidate(actor.companyId);
        return reply.code(201).send(profile);
      },
    );

    app.patch(
      '/profile/:id',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Edit a profile',
          tags: ['profiles'],
          description: `A changed address needs province, city and street ('Please enter address details').${IF_MATCH}`,
          params: idParams,
          headers: ifMatchHeaders,
          body: profileEditBodySchema,
          response: { 200: profileEditResponseSchema, ...authErrors, ...profileConflict },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const seen = seenVersion(request);
        const profile = await versionedProfile(request, () =>
          ctx.db.transaction((tx) => editProfile(tx, actor, request.params.id, request.body, seen)),
        );
        ctx.profileWatch.changed({ ...watchOf(actor, request.params.id), what: 'details' });
        return withEtag(reply, profile);
      },
    );

    const noteRoute = (path: string, kind: Note['kind'], summary: string) =>
      app.post(
        path,
        {
          config: { access },
          schema: {
            summary,
            tags: ['notes'],
            params: idParams,
            body: noteCreateBodySchema,
            response: { 201: noteCreateResponseSchema, ...authErrors },
          },
        },
        async (request, reply) => {
          const actor = actorOf(request);
          const { note, told } = await ctx.db.transaction(async (tx) => {
            const note = await addNote(tx, actor, request.params.id, kind, request.body.note);
            const told = await recordMentions(tx, {
              id: note.id,
              companyId: actor.companyId,
              profileId: note.profile,
              authorId: actor.userId,
              text: note.note,
            });
            return { note, told };
          });
          ctx.profileWatch.changed({ ...watchOf(actor, request.params.id), what: 'note' });
          await announceMentions(ctx, actor, note, told);
          return reply.code(201).send(note);
        },
      );
    noteRoute('/profile/:id/note', 'note', 'Add a note to a profile');
    noteRoute('/profile/:id/agent_note', 'agent', 'Add an agent note to a profile');

    app.post(
      '/profile/:id/answer',
      {
        config: { access },
        onRequest: notRestricted,
        schema: {
          summary: 'Answer a check-list question',
          tags: ['notes'],
          description:
            'One answer per question and profile: a new answer replaces the previous one. It bumps the ' +
            "profile's version." +
            IF_MATCH,
          params: idParams,
          headers: ifMatchHeaders,
          body: checklistAnswerBodySchema,
          response: { 200: checklistAnswerResponseSchema, ...authErrors, ...profileConflict },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const seen = seenVersion(request);
        const answer = await versionedProfile(request, () =>
          ctx.db.transaction((tx) => answerChecklist(tx, actor, request.params.id, request.body, seen)),
        );
        ctx.profileWatch.changed({ ...watchOf(actor, request.params.id), what: 'checklist' });
        return answer;
      },
    );

    const outside = sharedLimit(ctx, 'outsideCalls');
    app.post(
      '/profile/:id/generate_summary',
      {
        config: { access },
        onRequest: outside.onRequest,
        schema: {
          summary: 'Ask the summariser about a profile',
          tags: ['profiles'],
          description: `Answers the question from the profile's data through the summariser (${summariser.name}). ${outside.text}`,
          params: idParams,
          body: generateSummaryBodySchema,
          response: { 200: generateSummaryResponseSchema, ...authErrors, 502: errorSchema, ...rateLimited },
        },
      },
      async (request) => {
        const facts = await loadProfileFacts(ctx.db, principalOf(request).companyId, request.params.id);
        try {
          const summary = await summariser.summarise(facts, request.body.question);
          if (!summary.trim()) throw new Error('empty summary');
          return { summary };
        } catch (error) {
          request.log.warn({ err: error, summariser: summariser.name }, 'summariser failed');
          throw new HttpError(502, SUMMARY_FAILED);
        }
      },
    );
  };
}
