/** Relay-only calls of a company: `server/domain/callIce.ts`. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callNetworkBodySchema, callNetworkSchema } from '#contract/callNetwork';
import type { AppContext } from '../context';
import { getCallNetwork, setCallNetwork } from '../domain/callIce';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

export function callNetworkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/call_network',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: "How the company's calls cross networks",
          tags: ['videocalls'],
          description:
            '`relay_only`: the company’s calls connect through the TURN server only, so neither side learns the ' +
            'other’s address (the server also drops every other address from the call’s signalling). ' +
            '`relay_only_by_server`: the server makes every call relay-only (`ICE_TRANSPORT_POLICY=relay`) ' +
            'whatever the company’s setting. `turn_configured`: the server has a TURN server (`TURN_URLS`).',
          response: { 200: callNetworkSchema, ...authErrors },
        },
      },
      async (request) => getCallNetwork(ctx.db, ctx.config.ice, principalOf(request).companyId),
    );

    app.put(
      '/call_network',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: "Set the company's relay-only calls",
          tags: ['videocalls'],
          description:
            'Admins only. Turning `relay_only` on is refused with 400 when the server has no TURN server. ' +
            'Audited (`call_network_changed`). Calls already connected keep their path; new calls and ' +
            'reconnections follow the setting.',
          body: callNetworkBodySchema,
          response: { 200: callNetworkSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        const answer = await setCallNetwork(ctx.db, ctx.config.ice, companyId, id, request.body);
        ctx.callIce.forget(companyId);
        return answer;
      },
    );
  };
}
