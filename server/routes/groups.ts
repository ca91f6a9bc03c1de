import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { groupSchema } from '#contract/companies';
import { groupCreateBodySchema, groupUpdateBodySchema } from '#contract/groups';
import type { AppContext } from '../context';
import { createGroup, deleteGroup, groupMemberIds, updateGroup } from '../domain/groups';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

/** Group writes; `GET /group` is in companies.ts. Admins of the company only. */
export function groupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const ADMIN = need('view_admin_page', { admin: true });
  return async (app) => {
    app.post(
      '/group',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'Create a group',
          description: 'A name unique in the company (case-insensitive) and page permissions.',
          body: groupCreateBodySchema,
          response: { 201: groupSchema, ...authErrors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createGroup(ctx, principalOf(request), request.body)),
    );

    app.patch(
      '/group/:id',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'Rename a group or change its permissions',
          description: 'Members’ permissions follow at once.',
          params: idParams,
          body: groupUpdateBodySchema,
          response: { 200: groupSchema, ...authErrors },
        },
      },
      async (request) => {
        const group = await updateGroup(ctx, principalOf(request), request.params.id, request.body);
        await request.server.hub?.refreshAccess(await groupMemberIds(ctx.db, group.id));
        return group;
      },
    );

    app.delete(
      '/group/:id',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'Delete a group',
          description: 'Its members lose the permissions it gave.',
          params: idParams,
          response: { 204: z.null(), ...authErrors },
        },
      },
      async (request, reply) => {
        // Read before the delete: its rows leave with the group.
        const members = await groupMemberIds(ctx.db, request.params.id);
        await deleteGroup(ctx, principalOf(request), request.params.id);
        await request.server.hub?.refreshAccess(members);
        return reply.code(204).send(null);
      },
    );
  };
}
