import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { checklistGroupSchema, logsQuerySchema, logsResponseSchema, noteSchema } from '#contract/notes';
import type { AppContext } from '../context';
import { getChecklist, listLogs, listNotes } from '../domain/notes';
import { assertProfile } from '../domain/profiles';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

const access = need('view_profiles_page');

/** Notes, logs and the checklist of a profile (the profile sidebar). */
export function noteRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/profile/:id/note',
      {
        config: { access },
        schema: {
          summary: "A profile's notes",
          tags: ['notes'],
          params: idParams,
          response: { 200: z.array(noteSchema), ...authErrors },
        },
      },
      async (request) => {
        await assertProfile(ctx.db, principalOf(request).companyId, request.params.id);
        return listNotes(ctx.db, request.params.id);
      },
    );

    app.get(
      '/profile/:id/logs',
      {
        config: { access },
        schema: {
          summary: "A profile's activity log",
          tags: ['notes'],
          description: 'Newest first, `limit` default 20; `after_id` continues below that entry.',
          params: idParams,
          querystring: logsQuerySchema,
          response: { 200: logsResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        await assertProfile(ctx.db, principalOf(request).companyId, request.params.id);
        return listLogs(ctx.db, request.params.id, request.query);
      },
    );

    app.get(
      '/profile/:id/checklist',
      {
        config: { access },
        schema: {
          summary: "A profile's check lists with answers",
          tags: ['notes'],
          params: idParams,
          response: { 200: z.array(checklistGroupSchema), ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        await assertProfile(ctx.db, companyId, request.params.id);
        return getChecklist(ctx.db, companyId, request.params.id);
      },
    );
  };
}
