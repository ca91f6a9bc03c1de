import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionIdParams, sessionListSchema } from '#contract/sessions';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { principalOf, SIGNED_IN } from '../http/access';
import { authErrors } from './shared';

/**
 * The signed-in user's own server-side sessions: list them, end one (/settings), end the
 * caller's own (the studio's Logout and Logout All). Only one's own sessions: another user's id is 404.
 */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/session',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'List my active sessions',
          tags: ['sessions'],
          description:
            'The caller’s sessions that have not ended or expired, latest activity first: browser (User-Agent), ' +
            'address, sign-in time, last seen (written at most once a minute) and `current` for the caller’s own.',
          response: { 200: sessionListSchema, ...authErrors },
        },
      },
      async (request) => ctx.sessions.list(ctx.db, principalOf(request).id, request.sessionId),
    );

    app.delete(
      '/session/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'End one of my sessions',
          tags: ['sessions'],
          description:
            'Its token gets 401 from now on and its sockets are disconnected. 404 for an unknown, ended or ' +
            'another user’s session.',
          params: sessionIdParams,
          response: { 204: z.null().describe('Ended'), ...authErrors },
        },
      },
      async (request, reply) => {
        const me = principalOf(request);
        if (!(await ctx.sessions.end(ctx.db, me.id, request.params.id))) throw notFound();
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/session/logout',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Log out (end this session)',
          tags: ['sessions'],
          description:
            'Ends the session of the token that calls: the token gets 401 from now on and the session’s sockets ' +
            'are disconnected. The studio calls it on Logout and, for every stored account, on Logout All.',
          response: { 204: z.null().describe('Ended'), ...authErrors },
        },
      },
      async (request, reply) => {
        const me = principalOf(request);
        if (request.sessionId) await ctx.sessions.end(ctx.db, me.id, request.sessionId, 'logged_out');
        return reply.code(204).send(null);
      },
    );
  };
}
