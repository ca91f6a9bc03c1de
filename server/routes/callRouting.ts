/** A company's call routing: `server/domain/callRouting.ts`, the desk's `callDesk/routing.ts`. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CALL_ROUTINGS,
  callRoutingBodySchema,
  callRoutingSchema,
  JOIN_LINK_RETRIES,
  OFFER_SECONDS,
} from '#contract/callRouting';
import type { AppContext } from '../context';
import { getCallRouting, setCallRouting } from '../domain/callRouting';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

export function callRoutingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/call_routing',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: "The company's call routing",
          tags: ['videocalls'],
          description:
            'How waiting calls reach agents: `ring_all` (every free agent rings at once, the default) or ' +
            '`one_at_a_time` (one free agent is offered the call for `offer_seconds`, chosen at random among ' +
            'those who speak the customer’s language and took the fewest calls in the last hour; then the next). ' +
            '`join_link_retries`: how many new calls one join link may start after its calls ended by a ' +
            'technical abort (MISSED, BAD QUALITY, CONNECTION ERROR, DISCONNECTED); any other ending uses the ' +
            'link up.',
          response: { 200: callRoutingSchema, ...authErrors },
        },
      },
      async (request) => getCallRouting(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/call_routing',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: "Set the company's call routing",
          tags: ['videocalls'],
          description:
            `Admins only: \`call_routing\` one of ${CALL_ROUTINGS.map((r) => `\`${r}\``).join(', ')}, ` +
            `\`offer_seconds\` ${OFFER_SECONDS.min} to ${OFFER_SECONDS.max} (default ${OFFER_SECONDS.default}), ` +
            `\`join_link_retries\` ${JOIN_LINK_RETRIES.min} to ${JOIN_LINK_RETRIES.max} (default ` +
            `${JOIN_LINK_RETRIES.default}; absent: unchanged); out of bounds, 400 and nothing changes. ` +
            'Audited (`call_routing_changed`). A server running distributed (`REDIS_URL`) refuses ' +
            '`one_at_a_time` with 400. Calls already waiting keep the routing they started with.',
          body: callRoutingBodySchema,
          response: { 200: callRoutingSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return setCallRouting(ctx.db, companyId, id, request.body, ctx.config.redisUrl !== undefined);
      },
    );
  };
}
