import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socketTokenBodySchema, socketTokenResponseSchema } from '../../src/contract/auth';
import { errorSchema, idParams } from '../../src/contract/common';
import { userListQuerySchema, userPageSchema, userSchema } from '../../src/contract/users';
import type { AppContext } from '../context';
import { getUser, listUsers } from '../domain/users';
import { forbidden, notFound } from '../errors';
import { need, principalOf, SIGNED_IN } from '../http/access';
import { toPage } from '../http/paging';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/user',
      {
        config: { access: need('view_admin_page', { admin: true }) },
        schema: {
          tags: ['users'],
          querystring: userListQuerySchema,
          response: { 200: userPageSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const { count, results } = await listUsers(ctx.db, ctx.storage, me.companyId, request.query);
        return toPage(request, request.query, count, results);
      },
    );

    app.get(
      '/user/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          description: 'Any signed-in user may read themself; reading another user needs the Admin role.',
          params: idParams,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const { id } = request.params;
        if (id !== me.id && me.role !== 'Admin') {
          // Another company's id is unknown here (404); a colleague's is forbidden.
          const user = await getUser(ctx.db, ctx.storage, me.companyId, id);
          throw user ? forbidden() : notFound();
        }
        const user = await getUser(ctx.db, ctx.storage, me.companyId, id);
        if (!user) throw notFound();
        return user;
      },
    );

    app.post(
      '/user/socket_token',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          description: 'A short-lived token for the socket.io connection (`auth: { token }`).',
          body: socketTokenBodySchema,
          response: { 200: socketTokenResponseSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        return { token: await ctx.tokens.signSocket({ user_id: me.id, company_id: me.companyId }) };
      },
    );
  };
}
