import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BITOOL_MAX_DAYS, bitoolQuerySchema, bitoolSchema, WEEKLY_UP_TO_DAYS } from '#contract/stats';
import type { AppContext } from '../context';
import { bitool } from '../domain/bitool';
import { need, principalOf } from '../http/access';
import { rateLimited, sharedLimit } from '../http/rateLimits';
import { authErrors } from './shared';

/** GET /bitool (docs/product/api.md): the dashboard's figures. */
export function bitoolRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limited = sharedLimit(ctx, 'reports');
  return async (app) => {
    app.get(
      '/bitool',
      {
        config: { access: need('view_dashboard_page') },
        onRequest: limited.onRequest,
        schema: {
          summary: 'Dashboard figures',
          tags: ['company'],
          description:
            'Dashboard figures of the company from `start_date` to `end_date` (UTC days, both included; ' +
            `default: the last 6 months up to today; at most ${BITOOL_MAX_DAYS} days). Per period ` +
            `(ISO weeks up to ${WEEKLY_UP_TO_DAYS} days, else months): profiles created by current status, ` +
            'approvals and rejections (by last status change), AML screenings and hits, calls by status; ' +
            `for the range: document checks by kind and result, call outcomes. ${limited.text}`,
          querystring: bitoolQuerySchema,
          response: { 200: bitoolSchema, ...authErrors, ...rateLimited },
        },
      },
      async (request) => bitool(ctx.db, ctx.reports, principalOf(request).companyId, request.query),
    );
  };
}
