import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../src/contract/common';
import type { Note } from '../../src/contract/notes';
import {
  checklistAnswerBodySchema,
  checklistAnswerResponseSchema,
  generateSummaryBodySchema,
  generateSummaryResponseSchema,
  noteCreateBodySchema,
  noteCreateResponseSchema,
  profileCreateBodySchema,
  profileCreateResponseSchema,
  profileEditBodySchema,
  profileEditResponseSchema,
  statusChangeBodySchema,
  statusChangeResponseSchema,
} from '../../src/contract/profileWrites';
import type { AppContext } from '../context';
import {
  type Actor,
  addNote,
  answerChecklist,
  changeStatus,
  createProfile,
  editProfile,
  loadProfileFacts,
} from '../domain/profileWrites';
import { forbidden, HttpError } from '../errors';
import { need, principalOf } from '../http/access';
import { createLocalSummariser, type Summariser } from '../integrations/summariser';
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

export const SUMMARY_FAILED = 'The summary could not be generated';

/** The write paths of the profile screen (issue 6): status, create, edit, notes, checklist, summary. */
export function profileWriteRoutes(
  ctx: AppContext,
  options: { summariser?: Summariser } = {},
): FastifyPluginAsyncZod {
  const summariser = options.summariser ?? createLocalSummariser();
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
            "detail: 'Status change failed' }`. Rejected and Blacklisted need `reject_reason` (≥ 10 characters).",
          params: idParams,
          body: statusChangeBodySchema,
          response: { 200: statusChangeResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const answer = await ctx.db.transaction((tx) =>
          changeStatus(tx, actor, request.params.id, request.body),
        );
        if (answer.result) ctx.profileCounts.invalidate(actor.companyId);
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
          description: "A changed address needs province, city and street ('Please enter address details').",
          params: idParams,
          body: profileEditBodySchema,
          response: { 200: profileEditResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return ctx.db.transaction((tx) => editProfile(tx, actor, request.params.id, request.body));
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
          const note = await ctx.db.transaction((tx) =>
            addNote(tx, actor, request.params.id, kind, request.body.note),
          );
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
          description: 'One answer per question and profile: a new answer replaces the previous one.',
          params: idParams,
          body: checklistAnswerBodySchema,
          response: { 200: checklistAnswerResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return ctx.db.transaction((tx) => answerChecklist(tx, actor, request.params.id, request.body));
      },
    );

    app.post(
      '/profile/:id/generate_summary',
      {
        config: { access },
        schema: {
          summary: 'Ask the summariser about a profile',
          tags: ['profiles'],
          description: `Answers the question from the profile's data through the summariser (${summariser.name}).`,
          params: idParams,
          body: generateSummaryBodySchema,
          response: { 200: generateSummaryResponseSchema, ...authErrors, 502: errorSchema },
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
